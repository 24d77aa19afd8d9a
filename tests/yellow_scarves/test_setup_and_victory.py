"""Scenario setup (the difficulty table, the bots' starting units) and the victory check."""

from __future__ import annotations

import pytest

from tests.yellow_scarves.helpers import decide, grid, said

# § Difficulty Settings, every row: players, difficulty → bots, starting General, extra Infantry.
TABLE = [
    (1, "normal", 2, False, 0), (1, "hard", 3, False, 0), (1, "expert", 4, False, 0),
    (2, "normal", 4, False, 0), (2, "hard", 5, False, 0), (2, "expert", 6, False, 0),
    (3, "normal", 5, False, 0), (3, "hard", 5, True, 0), (3, "expert", 5, True, 2),
    (4, "normal", 4, True, 2), (4, "hard", 4, True, 4), (4, "expert", 4, True, 6),
]


@pytest.mark.parametrize(("players", "difficulty", "bots", "general", "extra"), TABLE)
def test_difficulty_table_row(ys, players, difficulty, bots, general, extra):
    """e.g. "3 Players: Expert: vs. 5 bots, each with a starting General and 2 extra Infantry
    units"; bots start "with 8 Infantry units, and with any bonuses" (§ Scenario Setup 7)."""
    trace = decide(ys, step="setup", player_count=players, difficulty=difficulty,
                   provinces=grid(), bots=(), players=())
    text = said(trace)
    assert trace.decision.result == "setup"
    assert f"Draw {bots} Province cards at random" in text
    assert f"generic Ruler (no card; +2 Infantry per turn while in play) and {8 + extra} " \
           "Infantry" in text
    assert ("starts with a General" in text) == general
    assert "every player starts with 3 Gold" in text
    assert "2 Neutral Infantry" in text and "4 in each of the other" in text


def test_players_win_when_no_bot_province_or_unit_is_left(ys):
    trace = decide(ys, step="victory", round=5, provinces=grid(Elmgate={"owner": "Liu"}))
    assert trace.decision.result == "players_win"


def test_players_lose_if_bots_remain_after_round_six(ys):
    trace = decide(ys, step="victory", round=6, round_over=True,
                   provinces=grid(Elmgate={"owner": "Red", "units": 1}))
    assert trace.decision.result == "players_lose"


def test_play_on_before_the_end_of_round_six(ys):
    trace = decide(ys, step="victory", round=6, round_over=False,
                   provinces=grid(Elmgate={"owner": "Red", "units": 1}))
    assert trace.decision.result == "play_on"


def test_a_bot_general_in_reserve_is_still_a_bot_unit(ys):
    trace = decide(ys, step="victory", round=4, provinces=grid(),
                   bots=({"name": "Red", "reserve_generals": 1},))
    assert trace.decision.result == "play_on"
