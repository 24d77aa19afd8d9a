"""SUPERCAT § Partisan: the seizing guidelines (ability and Law), Informants, People's Hero."""

from __future__ import annotations

from tests.arcs.fates.helpers import verdict
from tests.arcs.helpers import actions, decide

FOLLOW = """
hand_counter: 4
lead_suit: aggression
lead_number: 7
seize_counter: 3
cards: [{suit: construction, number: 1, pips: 2}, {suit: mobilization, number: 1, pips: 2}]
options: [{action: build, goal: ships}]
"""


def test_outraged_resources_can_stop_a_seize(arcs):
    """Add 1 to the roll for each Outraged resource: 2 + 2 = 4 is not below the counter 4; a bot
    without the guidelines seizes on the same 2."""
    outraged = "outrage: [{resource: fuel, outraged: true}, {resource: relic, outraged: true}]\n"
    partisan = decide(arcs, "fate: partisan\ndice: [2]\n" + outraged + FOLLOW)
    plain = decide(arcs, "dice: [2]\n" + outraged + FOLLOW)
    assert "partisan.seize.outraged" in partisan.fired()
    assert not {"partisan.seize.provoke-outrage", "bot_turn.no_surpass.seize"} \
        & set(partisan.fired())
    assert "bot_turn.no_surpass.seize" in plain.fired()


def test_in_act_ii_only_the_law_brings_the_guidelines(arcs):
    """Act II reads only the Act II section (L181): without the Law, the Partisan seizes as the
    Bot turn page says, decrementing the hand counter (readings R46)."""
    trace = decide(arcs, "fate: partisan\nact: 2\ndice: [1]\n" + FOLLOW)
    assert "bot_turn.no_surpass.seize" in trace.fired()
    assert "partisan.seize.outraged" not in trace.fired()
    law = decide(arcs, "fate: partisan\nact: 2\npartisan_seizing_law: true\ndice: [1]\n" + FOLLOW)
    assert "partisan.seize.provoke-outrage" in law.fired()


def test_an_automatic_seize_for_critical_events_keeps_its_decrement(arcs):
    """Under the Law a Steward whose Events are critical seizes automatically: not the seize
    check, so the hand counter is decremented and no outrage is provoked (readings R46)."""
    trace = decide(arcs, """
fate: steward
act: 2
partisan_seizing_law: true
imperial_council: decided
hand_counter: 4
lead_suit: aggression
lead_number: 7
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
""")
    assert "bot_turn.no_surpass.seize-critical-event" in trace.fired()
    assert "provoke_outrage" not in [a for a, _ in actions(trace)]


def test_spy_is_limited_to_once_per_chapter(arcs):
    """✦ Does bot have 4 or more cards and can bot use Informants' Spy? (limit once per chapter)"""
    snapshot = """
fate: partisan
hand_counter: 5
initiative: true
informants: true
cards: [{suit: mobilization, number: 1, pips: 2}]
"""
    assert "spy_influence" in [a for a, _ in actions(decide(arcs, snapshot))]
    used = decide(arcs, snapshot + "spy_used_this_chapter: true\n")
    assert "spy_influence" not in [a for a, _ in actions(used)]
    informants = verdict(arcs, snapshot, "partisan.informants-draw")
    assert (informants["status"], informants["value"]) == ("fired", 4)


def test_peoples_hero_declares_from_second_place_but_never_double_declares(arcs):
    """People's Hero (readings R48): second place declares an undeclared ambition; a declared
    one is declared again only when winning; in Act I, no declaration from second place."""
    snapshot = """
fate: partisan
act: 2
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 3, pips: 2}]
ambitions: [{name: tyrant, bot: 2, best_rival: 3, second_rival: 1}]
"""
    assert "bot_turn.initiative.declare" in decide(arcs, snapshot).fired()
    declared = snapshot.replace("{name: tyrant,", "{name: tyrant, declared: true,")
    assert "bot_turn.initiative.declare" not in decide(arcs, declared).fired()
    act1 = snapshot.replace("act: 2", "act: 1")
    assert "bot_turn.initiative.declare" not in decide(arcs, act1).fired()
