"""Issue 20, part 3: `play` follows the game's flow.

The pack's play.yaml declares its decision points in game order (`flow:`); the next one is
offered from what the game file knows — the setup's buildings placed so far, a decision's
result, the hand counters — with why in the player's words, and what it knows (the building
count) is never asked."""

from __future__ import annotations

import warnings
from typing import Any

import yaml

from whybot.facts.play.offer import next_point
from whybot.facts.play.table import Table

from .conftest import ARCS_GAME
from .helpers import EXAMPLES, example, value_for


def _follow(table: Table, values: dict[str, Any], dice: str = "roll",
            ) -> tuple[Any, str, list[str], dict[str, Any]]:
    """The point the flow offers, why, the questions asked and the decision, recorded."""
    offer = next_point(table)
    assert offer is not None
    turn = table.turn(dice=dice, follow=True)
    faces, asked = list(values.get("dice", [])), []
    while (question := turn.next_question()) is not None:
        asked.append(question.id)
        turn.answer(question.id, value_for(question, values, faces))
    entry = table.record(turn.decide())
    assert entry["point"] == offer.point
    return offer.point, offer.why, asked, entry["decision"]


def test_arcs_setup_both_buildings_then_the_chapter_then_turns_then_the_round_end(tmp_path):
    table = Table.new(tmp_path / "game.yaml", "arcs",
                      {"bots": ["red"], "difficulty": "none", "red.fate": "none"}, seed=1)
    point, why, asked, _ = _follow(table, example("arcs/setup/first_building_normal.yaml"))
    assert (point, why) == ("setup", "a new game: each bot places its first setup building")
    assert "buildings_placed" not in asked  # the flow knows: the first
    point, why, asked, _ = _follow(table, example("arcs/setup/second_building_modifiers.yaml"))
    assert (point, why) == ("setup", "the second setup building")
    assert table.game.log[-1]["snapshot"]["buildings_placed"] == 1
    assert "buildings_placed" not in asked
    point, why, asked, _ = _follow(table, example("arcs/chapter_start.yaml"))
    assert point == "chapter" and why.endswith("the first chapter begins")
    offer = next_point(table)
    assert offer is not None and offer.point == "turn"

    turn = yaml.safe_load((ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8"))
    point, _, _, _ = _follow(table, turn)
    assert point == "turn" and table.game.state["bots"]["red"]["hand_counter"] == 5
    offer = next_point(table)  # one bot: its card was the round's last bot card
    assert offer is not None
    assert (offer.point, offer.why) == ("round_end",
                                        "every bot has played its card: the round ends")
    table.undo()
    table.game.state["bots"]["red"]["hand_counter"] = 1  # the chapter's last card
    _follow(table, turn)
    assert table.game.state["bots"]["red"]["hand_counter"] == 0
    offer = next_point(table)
    assert offer is not None
    assert (offer.point, offer.why) == ("round_end", "all cards played: the round ends")
    point, _, _, decision = _follow(table, example("arcs/round_end/chapter_ends.yaml"))
    assert decision["result"] == "chapter_end"
    offer = next_point(table)
    assert offer is not None and offer.point == "chapter"


def test_sparta_three_decisions_in_game_order_keeping_the_objective(tmp_path):
    table = Table.new(tmp_path / "game.yaml", "sparta_athens", {"bots": ["athens"]}, seed=1)
    points = []
    for path in ("setup_athens", "objective_athens_navy", "new_mobilisation_round_one"):
        point, _, asked, decision = _follow(table, example(f"sparta_athens/{path}.yaml"),
                                            dice="table")
        points.append((point, decision["result"]))
        assert "decision" not in asked  # never "which of 15 points are you at?"
    assert points == [("setup", "setup"), ("objective", "objective"),
                      ("new_mobilisation", "mobilised")]
    assert table.game.state["game"]["objective_region"] == "Chalkidike"
    offer = next_point(table)
    assert offer is not None
    assert (offer.point, offer.why) == ("deployment",
                                        "the bot mobilised: where its force deploys")


def test_yellow_scarves_setup_turn_and_the_invasion_going_on(tmp_path):
    table = Table.new(tmp_path / "game.yaml", "yellow_scarves",
                      {"bots": ["Red"], "player_count": 1, "difficulty": "normal"}, seed=3,
                      include=[str(EXAMPLES.parent / "maps" / "yellow_scarves" /
                                       "example_map.yaml")])
    board = example("yellow_scarves/turn_round1_invade.yaml")
    setup = {**example("yellow_scarves/setup_1p_normal.yaml"),
             "provinces": [{**p, "owner": "neutral"} for p in board["provinces"]]}
    assert _follow(table, setup)[0] == "setup"
    point, why, _, decision = _follow(table, board, dice="table")
    assert (point, why) == ("turn", "setup is done: the first bot's turn")
    assert decision["result"] == "invasion"
    offer = next_point(table)
    assert offer is not None and offer.point == "invasion_continue"
    assert offer.why == "the invasion goes on: the players report the engagement"


def test_play_says_the_next_point_and_why(run, tmp_path):
    game = tmp_path / "game.yaml"
    assert run("new", "arcs", game, "--seed", "11", "--answers",
               ARCS_GAME / "setup.yaml").exit_code == 0
    result = run("play", game, "--answers", ARCS_GAME / "1-chapter.yaml")
    assert result.exit_code == 2  # the setup comes first: its answers are not the chapter's
    assert "next: setup for red: a new game: each bot places its first setup building" \
        in result.output
    jumped = run("play", game, "--answers", ARCS_GAME / "1-chapter.yaml", "--at", "chapter")
    assert jumped.exit_code == 0, jumped.output
    assert "next:" not in jumped.output


def test_the_web_page_offers_the_same_next_point(tmp_path):
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from whybot.cli.web.app import create_app

    Table.new(tmp_path / "g1.yaml", "arcs",
              {"bots": ["red"], "difficulty": "none", "red.fate": "none"}, seed=1)
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1")
    page = client.get("/g/g1")
    assert page.status_code == 200
    assert ('<option value="setup" selected>setup (next: a new game: each bot places its first '
            'setup building)</option>') in page.text
    turn = client.get("/g/g1/turn", params={"point": "setup", "dice": "roll"})
    assert turn.status_code == 200
    assert 'name="question" value="modifiers"' in turn.text  # not the buildings placed
