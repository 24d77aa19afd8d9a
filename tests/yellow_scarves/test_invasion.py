"""Invasions under way: the players report the combat, the engine says continue or stop."""

from __future__ import annotations

from tests.yellow_scarves.helpers import decide, grid, said


def _under_way(attackers_left, defenders_left, dice=(), **extra):
    provinces = grid(Elmgate={"owner": "Red", "units": 9, "ruler": True, "acted": True},
                     Hollow={"units": 4}, **extra)
    return dict(step="invasion_continue", bot="Red", round=2, invasion_order="top_down",
                invasion_from="Elmgate", invasion_to="Hollow", attackers_left=attackers_left,
                defenders_left=defenders_left, provinces=provinces, dice=list(dice))


def test_eight_against_four_fights_on(ys):
    """8 attackers (the unit left behind not counted) against 4 defenders: continue."""
    trace = decide(ys, **_under_way(8, 4))
    assert trace.decision.result == "invasion"
    assert trace.decision.actions[0].action == "continue_invasion"


def test_eight_against_four_ends_at_three_against_three(ys):
    """"The bot Province loses 5 units in the first two Combat Engagements and the neutral
    Province loses 1, leaving 3 units in the neutral Province and 3 units available to attack in
    the bot Province. At this point the attacking and defending unit numbers are equal, and the
    Invasion would end." Elmgate keeps its 1 + the 3 survivors; the turn reads on."""
    trace = decide(ys, **_under_way(3, 3))
    text = said(trace)
    assert "the invasion ends" in text
    assert "Elmgate keeps 4 Infantry; Hollow keeps 3 defenders." in text
    assert trace.decision.result == "turn_over"


def test_a_won_invasion_moves_in_and_the_turn_reads_on(ys):
    """Won with 5 attackers left: they and the Ruler move in, 1 stays. The bot had captured 2
    provinces: Hollow is the 3rd, so a General is placed there at the end of the turn. The
    province that had not acted (Birchwood) acts now (D8 = 3); repositioning: 11 Infantry over
    3 provinces, 3 each, 2 leftovers, d6 = 4: top down (Birchwood, Elmgate)."""
    trace = decide(ys, **_under_way(5, 0, dice=[3, 4],
                                    Birchwood={"owner": "Red", "units": 3}),
                   bots=({"name": "Red", "captured": 2},))
    text = said(trace)
    assert "Move all 5 attacking Infantry into Hollow; 1 Infantry stays in Elmgate." in text
    assert "The bot's Ruler moves in with them." in text
    assert "capture no. 3" in text
    assert "Add 2 Infantry to Birchwood (now 5)" in text
    assert "After repositioning Birchwood holds 4 Infantry" in text
    assert "After repositioning Elmgate holds 4 Infantry" in text
    assert "After repositioning Hollow holds 3 Infantry" in text
    assert "Hollow is the bot's capture no. 3: place a bot General there." in text
    assert trace.decision.result == "turn_over"


def test_missing_invasion_details(ys):
    args = _under_way(3, 3)
    args["invasion_order"] = "none"
    trace = decide(ys, **args)
    assert trace.decision.result == "incomplete"


def test_third_capture_with_three_generals_adds_none(ys):
    """"Bots can always have up to 3 Generals in play": the 3rd capture pays for none."""
    args = _under_way(5, 0)
    args["provinces"][4]["generals"] = 3  # Elmgate
    trace = decide(ys, **args, bots=({"name": "Red", "captured": 5},))
    text = said(trace)
    assert "Move all 5 attacking Infantry into Hollow" in text
    assert "The bot's 3 General(s) move in with them." in text
    assert "capture no. 6, but the bot already has 3 Generals: none is added" in text


def test_the_turn_resumes_bottom_up_after_an_invasion(ys):
    """Invasion order bottom up: after Elmgate's invasion ends, the provinces that have not acted
    go southernmost first: Ironmoor (rank 3) before Birchwood (rank 1)."""
    args = _under_way(3, 3, dice=[3, 3, 2], Birchwood={"owner": "Red", "units": 4},
                      Ironmoor={"owner": "Red", "units": 4})
    args["invasion_order"] = "bottom_up"
    text = said(decide(ys, **args))
    assert text.index("Ironmoor: D8 = 3") < text.index("Birchwood: D8 = 3")


def test_an_invasion_between_unlisted_provinces_is_bad_input(ys):
    """The players must name the invading and the invaded province as listed on their map."""
    import pytest

    from whybot.engine import SnapshotError

    situation = _under_way(3, 3)
    situation["invasion_to"] = "Atlantis"
    with pytest.raises(SnapshotError,
                       match=r"\(\$.invasion_to\): 'Atlantis' is not a listed province name"):
        decide(ys, **situation)
