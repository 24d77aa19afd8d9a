"""The small computations of functions.py, with the seed's worked examples word for word."""

from __future__ import annotations

from knowledge.yellow_scarves.functions import (
    can_invade,
    distribute,
    eligible_targets,
    invasion_over,
    neighbours,
    order_of,
    ordered,
    pick_direction,
    roll_off,
)
from whybot.engine.dice import Dice

DIRECTIONS = {1: ["N", "E", "S", "W"], 2: ["E", "S", "W", "N"], 3: ["S", "W", "N", "E"],
              4: ["W", "N", "E", "S"]}


def _p(name, units, side="neutral", rank=1, cap=0):
    return {"name": name, "units": units, "side": side, "north_rank": rank, "cap": cap}


def test_ten_units_can_only_invade_the_four():
    """For example: If a bot Province with 10 units has two available Invasion targets, one with
    5 units and another with 4 units, the bot Province can only Invade the Province with 4 units,
    since the bot Province must leave one unit behind in the Invading Province."""
    bot = _p("Bot", 10, "bot")
    five, four = _p("Five", 5), _p("Four", 4)
    borders = [{"from": "Bot", "to": "Five", "direction": "N"},
               {"from": "Bot", "to": "Four", "direction": "E"}]
    by_name = {p["name"]: p for p in (bot, five, four)}
    assert [p["name"] for _, p in eligible_targets(bot, by_name, borders)] == ["Four"]
    assert not can_invade(10, 5)
    assert can_invade(10, 4)
    assert can_invade(9, 4) and not can_invade(8, 4)


def test_d4_roll_of_three_with_targets_east_and_north():
    """For example: If a bot Province has two available Invasion targets, one to the East and
    one North, then on a roll of 3, the bot Province would Invade the Province to the North."""
    east, north = _p("East", 1), _p("North", 1)
    direction, chosen = pick_direction([("E", east), ("N", north)], DIRECTIONS[3])
    assert direction == "N"
    assert chosen == [north]


def test_invasion_of_eight_against_four_ends_at_three_against_three():
    """For example: A neutral Province has 4 infantry units, and an attacking bot Province has 8
    infantry units available to attack (i.e. not counting the unit left behind to hold the
    Province). The bot Province loses 5 units in the first two Combat Engagements and the
    neutral Province loses 1, leaving 3 units in the neutral Province and 3 units available to
    attack in the bot Province. At this point the attacking and defending unit numbers are equal,
    and the Invasion would end."""
    assert invasion_over(8, 4) == "continue"
    assert invasion_over(3, 3) == "stopped"
    assert invasion_over(2, 3) == "stopped"
    assert invasion_over(4, 3) == "continue"
    assert invasion_over(1, 0) == "won"


def test_eleven_units_over_five_provinces_even_roll():
    """For example: if a bot is redistributing 11 units over 5 Provinces and rolls an even number
    for priority, then the units would be distributed with 2 units going to each Province, and
    the leftover unit going to the Northernmost Province."""
    provinces = [_p(f"P{r}", 0, "bot", rank=r) for r in (3, 1, 5, 2, 4)]
    row = ordered(provinces, order_of(4))
    added, lost = distribute(11, row)
    assert [p["name"] for p in row] == ["P1", "P2", "P3", "P4", "P5"]
    assert added == [3, 2, 2, 2, 2] and lost == 0


def test_odd_roll_gives_leftovers_bottom_up():
    provinces = [_p(f"P{r}", 0, "bot", rank=r) for r in (1, 2, 3)]
    row = ordered(provinces, order_of(5))
    assert [p["name"] for p in row] == ["P3", "P2", "P1"]
    assert distribute(5, row) == ([2, 2, 1], 0)


def test_unit_caps_pass_units_on_then_lose_them():
    full, roomy = _p("Full", 4, cap=5), _p("Roomy", 0, cap=3)
    assert distribute(6, [full, roomy]) == ([1, 3], 2)
    assert distribute(2, [_p("A", 5, cap=5)]) == ([0], 2)


def test_borders_work_both_ways():
    borders = [{"from": "A", "to": "B", "direction": "E"},
               {"from": "C", "to": "A", "direction": "N"}]
    assert neighbours("A", borders) == [("E", "B"), ("S", "C")]
    assert neighbours("B", borders) == [("W", "A")]


def test_player_province_before_neutral_in_the_same_direction():
    """a player's Province is Invaded before a neutral Province, and if both are the same, the
    players choose the Province that is invaded."""
    neutral, player = _p("N1", 1), _p("P1", 1, "player")
    assert pick_direction([("N", neutral), ("N", player)], DIRECTIONS[1]) == ("N", [player])
    other = _p("N2", 1)
    assert pick_direction([("N", neutral), ("N", other)], DIRECTIONS[1]) == ("N", [neutral, other])


def test_roll_off_rerolls_ties_of_the_lowest():
    """All players roll a D6, and re-roll ties. The player with the lowest roll ..."""
    players = [{"name": "A"}, {"name": "B"}, {"name": "C"}]
    dice = Dice(prerolled=[2, 2, 5, 4, 3])
    assert roll_off(players, dice, "test")["name"] == "B"
    assert [r.purpose for r in dice.rolls][-2:] == ["test roll-off: A", "test roll-off: B"]
    assert roll_off(players[:1], Dice(prerolled=[]), "test")["name"] == "A"
