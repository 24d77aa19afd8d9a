"""§ DEPLOYMENT (seed lines 108-130) and § RAIDING (lines 98-106)."""

from __future__ import annotations

import pytest

from tests.sparta_athens.helpers import HIT, MISS, actions, chosen, decide, result, rolled, said

SPACES = [{"name": "Athens", "value": 4, "control": "enemy", "reachable": False},
          {"name": "Eleusis", "value": 3, "control": "enemy"},
          {"name": "Marathon", "value": 2, "control": "enemy"},
          {"name": "Oropos", "value": 1, "control": "neutral"}]


def deploy(engine, dice, forces, **board):
    board.setdefault("spaces", SPACES)
    board.setdefault("objective_region", "Attica")
    return decide(engine, "deployment", dice=dice, enemy_forces=forces, **board)


def force(battle="land", raid=False, name="enemy"):
    return {"name": name, "battle": battle, "raid_costs_control": raid}


def test_advantaged_fights_without_dice(sa):
    """Line 116: advantaged in the battle type: fight."""
    trace = deploy(sa, [], [force("land")], land="advantaged")
    assert result(trace) == "fight"


@pytest.mark.parametrize(("die", "outcome"), [(HIT, "fight"), (MISS, "raid")])
def test_tied_one_die(sa, die, outcome):
    """Line 118: tied, roll one die, fight on a success (else raid, line 128)."""
    trace = deploy(sa, [die], [force("sea")], sea="tied", land="disadvantaged")
    assert result(trace) == outcome
    assert rolled(trace) == [1]


@pytest.mark.parametrize(("dice", "outcome"), [([HIT, HIT], "fight"), ([HIT, MISS], "raid"),
                                               ([MISS, HIT], "raid")])
def test_disadvantaged_two_dice_two_successes(sa, dice, outcome):
    """Line 120: disadvantaged, two dice, fight only on two successes."""
    trace = deploy(sa, dice, [force("land")], land="disadvantaged")
    assert result(trace) == outcome


def test_battle_type_decides_the_strength(sa):
    """Line 116: 'in the type of battle which will be fought': a sea battle reads sea strength
    (advantaged) even though the bot is disadvantaged on land."""
    trace = deploy(sa, [], [force("sea")], land="disadvantaged", sea="advantaged")
    assert result(trace) == "fight"


def test_raid_costing_control_removes_a_die(sa):
    """Line 122: disadvantaged (2 dice) minus one: one die."""
    trace = deploy(sa, [HIT], [force("land", raid=True)], land="disadvantaged")
    assert result(trace) == "fight"
    assert rolled(trace) == [1]


def test_tied_with_raid_cost_is_zero_dice_so_fight(sa):
    """Lines 122-124: tied (1 die) minus one = zero dice: the bot fights."""
    trace = deploy(sa, [], [force("land", raid=True)], land="tied")
    assert result(trace) == "fight"
    assert trace.dice == []


def test_advantaged_with_raid_cost_still_fights(sa):
    """Lines 116, 122-124: advantaged needs no dice; one fewer is still none: fight."""
    trace = deploy(sa, [], [force("sea", raid=True)], sea="advantaged")
    assert result(trace) == "fight"


def test_forces_tested_in_the_seeds_order(sa):
    """Lines 116-120 in order: the tied force (1 die) is tested before the disadvantaged one;
    it fails (MISS), then the disadvantaged one is rolled (two successes): fight it."""
    forces = [force("land", name="hoplite"), force("sea", name="fleet")]
    trace = deploy(sa, [MISS, HIT, HIT], forces, land="disadvantaged", sea="tied")
    assert result(trace) == "fight"
    assert "hoplite" in trace.decision.actions[0].fields["details"]
    assert "does not fight fleet" in said(trace)


def test_a_tied_force_is_tested_before_a_disadvantaged_one_listed_first(sa):
    """Lines 118-122: the disadvantaged fleet, whose raid would cost a region, rolls one die
    like the tied hoplite; the seed's line 2 (tied) still comes before its line 3, so the
    hoplite is tested first (MISS) and then the fleet (HIT): fight the fleet."""
    forces = [force("sea", raid=True, name="fleet"), force("land", name="hoplite")]
    trace = deploy(sa, [MISS, HIT], forces, land="tied", sea="disadvantaged")
    assert "does not fight hoplite" in said(trace)
    assert "fleet" in trace.decision.actions[0].fields["details"]


def test_an_advantaged_force_is_fought_first_without_dice(sa):
    """Line 116 before 118: advantaged at sea, the fleet is fought; the tied hoplite listed
    before it is never rolled for."""
    forces = [force("land", name="hoplite"), force("sea", name="fleet")]
    trace = deploy(sa, [], forces, land="tied", sea="advantaged")
    assert "fleet" in trace.decision.actions[0].fields["details"] and trace.dice == []


def test_raid_largest_reachable_enemy_space(sa):
    """Line 130: the largest controlled enemy space the bot can reach: Eleusis (Athens, 4,
    is out of reach)."""
    trace = deploy(sa, [], [])
    assert result(trace) == "raid"
    assert chosen(trace, "raid_space")["name"] == "Eleusis"


def test_raid_one_value_space_when_no_enemy_space(sa):
    """Line 130: no enemy spaces: a one value space."""
    spaces = [{"name": "Oropos", "value": 1}, {"name": "Plataea", "value": 2},
              {"name": "Home", "value": 1, "control": "bot"}]
    trace = deploy(sa, [], [], spaces=spaces)
    assert chosen(trace, "raid_space")["name"] == "Oropos"


def test_unplaceable_force_stays_and_new_target_generated(sa):
    """Line 130: the force cannot be placed: it stays mobilised and the bot generates a new
    target region (§ SET OBJECTIVE: two dice, here two successes, Sparta, Attica)."""
    spaces = [{"name": "Athens", "value": 4, "control": "enemy", "reachable": False},
              {"name": "Plataea", "value": 2}]
    trace = deploy(sa, [HIT, HIT], [], spaces=spaces, sea="disadvantaged")
    assert "remains mobilised" in said(trace)
    assert result(trace) == "objective"
    assert "Attica" in trace.decision.actions[0].fields["details"]


@pytest.mark.parametrize(("land", "dice", "outcome"), [
    ("advantaged", [HIT], "siege"), ("advantaged", [MISS], "return_home"),
    ("tied", [HIT, HIT], "siege"), ("tied", [HIT, MISS], "return_home"),
    ("disadvantaged", [], "return_home")])
def test_raid_into_siege(sa, land, dice, outcome):
    """Lines 100-106: advantaged one die, tied two dice (both successes), otherwise home."""
    trace = decide(sa, "raid", dice=dice, land=land)
    assert result(trace) == outcome
    assert actions(trace) == [outcome]
