"""A bot's turn, hand-worked from the seed text (the invented 3x3 board of helpers.py).

Dice are pre-rolled in the order the seed asks for them: the deployment d6 (only when there are
leftovers), the invasion-order d6, a D8 per province (roll-offs, checks and D4s as they come),
the repositioning d6 (only when there are leftovers), Ruler/General and 3rd-turn General d6s.
"""

from __future__ import annotations

from tests.yellow_scarves.helpers import GRID_BORDERS, decide, grid, said


def test_income_ruler_and_fate_then_even_deployment(ys):
    """Round 2: 2 provinces pay 1 gold each = 4 Infantry ("2 Infantry units for every gold"),
    +2 for the Ruler in play, +2 for a Fate card's 1 gold ("1 Gold = 2 Infantry units"): 8,
    spread evenly, 4 each, no leftovers so no d6. Both D8s are 3: 2 Infantry each."""
    trace = decide(ys, step="turn", bot="Red", round=2, fate_gold=1, dice=[2, 3, 3],
                   provinces=grid(Elmgate={"owner": "Red", "units": 5, "ruler": True},
                                  Birchwood={"owner": "Red", "units": 3}))
    text = said(trace)
    assert "provinces pay 2 gold = 4 Infantry" in text
    assert "+2 Infantry (6 in all so far)" in text
    assert "(8 in all)" in text
    assert "After deployment Birchwood holds 7 Infantry." in text
    assert "After deployment Elmgate holds 9 Infantry." in text
    assert "Add 2 Infantry to Birchwood (now 9)" in text
    assert "After repositioning Birchwood holds 10 Infantry" in text
    assert "After repositioning Elmgate holds 10 Infantry" in text
    assert trace.decision.result == "turn_over"


def test_round_one_has_no_income(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 3],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True}))
    assert "receives no Infantry" in said(trace)


def test_deployment_leftovers_odd_roll_bottom_up(ys):
    """8 Infantry over 3 provinces: 2 each, 2 leftovers; d6 = 3 (odd): 'bottom up' — the
    southernmost (Hollow) then Elmgate get one more."""
    trace = decide(ys, step="turn", bot="Red", round=2, dice=[3, 2, 3, 3, 3],
                   provinces=grid(Birchwood={"owner": "Red", "units": 3},
                                  Elmgate={"owner": "Red", "units": 5, "ruler": True},
                                  Hollow={"owner": "Red", "units": 2}))
    text = said(trace)
    assert "After deployment Hollow holds 5 Infantry." in text
    assert "After deployment Elmgate holds 8 Infantry." in text
    assert "After deployment Birchwood holds 5 Infantry." in text
    assert trace.dice[0].purpose.startswith("deployment leftovers (2)")


def test_unit_caps_lose_units(ys):
    """"If a bot's Provinces are all at Unit Cap, then no more units can be placed ... and these
    units are lost." 6 Infantry, room for 1 in each province: 4 are lost; the D8 = 3 rallies
    cannot place their 2 Infantry either."""
    trace = decide(ys, step="turn", bot="Red", round=2, dice=[2, 3, 3],
                   provinces=grid(Elmgate={"owner": "Red", "units": 5, "cap": 6, "ruler": True},
                                  Birchwood={"owner": "Red", "units": 4, "cap": 5}))
    text = said(trace)
    assert "4 Infantry cannot be placed" in text and "they are lost" in text
    assert "2 Infantry cannot be placed (Birchwood is at its unit cap): lost." in text
    assert "After repositioning Elmgate holds 6 Infantry" in text
    assert "After repositioning Birchwood holds 5 Infantry" in text


def test_assassination_roll_off_ties_then_latest_general(ys):
    """D8 = 1. Liu and Cao tie on 3 and re-roll (5, 2): Cao is lowest, has no Ruler but has
    Generals; the check is a 6: "the last General acquired that is in play dies instead"."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 1, 3, 3, 5, 2, 6],
                   players=({"name": "Liu"}, {"name": "Cao", "ruler": False, "generals": 2}),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True}))
    action = trace.decision.actions[0]
    assert action.action == "assassinate" and action.fields["goal"] == "general"
    assert "Cao" in action.fields["details"]
    assert [r.purpose for r in trace.dice[2:6]] == [
        "Assassination roll-off: Liu", "Assassination roll-off: Cao"] * 2
    assert trace.decision.result == "turn_over"


def test_assassination_kills_the_ruler_on_a_six(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 1, 6],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True}))
    action = trace.decision.actions[0]
    assert action.fields["goal"] == "ruler" and "Liu's Ruler dies" in action.fields["details"]


def test_assassination_fails_below_six(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 1, 4],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True}))
    assert "the Assassination attempt fails" in said(trace)
    assert trace.decision.actions == []


def test_assassination_without_ruler_or_generals_becomes_invade(ys):
    """"If the player has no Ruler or Generals in play, this action becomes an Invade action."
    Elmgate (8) can invade only Birchwood (2: 8 ≥ 2x2+1; the 4s need 9); D4 = 1: North."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 1, 1],
                   players=({"name": "Liu", "ruler": False, "generals": 0},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Dunmere={"units": 4}, Fernvale={"units": 4},
                                  Hollow={"units": 4}))
    assert "becomes an Invade action" in said(trace)
    action = trace.decision.actions[0]
    assert action.action == "invade"
    assert "Elmgate invades Birchwood (North, 2 defenders) with 7 Infantry" in \
        action.fields["details"]
    assert trace.decision.result == "invasion"


def test_bribe_without_generals_becomes_invade(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 5, 1],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Dunmere={"units": 4}, Fernvale={"units": 4},
                                  Hollow={"units": 4}))
    assert "has no General to Bribe: the bot takes an Invade action instead" in said(trace)
    assert trace.decision.actions[0].action == "invade"


def test_bribe_success_adds_a_general_to_the_latest_capture(ys):
    """Top down: Birchwood (D8 3) then Elmgate (D8 5, Bribe); Liu has a General; check 6: the
    General is discarded and "a bot General is added to the Province most recently captured"."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 3, 5, 6],
                   players=({"name": "Liu", "generals": 1},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Birchwood={"owner": "Red", "units": 4, "capture_number": 2}))
    action = trace.decision.actions[0]
    assert action.action == "bribe"
    assert "add a bot General to Birchwood" in action.fields["details"]


def test_bribe_with_three_bot_generals_adds_none(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 5, 6],
                   players=({"name": "Liu", "generals": 1},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True,
                                           "generals": 3}))
    details = trace.decision.actions[0].fields["details"]
    assert "no bot General is added" in details
    assert "Add a bot General" not in said(trace)


def test_bribe_check_of_one_pays_two_gold(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 5, 1],
                   players=({"name": "Liu", "generals": 1},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True}))
    assert "Liu rolled 1: the Bribe fails and Liu gets 2 Gold." in said(trace)


def test_rally_with_no_neutral_neighbour_becomes_invade(ys):
    """D8 = 7 but the Ruler's neighbours are Liu's and Blue's: Invade. D4 = 4 (W, N, E, S):
    West (Dunmere, 4) is too strong (needs 9), North (Birchwood, 3: needs 7) is invaded;
    Blue's provinces are never targets."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7, 4],
                   players=({"name": "Liu"},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Birchwood={"owner": "Liu", "units": 3},
                                  Dunmere={"owner": "Liu", "units": 4},
                                  Fernvale={"owner": "Blue", "units": 1},
                                  Hollow={"owner": "Blue", "units": 1}))
    assert "the Rally becomes an Invade action" in said(trace)
    assert "invades Birchwood (North, 3 defenders)" in trace.decision.actions[0].fields["details"]


def test_rally_one_neutral_neighbour_moves_the_ruler(ys):
    """Birchwood is the only neutral neighbour: rallied, the Ruler moves in. Elmgate is then
    locked (bot provinces all round): it keeps 1 Infantry and sends 7 to Birchwood (2 + 7)."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Dunmere={"owner": "Blue", "units": 1},
                                  Fernvale={"owner": "Blue", "units": 1},
                                  Hollow={"owner": "Blue", "units": 1}))
    text = said(trace)
    assert trace.decision.actions[0].action == "rally"
    assert "Bot rallies Birchwood: move the bot's Ruler from Elmgate" in text
    assert "After repositioning Birchwood holds 9 Infantry" in text
    assert "After repositioning Elmgate holds 1 Infantry (locked" in text


def test_rally_two_neutral_neighbours_by_d4(ys):
    """Birchwood (N) and Fernvale (E) are neutral; D4 = 2 (E, S, W, N): Fernvale."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7, 2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Dunmere={"owner": "Blue", "units": 1},
                                  Hollow={"owner": "Blue", "units": 1}))
    assert "Bot rallies Fernvale" in said(trace)


def _two_north(jade_owner):
    provinces = grid(Elmgate={"owner": "Red", "units": 8, "ruler": True})
    provinces.append({"name": "Jade", "owner": jade_owner, "units": 2, "north_rank": 1})
    return provinces, [*GRID_BORDERS, {"from": "Elmgate", "to": "Jade", "direction": "N"}]


def test_two_provinces_north_player_first(ys):
    provinces, borders = _two_north("Liu")
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1],
                   provinces=provinces, borders=borders)
    assert "Elmgate invades Jade (North" in trace.decision.actions[0].fields["details"]


def test_two_neutral_provinces_north_players_choose(ys):
    provinces, borders = _two_north("neutral")
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1],
                   provinces=provinces, borders=borders)
    details = trace.decision.actions[0].fields["details"]
    assert "Elmgate invades the province the players choose (North)" in details
    text = said(trace)
    assert "- Birchwood (neutral, 2 defenders)" in text and "- Jade (neutral, 2 defenders)" in text
    assert trace.decision.result == "invasion"


def test_too_weak_to_invade(ys):
    """4 Infantry against neighbours of 2: 4 < 2x2+1, so no invasion."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 4, "ruler": True}))
    assert "no adjacent neutral or player province it can invade" in said(trace)
    assert trace.decision.result == "turn_over"


def test_bots_never_invade_bots(ys):
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 8, "ruler": True},
                                  Birchwood={"owner": "Blue", "units": 1},
                                  Dunmere={"owner": "Blue", "units": 1},
                                  Fernvale={"owner": "Blue", "units": 1},
                                  Hollow={"units": 4}))
    assert "no adjacent neutral or player province it can invade" in said(trace)


def test_locked_province_with_ruler_and_general(ys):
    """Ashford is locked (Birchwood and Dunmere are the bot's): no action; it keeps 1 Infantry
    and sends 5. 15 Infantry over Birchwood and Dunmere: 7 each, 1 leftover, d6 = 6: top down,
    Birchwood. Ruler and General: d6 = 1, bottom up: the Ruler to Dunmere, the General to a
    separate province, Birchwood."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 3, 3, 6, 1],
                   provinces=grid(Ashford={"owner": "Red", "units": 6, "ruler": True,
                                           "generals": 1},
                                  Birchwood={"owner": "Red", "units": 3},
                                  Dunmere={"owner": "Red", "units": 3}))
    text = said(trace)
    assert "Ashford is locked (only bot provinces around it): it takes no action." in text
    assert "After repositioning Ashford holds 1 Infantry (locked" in text
    assert "After repositioning Birchwood holds 8 Infantry" in text
    assert "After repositioning Dunmere holds 7 Infantry" in text
    assert "move the bot's Ruler from locked Ashford to Dunmere." in text
    assert "move a bot General from locked Ashford to Birchwood." in text


def test_general_on_turn_three_odd_roll(ys):
    """End of turn 3: d6 = 5 (odd), bottom up: Hollow has a General, so Elmgate (neither a
    General nor the Ruler) gets it."""
    trace = decide(ys, step="turn", bot="Red", round=3, dice=[2, 2, 3, 3, 3, 2, 5],
                   provinces=grid(Birchwood={"owner": "Red", "units": 4, "ruler": True},
                                  Elmgate={"owner": "Red", "units": 4},
                                  Hollow={"owner": "Red", "units": 4, "generals": 1}))
    text = said(trace)
    assert "After repositioning Birchwood holds 9 Infantry" in text
    assert "After repositioning Hollow holds 8 Infantry" in text
    assert "bottom up: place a bot General in Elmgate." in text
    assert "gains none" not in text and "reserve" not in text
    assert trace.dice[-1].purpose.startswith("bot Red's new General")


def test_general_held_in_reserve_then_placed(ys):
    """A flooded (blocked) board: the turn-3 General goes to reserve; next turn it is placed."""
    neighbours = {n: {"units": 4} for n in ("Birchwood", "Dunmere", "Fernvale", "Hollow")}
    trace = decide(ys, step="turn", bot="Red", round=3, dice=[2, 2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 4, "ruler": True,
                                           "blocked": True}, **neighbours))
    assert "hold it in reserve" in said(trace)
    trace = decide(ys, step="turn", bot="Red", round=4, dice=[1, 2, 2],
                   bots=({"name": "Red", "reserve_generals": 1},),
                   provinces=grid(Elmgate={"owner": "Red", "units": 4, "ruler": True},
                                  **neighbours))
    text = said(trace)
    assert "has a General held in reserve" in text
    assert "place a bot General in Elmgate" in text


def test_locked_units_that_cannot_move_stay(ys):
    """"If a Province is at its unit cap it cannot receive any Repositioned units from a locked
    Province. If there are no available Provinces ... the units stay in the locked Province."
    Ashford (locked, 6) sends 5; Birchwood and Dunmere (3 each, cap 4) take 1 each: 3 stay.
    The Ruler leaves the locked province: d6 = 2, top down: Birchwood."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 2, 2],
                   provinces=grid(Ashford={"owner": "Red", "units": 6, "ruler": True},
                                  Birchwood={"owner": "Red", "units": 3, "cap": 4},
                                  Dunmere={"owner": "Red", "units": 3, "cap": 4}))
    text = said(trace)
    assert "After repositioning Birchwood holds 4 Infantry" in text
    assert "After repositioning Dunmere holds 4 Infantry" in text
    assert "3 Infantry find no room" in text
    assert "After repositioning Ashford holds 4 Infantry (locked" in text
    assert text.count("After repositioning Ashford") == 1  # one line, the final count
    assert "move the bot's Ruler from locked Ashford to Birchwood." in text


def test_a_turn_snapshot_must_name_the_bot(ys):
    import pytest

    from whybot.engine.errors import WhybotError
    with pytest.raises(WhybotError, match=r"missing required fact 'bot'.*needed when step"):
        decide(ys, step="turn", round=1, provinces=grid())


def test_rally_two_neutrals_in_one_direction_players_choose(ys):
    """Birchwood and Jade both lie North of the Ruler and are neutral; D4 = 1: North; "if both
    are the same, the players choose"."""
    provinces, borders = _two_north("neutral")
    for province in provinces:
        if province["name"] in ("Dunmere", "Fernvale", "Hollow"):
            province["owner"] = "Blue"
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 7, 1],
                   provinces=provinces, borders=borders)
    details = trace.decision.actions[0].fields["details"]
    assert "the players choose which one the bot rallies" in details
    text = said(trace)
    assert "- Birchwood (neutral, 2 defenders)" in text and "- Jade (neutral, 2 defenders)" in text


def test_a_bot_with_only_locked_provinces_cannot_deploy_and_loses_its_income(ys):
    """"Units can no longer be deployed or distributed in this Province unless Invasion options
    become available": Elmgate is surrounded by Blue, so its 4 new Infantry (1 gold, +2 for the
    Ruler) find no province — lost, as at the unit cap. Locked, it takes no action."""
    blue = {"owner": "Blue", "units": 1}
    trace = decide(ys, step="turn", bot="Red", round=2, dice=[2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 5, "ruler": True},
                                  Birchwood=blue, Dunmere=blue, Fernvale=blue, Hollow=blue))
    text = said(trace)
    assert "4 Infantry cannot be placed" in text and "they are lost" in text
    assert "Elmgate is locked (only bot provinces around it): it takes no action." in text
    assert "Every province of bot Red is locked" in text


def test_a_flooded_province_takes_neither_d8_troops_nor_repositioned_infantry(ys):
    """`blocked` (the Flood Fate card, § Bot Generals) means nothing can be placed there this
    turn; deployment and Generals kept out, but D8 = 3 added its 2 Infantry and repositioning
    spread Infantry into it. Birchwood flooded: its 2 are lost and it keeps its own 4, while
    Elmgate (3 + 2 = 5) and Hollow (3 + 2 = 5) share 10: 5 each."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 3, 3, 3],
                   provinces=grid(Birchwood={"owner": "Red", "units": 4, "blocked": True},
                                  Elmgate={"owner": "Red", "units": 3, "ruler": True},
                                  Hollow={"owner": "Red", "units": 3}))
    held = {"Birchwood": 4, "Elmgate": 5, "Hollow": 5}
    assert "Birchwood can take no units this turn" in said(trace)
    assert all(f"After repositioning {name} holds {units} Infantry." in said(trace)
               for name, units in held.items())
