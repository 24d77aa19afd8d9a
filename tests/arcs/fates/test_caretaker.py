"""SUPERCAT § Caretaker: Awaken, Golems (every bot's), Stone Speakers, the campaign judgments."""

from __future__ import annotations

from tests.arcs.fates.helpers import verdict
from tests.arcs.helpers import actions, decide


def rules(trace) -> list[str]:
    return [a.rule for a in trace.decision.actions]


def test_with_one_fate_action_the_caretaker_just_takes_golems(arcs):
    """Awaken (readings R44): a Tax would make the bot win the declared Tycoon, but with the
    Fate's single action (half of 2) there would be none left to Awaken: it just takes Golems;
    the Administration page then Taxes."""
    trace = decide(arcs, """
fate: caretaker
hand_counter: 3
initiative: true
awaken_ready: true
cards: [{suit: administration, number: 1, pips: 2}]
ambitions: [{name: tycoon, declared: true, bot: 2, best_rival: 2}]
options: [{action: tax, resource: fuel, ambition: tycoon}]
""")
    assert rules(trace) == ["caretaker.act1.awaken", "admin.tax-contend-declared"]


def test_stone_speakers_not_with_golems(arcs):
    """Stone Speakers: only if the bot has no Golems."""
    snapshot = """
fate: caretaker
hand_counter: 3
initiative: true
stone_speakers: true
cards: [{suit: administration, number: 5, pips: 1}]
ambitions: [{name: keeper, bot: 2, best_rival: 1}]
"""
    assert "use_stone_speakers" in [a for a, _ in actions(decide(arcs, snapshot))]
    held = decide(arcs, snapshot + "golems: [{type: seeker}]\n")
    assert "use_stone_speakers" not in [a for a, _ in actions(held)]


def test_seeker_like_fuel_for_a_combat_card_and_harvester_for_a_declared_ambition(arcs):
    """Golems (readings R45): the Seeker goes with a card selected for a favorable combat; the
    Harvester gains a resource that makes the bot contend a declared ambition."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 1, pips: 2}]
ambitions:
  - {name: tycoon, declared: true, bot: 1, best_rival: 2}
  - {name: warlord, declared: true, bot: 0, best_rival: 1}
golems: [{type: seeker}, {type: harvester}]
options:
  - {action: battle, goal: trophies, ambition: warlord, ships: 2, fresh_ships: 2, defenders: 1}
""")
    used = [s.rule for s in trace.steps if s.rule.startswith("golems.use")]
    assert used == ["golems.use-seeker", "golems.use-harvester"]
    harvest = next(a for a in trace.decision.actions if a.rule == "golems.use-harvester")
    assert harvest.target["name"] == "tycoon"


def test_council_decided_and_librarians_are_judgments_for_the_table(arcs):
    """Imperial Council Decided (Act I): resolve Crises while Sleeping Golems are off the map;
    Librarians (Act II): always use the ability — judgments the campaign's pages read."""
    act1 = "fate: caretaker\nact: 1\nhand_counter: 1\ncards: [{suit: construction, number: 1}]\n"
    assert verdict(arcs, act1 + "sleeping_golems_off_map: true\n",
                   "caretaker.council-decided")["status"] == "fired"
    assert verdict(arcs, act1, "caretaker.council-decided")["status"] == "skipped"
    act2 = act1.replace("act: 1", "act: 2") + "librarians_held: true\n"
    assert verdict(arcs, act2, "caretaker.librarians")["status"] == "fired"


def test_the_warriors_trophies_count_in_warlord_at_once(arcs):
    """Warrior (L455–456; readings R15, R45): its 2 trophies take the bot from 1 to 3 in the
    declared Warlord, past the best rival's 2 — the bot now wins it, so the Aggression page's
    [8] (favorable combat to contend a declared ambition) no longer applies and the Battle is
    [41]'s, for trophies with an ambition marker available."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 1, pips: 1}]
ambitions: [{name: warlord, declared: true, bot: 1, best_rival: 2, second_rival: 1}]
golems: [{type: warrior, trophies: 2}]
options:
  - {action: battle, goal: trophies, ambition: warlord, ships: 3, fresh_ships: 3, defenders: 1,
     trophies: 1}
""")
    assert rules(trace) == ["golems.use-warrior", "aggr.combat-trophies"]
