"""SUPERCAT § Playing a bot turn › Guild and Lore Cards (line 110): new actions at most once per
chapter; General Priorities' check selects the suit matching the ability; the card is marked
exhausted when used; a chapter makes the cards ready again."""

from __future__ import annotations

from tests.arcs.helpers import decide, selected

HAND = """
hand_counter: 3
initiative: true
cards:
  - {suit: mobilization, number: 7, pips: 2}
  - {suit: aggression, number: 1, pips: 4}
  - {suit: administration, number: 7, pips: 1}
"""


def test_an_ability_on_two_suits_picks_one_at_random(arcs):
    """Move is on Mobilization and Aggression: either card fits; the dice pick (readings R6)."""
    suits = {selected(decide(arcs, HAND + "guild_cards: [{name: Guild Investigators, "
                             "action: move, can_use: true}]\n", seed=seed))["suit"]
             for seed in range(1, 9)}
    assert suits == {"mobilization", "aggression"}


def test_a_card_the_bot_cannot_use_now_is_not_a_reason_to_select(arcs):
    trace = decide(arcs, HAND + "guild_cards: [{name: Guild Investigators, action: move}]\n")
    assert "gp.guild-ability" not in trace.fired()


def test_a_card_with_no_new_action_is_never_used(arcs):
    trace = decide(arcs, HAND + "guild_cards: [{name: Arms Dealers, can_use: true}]\n")
    assert "use_guild_ability" not in [a.action for a in trace.decision.actions]


def test_the_used_card_is_exhausted_and_the_decision_says_so(arcs):
    trace = decide(arcs, HAND + "guild_cards: [{name: Court Bureaucrats, action: tax, "
                   "can_use: true}]\n")
    assert selected(trace)["suit"] == "administration"
    assert trace.decision.actions[0].action == "use_guild_ability"
    assert any("Mark Court Bureaucrats exhausted" in s for s in trace.decision.say)


def test_a_chapter_readies_the_exhausted_cards(arcs):
    trace = decide(arcs, "step: chapter\nguild_cards: [{name: Mining Guild, action: build, "
                   "exhausted: true}]\n")
    assert "chapter.guild-cards" in trace.fired()
    assert trace.decision.result == "chapter"
