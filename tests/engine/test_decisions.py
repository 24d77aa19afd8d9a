"""The engine on a toy pack: priorities, statements, pages, choices, dice, overlays."""

from __future__ import annotations

import pytest

from tests.conftest import OVERLAYS, TOY_PACKS, engine_for
from tests.engine.helpers import decide
from whybot.engine import DecisionError


def test_the_highest_priority_applicable_rule_fires(toy):
    trace = decide(toy, "mood: angry\nready: true\ncoins: 2\n")
    assert trace.fired() == ["turn.count", "turn.angry"]
    assert trace.decision["actions"][0]["action"] == "shout"


def test_a_statement_reads_on_with_the_changed_board(toy):
    trace = decide(toy, "coins: 3\n")
    first = trace.steps[0]
    assert first.outcome["set"]["coins"] == {"from": 3, "to": 2, "by": "coins - 1"}
    assert trace.decision["result"] == "rest"


def test_rules_that_did_not_fire_say_why_with_the_values_seen(toy):
    trace = decide(toy, "mood: angry\nready: false\ntokens: [{colour: blue, size: 4}]\n")
    rest = trace.steps[-1]
    assert rest.rule == "turn.rest"
    why = {s["rule"]: s["why"] for s in rest.skipped}
    assert why["turn.count"] == ["coins > 0 is false (coins = 0)"]
    assert why["turn.angry"] == ["ready is false (ready = false)"]
    assert why["turn.fits"] == ["fits is false (fits = false)"]
    assert why["turn.poor"] == ["poor is false (poor = false)"]


def test_joined_derivation_selects_with_preference_and_order_then_goes_to_a_page(toy):
    trace = decide(toy, """
tokens: [{colour: blue, size: 3}, {colour: red, size: 1}, {colour: red, size: 2}]
slots: [{colour: red, open: true}]
""")
    assert trace.judgments["fits"].origin == "derived"
    assert trace.decision["actions"][0]["details"] == "Place the red token."
    chosen = trace.decision["choices"]["picked"]["entity"]
    assert chosen == {"colour": "red", "size": 2}
    assert [s.page for s in trace.steps][-1] == "place"


def test_a_join_that_fails_on_its_last_test_does_not_match(toy):
    """Hazard A: the join on colour is false; the guard keeps durable_rules from misreading."""
    trace = decide(toy, """
tokens: [{colour: blue, size: 1}]
slots: [{colour: red, open: true}]
""")
    assert trace.judgments["poor"].value is True
    assert "turn.fits" not in trace.fired()


def test_negation_waits_for_the_stratum_below(toy):
    trace = decide(toy, "tokens: [{colour: blue, size: 4}]\ncoins: 1\n")
    assert "poor" not in trace.judgments or trace.judgments["poor"].value is False
    assert trace.decision["result"] == "rest"


def test_answers_override_derivations_and_are_marked_given(toy):
    trace = decide(toy, "tokens: [{colour: blue, size: 4}]\nanswers: {poor: true}\ndice: [6]\n")
    assert trace.judgments["poor"].origin == "given"
    assert trace.decision["actions"][0]["action"] == "celebrate"


def test_prerolled_dice_are_used_in_order_and_traced(toy):
    trace = decide(toy, "dice: [2]\n")
    assert trace.dice == [{"dice": "1d6", "faces": [2], "total": 2, "source": "pre-rolled #1",
                           "for": "Poor? Try your luck."}]
    assert trace.decision["say"] == ["No luck."]


def test_seeded_dice_are_reproducible(toy):
    rolls = {tuple(d["faces"][0] for d in decide(toy, "", seed=s).dice) for s in (5, 5, 5)}
    assert len(rolls) == 1


def test_a_prerolled_die_too_big_for_the_roll_is_refused(toy):
    with pytest.raises(DecisionError, match="needs a d6"):
        decide(toy, "dice: [9]\n")


def test_ties_left_by_preferences_go_to_the_dice(toy):
    trace = decide(toy, """
tokens: [{colour: red, size: 2}, {colour: red, size: 2}]
slots: [{colour: red}]
dice: [2]
""")
    assert trace.dice[0]["for"].startswith("random pick among 2")
    assert trace.decision["choices"]["picked"]["entity"] == {"colour": "red", "size": 2}


def test_a_house_rule_with_higher_salience_is_consulted_first():
    engine = engine_for(TOY_PACKS, "toy", (OVERLAYS / "house",))
    trace = decide(engine, "coins: 12\nmood: calm\n")
    assert trace.fired() == ["house.calm-rest"]
    assert trace.steps[0].layer == "salience 10"


def test_replace_and_disable_by_id():
    engine = engine_for(TOY_PACKS, "toy", (OVERLAYS / "replace_disable",))
    assert engine.pack.rule("turn.angry") is None
    assert "never shout" in engine.pack.disabled["turn.angry"]
    trace = decide(engine, "mood: angry\nready: true\n")
    assert trace.decision["result"] == "nap"


def test_each_runs_a_page_per_entity_in_order_and_writes_changes_back(toy):
    trace = decide(toy, """
grow: true
tokens: [{colour: blue, size: 1}, {colour: red, size: 2}, {colour: green, size: 5}]
""")
    assert trace.decision["say"] == ["Grow the red token by 2.", "Grow the blue token by 1.",
                                     "Tokens now total 11."]
    assert trace.decision["result"] == "grown"
    grow_steps = [s for s in trace.steps if s.page == "grow"]
    assert [s.depth for s in grow_steps] == [1, 1]


def test_the_evaluator_reads_joins_between_sibling_exists_parts(toy):
    """The explainer must follow `exists ... and exists ... (s.colour == t.colour)` as a join."""
    from whybot.engine.evaluator.evaluate import World, failures, holds

    rule = toy.pack.rule("j.fits")
    world = World({}, {"token": [{"colour": "blue", "size": 1}, {"colour": "red", "size": 1}],
                       "slot": [{"colour": "red", "open": True}]})
    assert holds(rule.when, world)
    closed = World({}, {"token": [{"colour": "red", "size": 1}],
                        "slot": [{"colour": "red", "open": False}]})
    assert not holds(rule.when, closed)
    assert failures(rule.when, closed) == [
        "no slot with s.colour == t.colour and s.open (of 1 slot seen)"]
    assert failures(rule.when, World({}, {"slot": [{"colour": "red"}]})) == [
        "no token with t.size >= 1 (of 0 token seen)",
        "no slot with s.colour == t.colour and s.open for the t the rule needs"]
