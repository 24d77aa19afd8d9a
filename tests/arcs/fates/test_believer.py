"""SUPERCAT § Believer and its Faithful cards (every bot's): how a Faithful card is played, the
Fate's lines choosing one, Set Doctrine, The Young Light, the Believer's setup."""

from __future__ import annotations

from tests.arcs.fates.helpers import verdict
from tests.arcs.helpers import actions, decide, selected


def rules(trace) -> list[str]:
    return [a.rule for a in trace.decision.actions]


def test_a_faithful_card_surpasses_only_a_faithful_lead_on_the_same_side(arcs):
    """The Faithful card's rule (readings R41): Faithful 5 surpasses a Faithful card led on Wisdom,
    and plays on Wisdom; against a Zeal lead numbered 6 it cannot."""
    snapshot = """
hand_counter: 3
lead_number: 2
dice: [6]
cards: [{suit: faithful, number: 5, pips: 3}, {suit: construction, number: 1, pips: 2}]
options: [{action: build, goal: ships}]
"""
    wisdom = decide(arcs, "lead_suit: faithful_wisdom\n" + snapshot)
    assert "bot_turn.surpass" in wisdom.fired()
    assert selected(wisdom)["suit"] == "faithful_wisdom"
    assert selected(wisdom)["mode"] == "surpass"
    zeal = decide(arcs, "lead_suit: faithful_zeal\n" + snapshot.replace("lead_number: 2",
                                                                         "lead_number: 6"))
    assert selected(zeal)["mode"] != "surpass"


def test_after_a_zeal_lead_a_faithful_card_pivots_only_to_wisdom(arcs):
    """A pivot plays another suit than the led one: after a Zeal lead, only Wisdom (R41); General
    Priorities' Build ships takes it on its Wisdom side."""
    trace = decide(arcs, """
hand_counter: 3
lead_suit: faithful_zeal
lead_number: 7
dice: [6]
cards: [{suit: faithful, number: 2, pips: 4}]
options: [{action: build, goal: ships, target: ships}]
""")
    assert selected(trace)["suit"] == "faithful_wisdom"
    assert selected(trace)["mode"] == "pivot"
    assert rules(trace) == []  # the Faithful Wisdom page has no Build ships line (R42)


def test_a_resumed_faithful_card_keeps_its_side(arcs):
    """Resuming a Faithful card after a Battle: its side, given on the card (or named by the
    resume page), is the page."""
    snapshot = """
hand_counter: 2
resume: faithful_zeal
resume_actions: 1
resume_mode: lead
initiative: true
cards: [{suit: faithful, number: 3, pips: 3, side: zeal}]
ambitions: [{name: keeper, declared: true, bot: 1, best_rival: 1}]
options: [{action: tax, resource: relic, ambition: keeper}]
"""
    trace = decide(arcs, snapshot)
    assert selected(trace)["suit"] == "faithful_zeal"
    assert rules(trace) == ["zeal.tax-contend-declared"]
    named = decide(arcs, snapshot.replace(", side: zeal", ""))
    assert selected(named)["suit"] == "faithful_zeal"


def test_the_believers_fate_line_takes_a_faithful_card_too(arcs):
    """General Priorities reads the Fate page as its first line; a Faithful card takes the
    prioritized action (L577, readings R40): the Believer's Ideal Tax on Faithful Zeal, not on the
    Administration card."""
    trace = decide(arcs, """
fate: believer
act: 2
hand_counter: 3
initiative: true
cards: [{suit: administration, number: 1, pips: 2}, {suit: faithful, number: 8, pips: 1}]
ambitions: [{name: keeper, declared: true, ideal: true, bot: 1, best_rival: 2}]
options: [{action: tax, resource: relic, ambition: keeper}]
""")
    assert selected(trace)["suit"] == "faithful_zeal"
    assert rules(trace) == ["believer.act2.tax-ideal"]


def test_leading_the_faithful_card_is_preferred_to_the_suit_card(arcs):
    """✦ Can bot Build or Repair ships? → Construction: Build is on the Faithful card's Wisdom
    side, and "select that card" (L577, readings R40): the Faithful card before Construction."""
    snapshot = """
hand_counter: 3
initiative: true
cards: [{suit: construction, number: 2, pips: 2}, {suit: SUIT, number: 4, pips: 3}]
options: [{action: build, goal: ships}]
"""
    assert selected(decide(arcs, snapshot.replace("SUIT", "faithful")))["suit"] == \
        "faithful_wisdom"
    assert selected(decide(arcs, snapshot.replace("SUIT", "mobilization")))["suit"] == \
        "construction"


def test_set_doctrine_prefers_wisdom_when_both_hold(arcs):
    """Set Doctrine (readings R53): Secure to contend → Wisdom, even when a Tax also contends;
    only a Tax → Zeal; neither → do not switch."""
    base = """
fate: believer
act: 2
hand_counter: 3
initiative: true
cards: [{suit: construction, number: 1, pips: 2}]
ambitions:
  - {name: tyrant, declared: true, bot: 1, best_rival: 2}
  - {name: keeper, bot: 0, best_rival: 1}
"""
    both = base + ("options: [{action: secure, captives: 1, ambition: tyrant},"
                   " {action: tax, resource: relic, ambition: keeper}]\n")
    tax = base + "options: [{action: tax, resource: relic, ambition: keeper}]\n"
    found = verdict(arcs, both, "believer.set-doctrine.wisdom")
    assert (found["status"], found["value"]) == ("fired", "wisdom")
    assert verdict(arcs, both, "believer.set-doctrine.zeal")["status"] == "skipped"
    assert verdict(arcs, tax, "believer.set-doctrine.zeal")["value"] == "zeal"
    assert verdict(arcs, base, "believer.set-doctrine.none")["value"] == "none"


def test_the_young_light_is_an_act_ii_ability(arcs):
    """The Young Light is under Act II: in Act I the bot does not use it (L181)."""
    snapshot = """
fate: believer
hand_counter: 3
initiative: true
young_light: true
faithful_played: true
cards: [{suit: construction, number: 1, pips: 2}]
options: [{action: build, goal: ships}]
"""
    assert "young_light" not in [a for a, _ in actions(decide(arcs, "act: 1\n" + snapshot))]
    act2 = decide(arcs, "act: 2\n" + snapshot)
    assert "young_light" in [a for a, _ in actions(act2)]


def test_the_believer_places_its_first_building_through_the_setup_hook(arcs):
    """Act I setup 2.G-H: any bot's first building is a city; the Believer's comes from its own
    setup page (fate.believer.setup), preferring a planet matching a court Guild card (R57)."""
    snapshot = ("step: setup\nbuildings_placed: 0\n"
                "slots: [{name: Hexy 1}, {name: Arrow 2, guild_suit: true}]\n")
    assert rules(decide(arcs, snapshot))[0] == "setup.city"
    believer = decide(arcs, "fate: believer\n" + snapshot)
    assert believer.decision.result == "setup"
    assert rules(believer) == ["believer.setup.cities"]
    assert believer.decision.actions[0].target["name"] == "Arrow 2"


def test_a_copy_of_a_faithful_lead_is_not_a_faithful_card(arcs):
    """After a Faithful card led on Zeal, any card may copy it (a Zeal action), but only a
    Faithful card is "that card" L577 selects first: with none in hand, the Tax line picks at
    random among its plays."""
    trace = decide(arcs, """
hand_counter: 3
lead_suit: faithful_zeal
lead_number: 7
dice: [6]
cards: [{suit: administration, number: 3, pips: 2}, {suit: construction, number: 1, pips: 2}]
ambitions: [{name: keeper, declared: true, bot: 0, best_rival: 1}]
options: [{action: tax, resource: relic, ambition: keeper}]
""")
    step = next(s for s in trace.steps if s.rule == "gp.tax-contend-declared")
    narrowing = step.as_dict()["outcome"]["select"]["narrowing"]
    assert narrowing[0].endswith("none qualifies")
    assert step.as_dict()["outcome"]["select"]["candidates"] == 3
