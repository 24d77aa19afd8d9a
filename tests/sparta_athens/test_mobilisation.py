"""§ MOBILISATION (seed lines 132-177): reactions, new mobilisation, what is mobilised."""

from __future__ import annotations

import pytest

from tests.sparta_athens.helpers import HIT, MISS, actions, decide, details, result, rolled, said


def react(engine, dice, forces, **board):
    mobs = [{"force": f} for f in forces]
    return decide(engine, "mobilisation", dice=dice, player_mobilisations=mobs, **board)


def test_advantaged_reacts_without_dice_and_no_battle_card(sa):
    """Lines 141, 147-149: advantaged reacts; pays 3; no battle card (not tied or worse)."""
    trace = react(sa, [], ["army"], land="advantaged", talents=8)
    assert actions(trace) == ["mobilise"]
    assert "battle card" not in details(trace)
    assert "5 talents left" in details(trace)


@pytest.mark.parametrize(("die", "reacts"), [(HIT, True), (MISS, False)])
def test_tied_one_die(sa, die, reacts):
    """Line 143: tied, one die, react on a success."""
    trace = react(sa, [die], ["navy"], sea="tied", talents=8)
    assert (actions(trace) == ["mobilise"]) is reacts
    assert result(trace) == ("reacted" if reacts else "no_reaction")


@pytest.mark.parametrize(("dice", "reacts"), [([HIT, HIT], True), ([HIT, MISS], False)])
def test_disadvantaged_two_dice(sa, dice, reacts):
    """Line 145: disadvantaged, two dice, react on two successes."""
    trace = react(sa, dice, ["army"], land="disadvantaged", talents=8)
    assert (actions(trace) == ["mobilise"]) is reacts


def test_battle_card_when_tied_and_affordable(sa):
    """Line 147: tied or worse, buy a battle card while mobilising if affordable: 4 talents pay
    3 for the mobilisation and 1 for the card."""
    trace = react(sa, [HIT], ["navy"], sea="tied", talents=4, battle_card_cost=1)
    assert "buy a battle card" in details(trace)
    assert "0 talents left" in details(trace)


def test_no_battle_card_when_not_affordable(sa):
    """Line 147: 3 talents pay the mobilisation only: no card."""
    trace = react(sa, [HIT, HIT], ["army"], land="disadvantaged", talents=3, battle_card_cost=1)
    assert actions(trace) == ["mobilise"]
    assert "battle card" not in details(trace)


def test_cannot_pay_three_talents_no_reaction(sa):
    """Line 149: the bot pays 3 talents per mobilisation: with 2 it cannot react (no roll)."""
    trace = react(sa, [], ["army"], land="advantaged", talents=2)
    assert actions(trace) == []


def test_navy_checked_before_army_and_force_matches(sa):
    """Lines 138-139, 149: navy response first, then army; each force matches its cause."""
    trace = react(sa, [MISS], ["army", "navy"], land="advantaged", sea="tied", talents=9)
    assert rolled(trace) == [1]  # the navy check (tied) rolled first
    assert "No reaction to the player's navy" in said(trace)
    assert "mobilise a matching army" in details(trace)


def test_second_reaction_limited_by_money(sa):
    """Line 149: 5 talents: the first reaction (navy, advantaged) leaves 2: no army reaction."""
    trace = react(sa, [], ["army", "navy"], land="advantaged", sea="advantaged", talents=5)
    assert actions(trace) == ["mobilise"]
    assert "matching navy" in details(trace)


def new(engine, dice, **board):
    board.setdefault("target_marchable", True)
    return decide(engine, "new_mobilisation", dice=dice, **board)


def test_round_six_no_mobilisation_even_when_poor(sa):
    """Line 162: round six: no; modifiers (3 talents or less, a siege) do not bring dice back."""
    trace = new(sa, [], round=6, talents=3, active_siege=True)
    assert result(trace) == "no_mobilisation"
    assert trace.dice == []


@pytest.mark.parametrize(("round_", "talents", "siege", "count"), [
    (2, 4, False, 1), (3, 5, False, 2), (4, 4, False, 2), (5, 4, False, 3),
    (2, 3, False, 2), (3, 3, True, 4), (5, 6, False, 2), (4, 7, True, 2)])
def test_dice_by_round_and_modifiers(sa, round_, talents, siege, count):
    """Lines 157-166: base dice by round; +1 at 3 talents or less, -1 at 6 or more, +1 siege."""
    dice = [MISS] + [HIT] * (count - 1)
    trace = new(sa, dice, round=round_, talents=talents, active_siege=siege)
    assert rolled(trace) == [count]
    assert "no force raised" in said(trace)
    assert result(trace) == "no_mobilisation"  # line 168: no force, so not "mobilised"


def test_all_successes_raise_one_force_and_pay(sa):
    """Line 168: all dice successes: raise one force, pay three talents."""
    trace = new(sa, [HIT, HIT], round=3, talents=5)
    assert result(trace) == "mobilised"
    assert "1 force(s) raised, 2 talents left" in said(trace)


def test_modifiers_to_zero_dice_raise_without_rolling(sa):
    """Lines 158, 165, 168: round two, 1 die, 6 talents -1 = 0 dice: nothing can fail (pack
    reading): a force is raised, 3 talents left; no battle-card test (3 < 6, line 170)."""
    trace = new(sa, [], round=2, talents=6)
    assert trace.dice == []
    assert "1 force(s) raised, 3 talents left" in said(trace)


def test_battle_card_test_at_six_after_paying(sa):
    """Line 170: 9 talents, 0 dice (round 2, -1): pay 3, six left: one-die test, success: buy."""
    trace = new(sa, [HIT], round=2, talents=9, battle_card_cost=1)
    assert actions(trace) == ["mobilise", "buy_battle_card"]
    assert "5 talents left" in details(trace)


def test_battle_card_test_fails(sa):
    """Line 170: the one-die test fails: no card."""
    trace = new(sa, [MISS], round=2, talents=9)
    assert actions(trace) == ["mobilise"]


def test_no_battle_card_test_below_six_after_paying(sa):
    """Line 170: 8 talents, pay 3: five left, no test."""
    trace = new(sa, [], round=2, talents=8)
    assert actions(trace) == ["mobilise"]
    assert trace.dice == []


def test_cannot_pay_no_test(sa):
    """Line 168: three talents per mobilisation; with 2 the bot does not roll."""
    trace = new(sa, [], round=3, talents=2)
    assert trace.dice == [] and actions(trace) == []
    assert result(trace) == "no_mobilisation"


def test_round_one_tests_twice(sa):
    """Line 157: round one, 1 die tested twice: the first test fails, the second succeeds."""
    trace = new(sa, [MISS, HIT], round=1, talents=5)
    assert rolled(trace) == [1, 1]
    assert "1 force(s) raised, 2 talents left" in said(trace)


def test_round_one_second_test_needs_the_money(sa):
    """Lines 157, 168: 5 talents, the first test raises a force (2 left): no second test."""
    trace = new(sa, [HIT], round=1, talents=5)
    assert rolled(trace) == [1]
    assert "fewer than the three a mobilisation costs" in said(trace)


def test_round_one_rich_raises_twice(sa):
    """Lines 157, 165, 170: 9 talents: 0 dice, raise (6 left), battle-card test fails; second
    test 6 talents: 0 dice, raise (3 left), no card test: two forces."""
    trace = new(sa, [MISS], round=1, talents=9)
    assert "2 force(s) raised, 3 talents left" in said(trace)
    assert actions(trace) == ["mobilise", "mobilise"]


def test_round_one_second_test_rereads_the_treasury(sa):
    """Lines 157, 164-165: 6 talents: 0 dice, raise (3 left); second test 1 + 1 (3 or less) = 2."""
    trace = new(sa, [HIT, MISS], round=1, talents=6)
    assert rolled(trace) == [2]
    assert "1 force(s) raised" in said(trace)


@pytest.mark.parametrize(("marchable", "land", "sea", "piece", "rule"), [
    (True, "tied", "disadvantaged", "hoplite", "what.hoplite-unless-disadvantaged"),
    (True, "disadvantaged", "advantaged", "hoplite", "what.hoplite"),
    (False, "advantaged", "tied", "fleet", "what.fleet-unless-disadvantaged"),
    (False, "advantaged", "disadvantaged", "fleet", "what.fleet")])
def test_what_is_mobilised(sa, marchable, land, sea, piece, rule):
    """Lines 174-177, the four preferences in order."""
    trace = new(sa, [], round=2, talents=7, target_marchable=marchable, land=land, sea=sea)
    action = trace.decision.actions[0]
    assert piece in action.fields["details"] and action.rule == rule
