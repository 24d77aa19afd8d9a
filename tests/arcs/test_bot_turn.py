"""SUPERCAT § Bot turn (START HERE): drawing, declaring, surpassing, seizing, Events."""

from __future__ import annotations

from tests.arcs.helpers import decide, selected


def test_no_cards_left_passes(arcs):
    """✦ If bot has no cards left (check hand counter) then bot will pass."""
    trace = decide(arcs, "hand_counter: 0\n")
    assert trace.decision.result == "pass"
    assert trace.fired() == ["start.turn", "bot_turn.pass"]


def test_bonus_cards_equal_to_the_counter_means_no_draw(arcs):
    """✦ Is bot's hand counter greater than number of bonus cards? (§ Bonus cards: if the counter
    is equal to the number of bonus cards, the bot will not draw 2 cards. Either way, decrement.)"""
    trace = decide(arcs, """
hand_counter: 1
bonus_cards: 1
initiative: true
cards: [{suit: construction, number: 1, pips: 4, bonus: true}]
""")
    assert "bot_turn.draw" not in trace.fired()
    step = next(s for s in trace.steps if s.rule == "bot_turn.decrement")
    assert step.outcome["set"]["hand_counter"]["to"] == 0
    # nothing was drawn, so nothing is discarded (the bonus card is played with its 4 actions)
    assert "play.no-draw" in trace.fired() and "play.discard" not in trace.fired()
    assert "Discard the other drawn cards." not in trace.decision.say


def test_counter_above_bonus_cards_draws(arcs):
    """✦ Is bot's hand counter greater than number of bonus cards ...? Draw 2 cards."""
    trace = decide(arcs, """
hand_counter: 2
bonus_cards: 1
initiative: true
cards:
  - {suit: construction, number: 1, pips: 4, bonus: true}
  - {suit: mobilization, number: 1, pips: 4}
""")
    assert trace.fired()[1:3] == ["bot_turn.draw", "bot_turn.decrement"]
    assert "Discard the other drawn cards." in trace.decision.say


def test_initiative_declares_preferring_the_ambition_the_bot_is_winning(arcs):
    """Does bot have initiative? Is bot winning or tied for first place for a matching ambition?
    Select matching card and declare ... Prefer: ambition that bot is winning."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 3, pips: 3}, {suit: mobilization, number: 4, pips: 2}]
ambitions:
  - {name: tyrant, bot: 2, best_rival: 2}
  - {name: warlord, bot: 3, best_rival: 1}
""")
    assert "bot_turn.initiative.declare" in trace.fired()
    assert selected(trace)["ambition"] == "warlord"
    assert trace.decision.result != "pass"


def test_tied_for_first_only_declares_an_undeclared_ambition(arcs):
    """§ Clarifications: the bot will only double declare if it is winning; tied for first place
    it declares only an ambition not yet declared."""
    tied_declared = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 3, pips: 3}, {suit: mobilization, number: 1, pips: 4}]
ambitions: [{name: tyrant, declared: true, bot: 2, best_rival: 2}]
""")
    assert "bot_turn.initiative.declare" not in tied_declared.fired()
    assert "bot_turn.initiative.general-priorities" in tied_declared.fired()
    tied_open = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 3, pips: 3}, {suit: mobilization, number: 1, pips: 4}]
ambitions: [{name: tyrant, declared: false, bot: 2, best_rival: 2}]
""")
    assert "bot_turn.initiative.declare" in tied_open.fired()
    assert selected(tied_open)["ambition"] == "tyrant"


def test_surpass_prefers_the_higher_number(arcs):
    """✦ Can bot surpass with any card? Yes: Select card which surpasses. Prefer: higher number"""
    trace = decide(arcs, """
hand_counter: 3
lead_suit: construction
lead_number: 3
cards: [{suit: construction, number: 5, pips: 2}, {suit: construction, number: 6, pips: 2}]
""")
    assert "bot_turn.surpass" in trace.fired()
    assert selected(trace)["number"] == 6
    assert selected(trace)["mode"] == "surpass"


def _no_surpass(seize_counter: int, dice: list[int], ambitions: str = "") -> str:
    return f"""
hand_counter: 4
lead_suit: aggression
lead_number: 6
seize_counter: {seize_counter}
dice: {dice}
cards: [{{suit: administration, number: 1, pips: 4}}, {{suit: construction, number: 1, pips: 4}}]
{ambitions}
"""


def test_seize_counter_is_placed_at_one(arcs):
    """No: If seize counter is on bot's board, increment it, else place seize counter, with a
    value of 1."""
    trace = decide(arcs, _no_surpass(0, [6]))
    step = next(s for s in trace.steps if s.rule == "bot_turn.no_surpass.place-seize-counter")
    assert step.outcome["set"]["seize_counter"] == {"from": 0, "to": 1, "by": "1"}


def test_seize_counter_is_incremented(arcs):
    """No: If seize counter is on bot's board, increment it."""
    trace = decide(arcs, _no_surpass(2, [6]))
    step = next(s for s in trace.steps
                if s.rule == "bot_turn.no_surpass.increment-seize-counter")
    assert step.outcome["set"]["seize_counter"]["to"] == 3


def test_seize_roll_subtracts_undeclared_ambitions_the_bot_is_winning(arcs):
    """Roll 1d6, and subtract 1 for each undeclared ambition that bot is winning. Seize initiative
    if result is less than seize counter: counter 2 → 3, roll 3 - 1 = 2 < 3, seize."""
    trace = decide(arcs, _no_surpass(2, [3], "ambitions: [{name: tycoon, bot: 2, best_rival: 1}]"))
    assert "bot_turn.no_surpass.seize" in trace.fired()
    step = next(s for s in trace.steps if s.rule == "bot_turn.no_surpass.seize")
    assert step.outcome["set"]["hand_counter"] == {"from": 3, "to": 2, "by": "hand_counter - 1"}


def test_seize_needs_a_result_strictly_less_than_the_counter(arcs):
    """Seize initiative if result is less than seize counter: counter 2 → 3, roll 4 - 1 = 3 is
    not less than 3, no seize."""
    trace = decide(arcs, _no_surpass(2, [4], "ambitions: [{name: tycoon, bot: 2, best_rival: 1}]"))
    assert "bot_turn.no_surpass.seize-roll" in trace.fired()
    assert "bot_turn.no_surpass.seize" not in trace.fired()


def test_no_seize_check_when_hand_counter_below_two(arcs):
    """If hand counter is 2 or greater and initiative was not already seized this round, check
    for seize (hand counter 2 → 1 after the decrement: no roll)."""
    trace = decide(arcs, _no_surpass(2, [1]).replace("hand_counter: 4", "hand_counter: 2"))
    assert "bot_turn.no_surpass.seize-roll" not in trace.fired()


def test_event_is_played_if_none_played_this_round(arcs):
    """If one of the cards is an Event, and an Event has not been played this round, play it."""
    trace = decide(arcs, """
hand_counter: 1
lead_suit: aggression
lead_number: 6
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
""")
    assert trace.decision.result == "event"
    assert trace.decision.actions[0].action == "play_event"


def test_event_not_played_twice_in_a_round(arcs):
    """... and an Event has not been played this round, play it. Otherwise: Use General
    Priorities to select card."""
    trace = decide(arcs, """
hand_counter: 1
lead_suit: aggression
lead_number: 6
event_played_this_round: true
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
""")
    assert trace.decision.result != "event"
    assert selected(trace)["suit"] != "event"


def test_magnate_events_critical_seizes_automatically(arcs):
    """if holding Event ..., and Events are critical, automatically seize initiative (Magnate
    Act I: If objective marker is greater than zero, events are critical)."""
    trace = decide(arcs, """
fate: magnate
act: 1
objective_marker: 2
hand_counter: 4
lead_suit: aggression
lead_number: 5
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
""")
    assert trace.judgments["events_critical"].value is True
    assert "bot_turn.no_surpass.seize-critical-event" in trace.fired()
    assert "bot_turn.no_surpass.seize-roll" not in trace.fired()
    assert trace.dice == []
    assert trace.decision.result == "event"


def test_magnate_with_objective_zero_rolls_instead(arcs):
    """Magnate Act I Events: only if objective marker is greater than zero."""
    trace = decide(arcs, """
fate: magnate
act: 1
objective_marker: 0
hand_counter: 4
lead_suit: aggression
lead_number: 5
dice: [6]
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
""")
    assert "bot_turn.no_surpass.seize-critical-event" not in trace.fired()
    assert "bot_turn.no_surpass.seize-roll" in trace.fired()


def test_a_declaration_counts_on_the_suit_page_and_does_not_leak_into_the_snapshot(arcs):
    """Bot turn: 'Select matching card and declare' happens before the suit page's actions, so
    the suit page sees the ambition declared; deciding again starts from the snapshot as given."""
    from pathlib import Path

    from whybot.facts.snapshot import load_snapshot

    root = Path(__file__).resolve().parents[2]
    situation = load_snapshot(root / "facts/examples/arcs/initiative_declare.yaml", arcs.pack)
    first = arcs.decide(situation, seed=1)
    again = arcs.decide(situation, seed=1)
    declared = next(s for s in first.steps if s.rule == "bot_turn.declare.mark")
    assert declared.outcome["rederive"] is True
    assert declared.outcome["update"][0]["set"]["declared"] == {"from": False, "to": True,
                                                               "by": "true"}
    assert situation.entities["ambition"][0]["declared"] is False
    assert first.decision.actions == again.decision.actions
    assert first.decision.actions[0].rule == "aggr.secure-captives"
