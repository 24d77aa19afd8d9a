"""Regressions, named after the issue that found them."""

from __future__ import annotations

from tests.sparta_athens.helpers import HIT, MISS, actions, decide, result, said


def test_issue_9_a_new_mobilisation_that_raises_nothing_is_not_reported_mobilised(sa):
    """Line 168: only if all dice are successes does the bot raise a force; round three, two
    dice, one fails: nothing is mobilised, and the result says so."""
    trace = decide(sa, "new_mobilisation", dice=[HIT, MISS], round=3, talents=5,
                   target_marchable=True)
    assert result(trace) == "no_mobilisation"
    assert actions(trace) == []
    assert "no force raised" in said(trace)


def test_issue_9_a_bot_that_cannot_pay_mobilises_nothing(sa):
    """Line 168: three talents per mobilisation; with two, no test and no force."""
    trace = decide(sa, "new_mobilisation", round=3, talents=2)
    assert result(trace) == "no_mobilisation" and trace.dice == []


def test_issue_9_reactions_that_all_fail_are_not_reported_as_reactions(sa):
    """Lines 143-145: tied at sea, one die, a failure: no reaction to the navy."""
    trace = decide(sa, "mobilisation", dice=[MISS], sea="tied", talents=8,
                   player_mobilisations=[{"force": "navy"}])
    assert result(trace) == "no_reaction" and actions(trace) == []


def test_issue_9_success_rolls_show_successes_not_sums(sa):
    """Line 65: two dice, count the successes: 5 and 2 are one success (not 7)."""
    trace = decide(sa, "objective", dice=[5, 2], regions=[{"name": "Attica"}],
                   assets=[{"category": "elite", "gap": 1}])
    roll, = trace.dice
    assert roll.total == 1 and roll.counting.startswith("face >= success_from")


def test_issue_9_every_die_shows_in_the_trace_with_the_test_it_decides(sa):
    """Round one tests twice (line 157), then the battle-card test (line 170): three rolls,
    each in the step that rolled it and each naming its test."""
    trace = decide(sa, "new_mobilisation", dice=[MISS, HIT, HIT], round=1, talents=12,
                   active_siege=True, target_marchable=True)
    assert [r.purpose for r in trace.dice] == [
        "New mobilisation, round 1: raise one force if every die rolled is a success",
        "New mobilisation, round 1: raise one force if every die rolled is a success",
        "Six talents after paying for mobilisation: one-die test, buy a battle card on a "
        "success"]
    in_steps = [r for step in trace.steps for r in step.outcome.get("rolls", [])]
    assert in_steps == [r.as_dict() for r in trace.dice]
