"""Where the seed leaves the pick to the players ("if both are the same, the players choose the
Province that is invaded"; a Rally "follows the same rules as in the Invasion rules"), the
decision asks for `players_choice` and uses it. Board: Keep has two provinces to its North."""

from __future__ import annotations

from tests.yellow_scarves.helpers import decide, said

BORDERS = [{"from": "Keep", "to": "Northwatch", "direction": "N"},
           {"from": "Keep", "to": "Northgate", "direction": "N"},
           {"from": "Keep", "to": "Southmarsh", "direction": "S"},
           {"from": "Northwatch", "to": "Northgate", "direction": "E"}]


def board(keep_units: int, north_owner: str = "neutral"):
    return [{"name": "Northwatch", "owner": north_owner, "units": 2, "north_rank": 1},
            {"name": "Northgate", "owner": north_owner, "units": 4, "north_rank": 1},
            {"name": "Keep", "owner": "Red", "units": keep_units, "north_rank": 2,
             "ruler": True},
            {"name": "Southmarsh", "owner": "Blue", "units": 2, "north_rank": 3}]


def test_a_rally_left_to_the_players_stops_the_turn_until_they_choose(ys):
    """Before the fix the turn went on and repositioned Keep alone, as if nothing was rallied."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7, 2], provinces=board(3),
                   borders=BORDERS)
    assert trace.decision.result == "players_choose"
    assert [a.rule for a in trace.decision.actions] == ["rally.players-choose"]
    assert "After repositioning" not in said(trace)


def test_the_players_choice_is_rallied_and_the_turn_goes_on(ys):
    """Northgate's 4 join Keep's 3: 7 over two provinces, 3 each and 1 leftover; D6 = 1 (odd):
    bottom up, Keep (north_rank 2) gets it."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7, 2, 1], provinces=board(3),
                   borders=BORDERS, players_choice="Northgate")
    text = said(trace)
    assert "the players chose Northgate" in text
    assert "After repositioning Keep holds 4 Infantry." in text
    assert "After repositioning Northgate holds 3 Infantry." in text
    assert trace.decision.result == "turn_over"


def test_the_players_choice_of_invasion_target_is_invaded(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1], provinces=board(9),
                   borders=BORDERS, players_choice="Northgate")
    assert trace.decision.actions[0].fields["details"] == \
        "Keep invades Northgate (North, 4 defenders) with 8 Infantry; 1 Infantry stays in Keep."


def test_a_choice_among_player_provinces_only(ys):
    """A player's Province before a neutral one: with two player provinces North, a
    players_choice naming one of them is invaded."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1], provinces=board(9, "Liu"),
                   borders=BORDERS, players_choice="Northwatch")
    assert [a.rule for a in trace.decision.actions] == ["invade.attack"]
    details = trace.decision.actions[0].fields["details"]
    assert "Keep invades Northwatch (North, 2 defenders)" in details
