"""What counts as a success (a pack setting read by the rules) and the reward symbols (read
left to right from structured fields) — through decisions, hand-worked from the seed."""

from __future__ import annotations

import pytest

from tests.sparta_athens.helpers import HIT, MISS, chosen, decide, result


def test_a_success_is_a_face_of_four_or_more_by_default(sa):
    """The documented default (pack.yaml, facts.board.success_from = 4): tied on land, two
    dice, siege on two successes (line 104): 4 and 6 are two successes."""
    assert sa.pack.facts.board["success_from"].default == 4
    trace = decide(sa, "raid", dice=[4, 6], land="tied")
    assert result(trace) == "siege"
    assert trace.dice[0].total == 2


@pytest.mark.parametrize(("success_from", "outcome"), [(4, "siege"), (5, "return_home")])
def test_success_from_in_the_snapshot_changes_what_counts(sa, success_from, outcome):
    """A game whose dice succeed on one face in three: success_from 5 makes the 4 a failure,
    so the same dice no longer give two successes (line 104)."""
    trace = decide(sa, "raid", dice=[4, 6], land="tied", success_from=success_from)
    assert result(trace) == outcome
    assert trace.dice[0].counting == f"face >= success_from; success_from = {success_from}"


def test_every_roll_counts_successes_and_names_the_test_it_decides(sa):
    """Issue 9: success-count rolls show successes, not sums; each die shows what it decided."""
    trace = decide(sa, "raid", dice=[6, 5], land="tied")
    roll, = trace.dice
    assert roll.total == 2  # two successes, not 11
    assert roll.purpose == "Raid into siege (land tied): two dice, siege on two successes"


def test_the_fight_dice_never_go_below_zero(sa):
    """Lines 116, 122, 124: advantaged needs no dice; a raid costing control removes one more
    and still none is rolled: the bot fights without rolling."""
    forces = [{"name": "fleet", "battle": "sea", "raid_costs_control": True}]
    trace = decide(sa, "deployment", enemy_forces=forces, sea="advantaged")
    assert result(trace) == "fight" and trace.dice == []


OBJECTIVE = {"name": "Ionia", "control": "enemy", "placeable": False, "reward1": "cavalry",
             "reward2": "elite", "reward3": "talent", "reward4": "navy"}


def test_the_objective_symbols_are_read_from_the_left_to_the_fourth(sa):
    """Line 34: Ionia shows cavalry, elite, talent, navy. Both enemy regions qualify under
    guideline 4 (line 30); Samos shows talent (Ionia's third), Chios navy (its fourth):
    Samos, though Chios needs less alteration."""
    regions = [OBJECTIVE,
               {"name": "Chios", "control": "enemy", "reward1": "navy", "alteration": 1},
               {"name": "Samos", "control": "enemy", "reward1": "favour", "reward2": "talent",
                "alteration": 3}]
    trace = decide(sa, "influence", objective_region="Ionia", regions=regions)
    assert chosen(trace, "influence_region")["name"] == "Samos"


def test_a_symbol_matches_in_any_slot_of_the_candidates_reward(sa):
    """Line 34: Lesbos shows Ionia's leftmost symbol (cavalry) in its last slot: it wins over
    Samos, which shows Ionia's second (elite) first."""
    regions = [OBJECTIVE,
               {"name": "Samos", "control": "enemy", "reward1": "elite"},
               {"name": "Lesbos", "control": "enemy", "reward1": "talent", "reward2": "favour",
                "reward3": "navy", "reward4": "cavalry"}]
    trace = decide(sa, "influence", objective_region="Ionia", regions=regions)
    assert chosen(trace, "influence_region")["name"] == "Lesbos"


def test_no_symbol_in_common_leaves_the_tie_to_alteration(sa):
    """Line 34 finds no match (an empty slot matches nothing): the least alteration decides."""
    regions = [{"name": "Ionia", "control": "enemy", "placeable": False},
               {"name": "Samos", "control": "enemy", "alteration": 2},
               {"name": "Chios", "control": "enemy", "alteration": 1}]
    trace = decide(sa, "influence", objective_region="Ionia", regions=regions)
    assert chosen(trace, "influence_region")["name"] == "Chios"


def test_a_region_provides_the_asset_shown_in_any_slot(sa):
    """Line 73: one success, Army target (line 68), cavalry one short: Chalkidike shows cavalry
    third on its reward, so it is the region that provides it."""
    regions = [{"name": "Megara", "control": "enemy", "reward1": "talent"},
               {"name": "Chalkidike", "reward1": "talent", "reward2": "navy",
                "reward3": "cavalry"}]
    trace = decide(sa, "objective", dice=[HIT, MISS], regions=regions,
                   assets=[{"category": "cavalry", "gap": 1}])
    assert chosen(trace, "chosen")["name"] == "Chalkidike"
