"""§ SET OBJECTIVE (seed lines 61-88): two dice, the target kinds, and Region Selection."""

from __future__ import annotations

from tests.sparta_athens.helpers import HIT, MISS, chosen, decide, result, said

R = [
    {"name": "Megara", "control": "enemy", "talents": 4, "reward1": "talent", "alteration": 3},
    {"name": "Corinth", "control": "neutral", "talents": 4, "reward1": "talent", "alteration": 2},
    {"name": "Thessaly", "control": "neutral", "talents": 2, "reward1": "cavalry", "alteration": 1},
    {"name": "Aetolia", "control": "enemy", "talents": 1, "reward1": "cavalry", "reward2": "elite",
     "alteration": 1},
    {"name": "Ionia", "control": "neutral", "talents": 3, "reward1": "navy", "reward2": "talent",
     "alteration": 2},
    {"name": "Chios", "control": "enemy", "talents": 1, "reward1": "navy", "alteration": 2},
    {"name": "Boeotia", "control": "bot", "talents": 5, "reward1": "talent", "reward2": "elite"},
]
ASSETS = [{"category": "elite", "gap": 2}, {"category": "skirmisher", "gap": 0},
          {"category": "cavalry", "gap": 1}]


def objective(engine, dice, **board):
    board.setdefault("regions", R)
    board.setdefault("assets", ASSETS)
    return decide(engine, "objective", dice=dice, **board)


def target(trace) -> str:
    return chosen(trace, "chosen")["name"]


def test_keeps_an_objective_it_does_not_control(sa):
    """Line 63: a new objective only when the bot takes control of its objective region."""
    trace = objective(sa, [], objective_region="Megara")
    assert result(trace) == "keep_objective"


def test_taking_the_objective_generates_another(sa):
    """Line 63: Boeotia is the bot's now, so two dice are rolled for a new objective."""
    trace = objective(sa, [MISS, MISS], objective_region="Boeotia")
    assert result(trace) == "objective"
    assert len(trace.dice) == 1 and trace.dice[0].dice == "2d6"


def test_zero_successes_economic_highest_talents_least_alteration(sa):
    """Lines 67, 71, 83: highest talent value among regions the bot lacks (Megara, Corinth: 4;
    Boeotia's 5 is already the bot's), then the one needing least alteration: Corinth."""
    trace = objective(sa, [MISS, MISS])
    assert target(trace) == "Corinth"
    assert "Economic" in said(trace)


def test_region_selection_enemy_before_neutral(sa):
    """Line 84: equal talents and alteration; the enemy-controlled region first."""
    regions = [{"name": "A", "control": "neutral", "talents": 3, "alteration": 2},
               {"name": "B", "control": "enemy", "talents": 3, "alteration": 2}]
    assert target(objective(sa, [MISS, MISS], regions=regions)) == "B"


def test_region_selection_neutral_with_polis_conditions(sa):
    """Line 84: no enemy region; a neutral that a single Polis (1) grants, or a Polis (2) with
    an adjacent ally, is preferred over one with a Polis (2) and no ally."""
    regions = [{"name": "A", "talents": 3, "alteration": 1, "polis2_grants": True},
               {"name": "B", "talents": 3, "alteration": 1, "polis2_grants": True,
                "adjacent_ally": True}]
    assert target(objective(sa, [MISS, MISS], regions=regions)) == "B"
    regions = [{"name": "A", "talents": 3, "alteration": 1, "polis2_grants": True},
               {"name": "B", "talents": 3, "alteration": 1, "polis1_grants": True}]
    assert target(objective(sa, [MISS, MISS], regions=regions)) == "B"


def test_region_selection_land_reach_only_when_land_advantaged(sa):
    """Line 85: land advantaged picks the region troops reach by land; otherwise line 86,
    a randomised choice (the third die picks #1 of the two)."""
    regions = [{"name": "A", "talents": 3, "alteration": 1},
               {"name": "B", "talents": 3, "alteration": 1, "land_reach": True}]
    trace = objective(sa, [MISS, MISS], regions=regions, land="advantaged")
    assert target(trace) == "B"
    trace = objective(sa, [MISS, MISS, 1], regions=regions, land="tied")
    assert target(trace) == "A"
    assert trace.dice[-1].dice == "1d2"


def test_sparta_one_success_army_target_closest_category(sa):
    """Lines 68, 73: cavalry is one short (elite two; skirmisher already advantaged); the
    cavalry regions Thessaly and Aetolia need 1 each; Aetolia is enemy-controlled (line 84)."""
    trace = objective(sa, [HIT, MISS], land="tied")
    assert chosen(trace, "asset_target")["category"] == "cavalry"
    assert target(trace) == "Aetolia"


def test_sparta_land_advantaged_swaps_to_navy(sa):
    """Line 73: already land advantaged, swap to the Navy target (line 75): allied navies;
    Ionia and Chios both need 2, Chios is enemy-controlled."""
    trace = objective(sa, [HIT, MISS], land="advantaged", sea="tied")
    assert "swap to the Navy target" in said(trace)
    assert target(trace) == "Chios"


def test_sparta_swap_happens_once_even_if_sea_advantaged(sa):
    """Lines 73/75 would loop; one swap only (pack reading): still the Navy target."""
    trace = objective(sa, [HIT, MISS], land="advantaged", sea="advantaged")
    assert target(trace) == "Chios"
    assert "swap to the Army target" not in said(trace)


def test_athens_one_success_navy_target(sa):
    """Lines 68, 75: Athens' one success is the Navy target: a region providing allied navies."""
    trace = objective(sa, [MISS, HIT], bot="athens", sea="tied")
    assert target(trace) == "Chios"


def test_athens_sea_advantaged_swaps_to_army(sa):
    """Line 75: Athens already sea advantaged swaps to the Army target (line 73)."""
    trace = objective(sa, [MISS, HIT], bot="athens", sea="advantaged", land="disadvantaged")
    assert "swap to the Army target" in said(trace)
    assert chosen(trace, "asset_target")["category"] == "cavalry"
    assert target(trace) == "Aetolia"


def test_army_category_ties_go_to_the_dice(sa):
    """Line 73: elite and cavalry both one short: a random pick (die 1 → elite, listed first)."""
    assets = [{"category": "elite", "gap": 1}, {"category": "cavalry", "gap": 1}]
    trace = objective(sa, [HIT, MISS, 1], assets=assets)
    assert chosen(trace, "asset_target")["category"] == "elite"
    assert target(trace) == "Aetolia"


def test_sparta_strategic_hellespont_by_land_march(sa):
    """Line 79: Sparta targets Hellespont if able to land march there."""
    trace = objective(sa, [HIT, HIT], hellespont_land_march=True, sea="disadvantaged")
    assert trace.decision.actions[0].fields["details"].startswith("Mark Hellespont")


def test_sparta_strategic_hellespont_when_even_at_sea(sa):
    """Line 79: even (tied) or better at sea is enough."""
    trace = objective(sa, [HIT, HIT], sea="tied")
    assert "Hellespont" in trace.decision.actions[0].fields["details"]


def test_sparta_strategic_otherwise_attica(sa):
    """Line 79: no land march, disadvantaged at sea: Attica."""
    trace = objective(sa, [HIT, HIT], sea="disadvantaged")
    assert "Attica" in trace.decision.actions[0].fields["details"]


def test_athens_strategic_sicily_with_black_sea_grain(sa):
    """Line 79: Athens targets Sicily if it carries the Black Sea Grain marker."""
    trace = objective(sa, [HIT, HIT], bot="athens", black_sea_grain_on_sicily=True)
    assert "Sicily" in trace.decision.actions[0].fields["details"]


def test_athens_strategic_otherwise_peloponnesos(sa):
    """Line 79: without the marker, Peloponnesos."""
    trace = objective(sa, [HIT, HIT], bot="athens", sea="advantaged")
    assert "Peloponnesos" in trace.decision.actions[0].fields["details"]
