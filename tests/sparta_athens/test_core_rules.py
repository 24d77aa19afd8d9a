"""§ CORE RULES (seed lines 9-59): cards, favour, promotion, influence, allies, Desperate
Times, battle cards."""

from __future__ import annotations

import pytest

from tests.sparta_athens.helpers import HIT, MISS, actions, chosen, decide, details, result, said

# --- Playing Cards (lines 11-18) -------------------------------------------------------------


def test_random_selection_among_choices(sa):
    """Line 13: a random pick (d2 = 2: the second option)."""
    options = [{"label": "gain 2 talents"}, {"label": "place 1 influence"}]
    trace = decide(sa, "cards", dice=[2], card_options=options)
    assert chosen(trace, "picked")["label"] == "place 1 influence"


def test_battle_option_only_if_deployment_would_fight(sa):
    """Line 15: the battle option needs Deployment's test: land disadvantaged, two dice, one
    fails: the bot would not fight; the other option is taken without a random pick."""
    options = [{"label": "battle", "effect": "battle", "battle": "land"}, {"label": "talents"}]
    trace = decide(sa, "cards", dice=[HIT, MISS], card_options=options, land="disadvantaged")
    assert chosen(trace, "picked")["label"] == "talents"


def test_battle_option_kept_when_advantaged(sa):
    """Line 15 / line 116: advantaged: fight; both options stay, a random pick (d2 = 1)."""
    options = [{"label": "battle", "effect": "battle", "battle": "sea"}, {"label": "talents"}]
    trace = decide(sa, "cards", dice=[1], card_options=options, sea="advantaged")
    assert chosen(trace, "picked")["label"] == "battle"


@pytest.mark.parametrize(("land", "dice", "label"), [
    ("advantaged", [HIT, 1], "siege"), ("advantaged", [MISS], "talents"),
    ("disadvantaged", [], "talents")])
def test_siege_option_from_the_raid_test(sa, land, dice, label):
    """Line 16 / lines 102-106: begin a siege only when passing the raid-into-siege test (both
    options open: a random pick, d2 = 1)."""
    options = [{"label": "siege", "effect": "siege"}, {"label": "talents"}]
    trace = decide(sa, "cards", dice=dice, card_options=options, land=land)
    assert chosen(trace, "picked")["label"] == label


def test_no_option_taken(sa):
    """Lines 13-15: the only option is a battle the bot would not fight."""
    options = [{"label": "battle", "effect": "battle"}]
    trace = decide(sa, "cards", dice=[MISS], card_options=options, land="tied")
    assert result(trace) == "no_selection"


@pytest.mark.parametrize(("board", "spend"), [
    ({"favour": 1, "control_change": True}, True),
    ({"favour": 1, "battle_asset": True}, True),
    ({"favour": 3}, True),
    ({"favour": 2}, False),
    ({"favour": 0, "control_change": True}, False)])
def test_favour(sa, board, spend):
    """Line 17: spend if control changes, a battle-advantage asset joins, or three favour."""
    trace = decide(sa, "favour", **board)
    assert (result(trace) == "spend_favour") is spend


def test_promotion_prefers_battle_advantage(sa):
    """Line 18: the asset that negates an enemy battle advantage."""
    options = [{"asset": "skirmisher"}, {"asset": "cavalry", "negates_enemy": True}]
    trace = decide(sa, "promotion", promotions=options)
    assert chosen(trace, "promoted")["asset"] == "cavalry"


def test_promotion_random_when_none_qualifies(sa):
    """Line 13 (pack reading): none changes an advantage: random pick (d2 = 2)."""
    options = [{"asset": "skirmisher"}, {"asset": "cavalry"}]
    trace = decide(sa, "promotion", dice=[2], promotions=options)
    assert chosen(trace, "promoted")["asset"] == "cavalry"


# --- Influence Placement Guidelines (lines 20-34) -------------------------------------------


def place(engine, regions, dice=(), **board):
    board.setdefault("objective_region", "Ionia")
    return decide(engine, "influence", dice=dice, regions=regions, **board)


IONIA = {"name": "Ionia", "control": "enemy", "reward1": "navy", "reward2": "talent",
         "alteration": 3}


def test_objective_region_first(sa):
    """Line 26: the objective region if possible."""
    regions = [IONIA, {"name": "Thessaly", "polis1_grants": True}]
    trace = place(sa, regions)
    assert chosen(trace, "influence_region")["name"] == "Ionia"


def test_polis_one_needs_one_influence_placed(sa):
    """Line 27: a single Polis (1) grants control and ONE influence is placed; with two placed
    guideline 2 does not apply, and guideline 3 (two needed, two placed) picks Corinth."""
    regions = [{**IONIA, "placeable": False},
               {"name": "Thessaly", "polis1_grants": True, "alteration": 1},
               {"name": "Corinth", "alteration": 2}]
    assert chosen(place(sa, regions), "influence_region")["name"] == "Thessaly"
    trace = place(sa, regions, influence_placed=2)
    assert chosen(trace, "influence_region")["name"] == "Corinth"


def test_two_needed_with_adjacent_ally(sa):
    """Line 28: two influence needed, one placed, but an adjacent ally: that region."""
    regions = [{**IONIA, "placeable": False},
               {"name": "Corinth", "alteration": 2},
               {"name": "Achaea", "alteration": 2, "adjacent_ally": True}]
    assert chosen(place(sa, regions), "influence_region")["name"] == "Achaea"


def test_enemy_region_fourth(sa):
    """Line 30: no guideline 1-3 region: an enemy-controlled one (Corinth needs two with no
    ally and one influence placed)."""
    regions = [{**IONIA, "placeable": False}, {"name": "Corinth", "alteration": 2},
               {"name": "Euboea", "control": "enemy", "alteration": 2}]
    assert chosen(place(sa, regions), "influence_region")["name"] == "Euboea"


def test_random_fifth(sa):
    """Line 32: a random selection (d2 = 2)."""
    regions = [{**IONIA, "placeable": False}, {"name": "Corinth", "alteration": 3},
               {"name": "Achaea", "alteration": 2}]
    trace = place(sa, regions, dice=[2])
    assert chosen(trace, "influence_region")["name"] == "Achaea"


def test_objective_symbol_tie_break_leftmost_first(sa):
    """Line 34: both enemy regions qualify (guideline 4); Ionia's reward reads navy, talent:
    Lesbos (talent) matches the second symbol, Euboea (navy) the first: Euboea, though it
    needs more alteration."""
    regions = [{**IONIA, "placeable": False},
               {"name": "Lesbos", "control": "enemy", "reward1": "talent", "alteration": 1},
               {"name": "Euboea", "control": "enemy", "reward1": "elite", "reward2": "navy",
                "alteration": 3}]
    assert chosen(place(sa, regions), "influence_region")["name"] == "Euboea"


# --- Ally Selection (lines 36-49) -----------------------------------------------------------

ALL = [{"name": n} for n in ("thrace", "macedonia", "greece", "crete")]


@pytest.mark.parametrize(("bot", "allies", "dice", "ally"), [
    ("sparta", ALL, [2], "macedonia"),
    ("sparta", ALL, [1], "thrace"),
    ("sparta", [{"name": "thrace", "available": False}, {"name": "macedonia", "available": False},
                {"name": "greece"}, {"name": "crete"}], [], "greece"),
    ("sparta", [{"name": "crete"}, {"name": "greece", "available": False}], [], "crete"),
    ("athens", ALL, [2], "crete"),
    ("athens", [{"name": "thrace"}, {"name": "greece"}, {"name": "macedonia"}], [], "macedonia"),
    ("athens", [{"name": "thrace"}, {"name": "greece"}, {"name": "crete", "available": False}],
     [1], "thrace")])
def test_ally_selection(sa, bot, allies, dice, ally):
    """Lines 40-49: Sparta Thrace/Macedonia, Greece, Crete; Athens Macedonia/Crete, then
    Thrace/Greece; 'select randomly' by a d2 over the listed pair."""
    trace = decide(sa, "ally", bot=bot, dice=dice, allies=allies)
    assert chosen(trace, "chosen_ally")["name"] == ally


def test_athens_never_chooses_from_an_empty_list(sa):
    """Lines 46-49: none of the four allies is available: no ally."""
    allies = [{"name": n, "available": False} for n in ("thrace", "macedonia", "greece", "crete")]
    assert result(decide(sa, "ally", bot="athens", allies=allies)) == "no_ally"


# --- Desperate Times (lines 51-55) ----------------------------------------------------------


@pytest.mark.parametrize(("bot", "board", "uses"), [
    ("sparta", {"raid_on_sparta": True}, True),
    ("sparta", {"athens_influence_after_siege": 1}, False),
    ("athens", {"athens_influence_after_siege": 1}, True),
    ("athens", {"athens_influence_after_siege": 2}, False),
    ("athens", {"raid_on_sparta": True}, False)])
def test_desperate_times(sa, bot, board, uses):
    """Line 53: Sparta only to prevent a raid on Sparta; line 55: Athens when a siege of
    Athens reduces the city to one Athenian influence."""
    trace = decide(sa, "desperate_times", bot=bot, **board)
    assert (actions(trace) == ["desperate_times"]) is uses


# --- Fighting Battles (line 59) -------------------------------------------------------------


@pytest.mark.parametrize(("board", "action"), [
    ({"losing": True, "battle_cards": 2}, "reveal_battle_card"),
    ({"losing": False, "battle_cards": 2}, None),
    ({"losing": True, "battle_cards": 0}, None),
    ({"losing": True, "revealed": "playable", "battle_cards": 1}, "play_battle_card"),
    ({"losing": True, "revealed": "unplayable", "battle_cards": 1}, "reveal_battle_card"),
    ({"losing": False, "revealed": "unplayable", "battle_cards": 1}, None),
    ({"battle_over": True, "revealed_unused": 2}, "replace_battle_cards"),
    ({"battle_over": True, "revealed_unused": 0}, None)])
def test_battle_cards(sa, board, action):
    """Line 59: losing → turn over a card; play it if it can be; else leave it face up (and,
    still losing, turn over another); at the end discard unused revealed cards, draw as many."""
    trace = decide(sa, "battle", bot="athens", **board)
    assert actions(trace) == ([action] if action else [])


def test_replacement_count(sa):
    """Line 59: an equal number drawn face down and unseen."""
    trace = decide(sa, "battle", battle_over=True, revealed_unused=2)
    assert "draws 2 face down" in details(trace)


def test_unplayable_card_left_face_up(sa):
    """Line 59: if it cannot be played, leave it face up."""
    trace = decide(sa, "battle", losing=True, revealed="unplayable", battle_cards=1)
    assert "leave it face up" in said(trace)
