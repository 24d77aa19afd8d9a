"""The seed's worked examples, word for word, decided through the rules (the invented boards of
helpers.py; dice pre-rolled in the order the procedure asks for them)."""

from __future__ import annotations

from tests.yellow_scarves.helpers import decide, grid, said

BLUE_AROUND = {"Dunmere": {"owner": "Blue", "units": 1}, "Hollow": {"owner": "Blue", "units": 1}}


def test_ten_units_against_five_and_four_can_only_invade_the_four(ys):
    """"For example: If a bot Province with 10 units has two available Invasion targets, one with
    5 units and another with 4 units, the bot Province can only Invade the Province with 4 units,
    since the bot Province must leave one unit behind in the Invading Province."
    Elmgate (10) has Birchwood (5) North and Fernvale (4) East; its other neighbours are Blue's.
    D4 = 1 (North, East, South, West): North is out of reach (11 needed), so East."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1],
                   provinces=grid(Elmgate={"owner": "Red", "units": 10, "ruler": True},
                                  Birchwood={"units": 5}, Fernvale={"units": 4}, **BLUE_AROUND))
    assert "Nothing Elmgate can invade lies North; East, the second direction, has a target." \
        in said(trace)
    assert trace.decision.actions[0].fields["details"] == \
        "Elmgate invades Fernvale (East, 4 defenders) with 9 Infantry; 1 Infantry stays in Elmgate."


def test_a_d4_of_three_with_targets_east_and_north_invades_north(ys):
    """"For example: If a bot Province has two available Invasion targets, one to the East and
    one North, then on a roll of 3, the bot Province would Invade the Province to the North."
    (3: South, West, North, East.)"""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 3],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  **BLUE_AROUND))
    text = said(trace)
    assert "D4 = 3: South, West, North, East." in text
    assert "Nothing Elmgate can invade lies South or West; North, the third direction, has a " \
           "target." in text
    assert "Elmgate invades Birchwood (North, 2 defenders)" in \
        trace.decision.actions[0].fields["details"]


def test_eleven_units_redistributed_over_five_provinces_on_an_even_roll(ys):
    """"For example: if a bot is redistributing 11 units over 5 Provinces and rolls an even number
    for priority, then the units would be distributed with 2 units going to each Province, and
    the leftover unit going to the Northernmost Province."
    Keep is locked (only Red's provinces around it) with 12 Infantry: it keeps 1 and sends 11
    to One..Five (no Infantry of their own; each has a neutral neighbour, too strong to invade
    with none). Their D8s are 2 (Invade, but no target); the leftover D6 is 4."""
    names = ["One", "Two", "Three", "Four", "Five"]
    provinces = [{"name": "Keep", "owner": "Red", "units": 12, "north_rank": 3}]
    borders = []
    for rank, (name, way) in enumerate(zip(names, "NESWN", strict=True), start=1):
        provinces += [{"name": name, "owner": "Red", "units": 0, "north_rank": rank},
                      {"name": f"Wild {name}", "owner": "neutral", "units": 2, "north_rank": rank}]
        borders += [{"from": "Keep", "to": name, "direction": way},
                    {"from": name, "to": f"Wild {name}", "direction": "E"}]
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 2, 2, 2, 2, 4],
                   provinces=provinces, borders=borders)
    spreads = [s.outcome["distribute"] for s in trace.steps if "distribute" in s.outcome]
    assert [(p["entity"], p["added"]) for p in spreads[0]["to"]] == [
        (f"province {n}", 2) for n in names]
    assert [(p["entity"], p["added"]) for p in spreads[1]["to"] if p["added"]] == [
        ("province One", 1)]
    text = said(trace)
    assert "D6 = 4 (even): the 1 leftover Infantry go top down" in text
    assert "After repositioning One holds 3 Infantry." in text
    assert all(f"After repositioning {n} holds 2 Infantry." in text for n in names[1:])
    assert "After repositioning Keep holds 1 Infantry (locked" in text


def test_twelve_over_two_open_provinces_is_six_each_when_a_third_is_full(ys):
    """"bot Infantry units are distributed evenly across their provinces" — issue 9: 12 new
    Infantry (5 gold = 10, +2 for the Ruler); Hollow is at its unit cap, so Birchwood and Elmgate
    get 6 each, no leftovers, no D6. Then every D8 is 3 (Hollow's 2 are lost); repositioning:
    26 over three, Hollow full at 5: 10 and 10, 1 leftover, D6 = 2: Birchwood."""
    trace = decide(ys, step="turn", bot="Red", round=2, dice=[2, 3, 3, 3, 2],
                   provinces=grid(Birchwood={"owner": "Red", "units": 2, "gold": 2},
                                  Elmgate={"owner": "Red", "units": 3, "gold": 2, "ruler": True},
                                  Hollow={"owner": "Red", "units": 5, "cap": 5}))
    text = said(trace)
    assert "After deployment Birchwood holds 8 Infantry." in text
    assert "After deployment Elmgate holds 9 Infantry." in text
    assert "After deployment Hollow holds 5 Infantry." in text  # full: it takes none
    assert trace.dice[0].purpose.startswith("invasion order")
    assert "After repositioning Birchwood holds 11 Infantry." in text
    assert "After repositioning Elmgate holds 10 Infantry." in text
    assert "After repositioning Hollow holds 5 Infantry." in text


def test_a_province_with_room_for_one_fills_and_the_rest_is_shared_evenly(ys):
    """The same 12 Infantry, Hollow with room for 1: it takes 1, Birchwood and Elmgate 5 each,
    and the last is a leftover: D6 = 3 (odd), bottom up — Elmgate."""
    trace = decide(ys, step="turn", bot="Red", round=2, dice=[3, 2, 3, 3, 3],
                   provinces=grid(Birchwood={"owner": "Red", "units": 2, "gold": 2},
                                  Elmgate={"owner": "Red", "units": 3, "gold": 2, "ruler": True},
                                  Hollow={"owner": "Red", "units": 4, "cap": 5}))
    text = said(trace)
    assert trace.dice[0].purpose == "deployment leftovers (1): even top down, odd bottom up"
    assert "After deployment Birchwood holds 7 Infantry." in text
    assert "After deployment Elmgate holds 9 Infantry." in text
    assert "After deployment Hollow holds 5 Infantry." in text


def test_all_players_roll_and_only_the_tie_for_lowest_rolls_again(ys):
    """"All players roll a D6, and re-roll ties. The player with the lowest roll then makes a D6
    roll check": Ann 2, Bo 2, Cy 5 — Ann and Bo roll again (4, 3): Bo is lowest; a 4 fails."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 1, 2, 2, 5, 4, 3, 4],
                   players=({"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}),
                   provinces=grid(Elmgate={"owner": "Red", "units": 3, "ruler": True}))
    assert [r.purpose for r in trace.dice[2:7]] == [
        "Assassination roll-off: Ann", "Assassination roll-off: Bo", "Assassination roll-off: Cy",
        "Assassination roll-off: Ann", "Assassination roll-off: Bo"]
    text = said(trace)
    assert "2 players tie for the lowest roll (2): they roll again." in text
    assert "Bo rolled lowest (3)." in text
    assert "Bo rolled 4 (not 6): the Assassination attempt fails." in text
