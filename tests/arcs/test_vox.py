"""SUPERCAT § Vox Cards: when each of the nine is effective (line 1436: its When Secured text can
be fully carried out, or its Crisis text would impact the bot), that the bot Secures a Vox card
only if it is effective or takes captives, and how it resolves the card it Secures."""

from __future__ import annotations

import pytest

from tests.arcs.helpers import decide

LEAD = """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 7, pips: 1}, {suit: mobilization, number: 1, pips: 4}]
"""


def effective(trace, vox: str) -> bool | None:
    """The derived `effective` of the option for this Vox card."""
    for found in trace.entity_judgments:
        if found["field"] == "effective" and vox.replace("_", " ") in found["entity"].lower():
            return found["value"]
    return None


def secured(vox: str, extra: str = "", captives: int = 0) -> str:
    name = vox.replace("_", " ").title()
    return LEAD + extra + (f"options: [{{action: secure, court_card: vox, vox: {vox}, "
                           f"captives: {captives}, target: '{name}'}}]\n")


@pytest.mark.parametrize(("vox", "extra", "expected"), [
    ("call_to_action", "", True),
    ("mass_uprising", "ships_available: 4\n", True),
    ("mass_uprising", "ships_available: 3\n", False),
    ("populist_demands", "ambitions: [{name: empath, bot: 2, best_rival: 2}]\n", True),
    ("populist_demands", "ambitions: [{name: empath, declared: true, bot: 3, best_rival: 2}]\n",
     False),
    ("outrage_spreads", "vox_choices: [{vox: outrage_spreads, name: Fuel, resource: fuel, "
                        "stops_rival: true}]\n", True),
    ("outrage_spreads", "vox_choices: [{vox: outrage_spreads, name: Fuel, resource: fuel}]\n",
     False),
    ("song_of_freedom", "controls_rival_city: true\ninitiative_seized_this_round: false\n", False),
    ("guild_struggle", "vox_choices: [{vox: guild_struggle, name: Mining Guild}]\n", True),
    ("guild_struggle", "", False),
    ("council_intrigue", "", False),
    ("diplomatic_fiasco", "", False),
    ("blight_looms", "ambitions: [{name: warlord, bot: 0, best_rival: 2, second_rival: 1}]\n"
                     "vox_choices: [{vox: blight_looms, name: C3, damaged_blight: 1}]\n", True),
    ("blight_looms", "ambitions: [{name: warlord, bot: 0, best_rival: 2, second_rival: 2}]\n"
                     "vox_choices: [{vox: blight_looms, name: C3, damaged_blight: 1}]\n", False),
])
def test_when_each_vox_card_is_effective(arcs, vox, extra, expected):
    """Song of Freedom with the initiative: it is not possible to seize it (the bot holds it)."""
    trace = decide(arcs, secured(vox, extra, captives=1))
    assert effective(trace, vox) is expected


def test_song_of_freedom_is_effective_when_the_bot_can_seize(arcs):
    trace = decide(arcs, """
hand_counter: 3
lead_suit: construction
lead_number: 2
controls_rival_city: true
cards: [{suit: aggression, number: 7, pips: 1}, {suit: mobilization, number: 1, pips: 4}]
options: [{action: secure, court_card: vox, vox: song_of_freedom, target: Song of Freedom}]
""")
    assert effective(trace, "song_of_freedom") is True
    assert [a.action for a in trace.decision.actions] == ["secure", "seize_initiative"]


def test_diplomatic_fiasco_is_effective_when_its_crisis_would_impact_a_rival(arcs):
    trace = decide(arcs, LEAD + "options: [{action: secure, court_card: vox, "
                   "vox: diplomatic_fiasco, impacts_rival: true, target: Diplomatic Fiasco}]\n")
    assert [a.rule for a in trace.decision.actions] == \
        ["aggr.secure-vox-council", "vox.diplomatic-fiasco.resolve"]


def test_mass_uprising_goes_to_the_cluster_with_the_task_force(arcs):
    trace = decide(arcs, secured("mass_uprising", "ships_available: 5\n"))
    last = trace.decision.actions[-1]
    assert last.rule == "vox.mass-uprising.resolve" and "task force" in last.fields["details"]


def test_populist_demands_prefers_the_ambition_the_bot_is_winning(arcs):
    trace = decide(arcs, secured("populist_demands", """ambitions:
  - {name: empath, bot: 2, best_rival: 2}
  - {name: tyrant, bot: 3, best_rival: 1}
"""))
    assert trace.decision.choices["demand"].entity["name"] == "tyrant"


def test_council_intrigue_a_fate_makes_effective_moves_agents_by_the_influence_principles(arcs):
    """A Fate sets council_intrigue_effective (here given as the table's answer): the card is
    Secured at [4,5] and the agents go first to the card the Influence Principles prefer."""
    trace = decide(arcs, LEAD + """answers: {council_intrigue_effective: true}
options:
  - {action: secure, court_card: council_intrigue, vox: council_intrigue, target: Council Intrigue}
  - {action: influence, keys: 1, target: Material Cartel}
  - {action: influence, court_card: lore, target: Lore of the Ancients}
""")
    assert [a.rule for a in trace.decision.actions] == \
        ["aggr.secure-vox-council", "vox.council-intrigue.resolve"]
    assert trace.decision.choices["moved_to"].entity["target"] == "Lore of the Ancients"


def test_a_vox_card_neither_effective_nor_taking_captives_is_not_secured(arcs):
    """L1436 limits every Secure line: [42,43] "take any other cards" passes it by."""
    trace = decide(arcs, secured("song_of_freedom"))
    assert all(a.action != "secure" for a in trace.decision.actions)


def test_a_secure_of_a_card_that_is_no_vox_card_notes_it_and_reads_on(arcs):
    trace = decide(arcs, LEAD + "options: [{action: secure, captives: 1, target: A}]\n")
    step = next(s for s in trace.steps if s.rule == "aggr.secure-captives")
    assert step.outcome["missing"] == "vox.none"
