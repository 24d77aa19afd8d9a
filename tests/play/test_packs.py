"""`whybot play` for the other packs: a Yellow Scarves round (setup, a turn whose invasion
stops it, the invasion carried on) and Sparta/Athens decision points (an objective, a
deployment) — through the table API, answering from the hand-worked examples."""

from __future__ import annotations

import shutil

import pytest

from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .helpers import EXAMPLES, example, play


def test_a_yellow_scarves_round(tmp_path):
    shutil.copy(EXAMPLES.parent / "maps" / "yellow_scarves" / "example_map.yaml",
                tmp_path / "map.yaml")
    table = Table.new(tmp_path / "game.yaml", "yellow_scarves",
                      {"bots": ["Red"], "player_count": 1, "difficulty": "normal"}, seed=3,
                      include=[str(tmp_path / "map.yaml")])
    assert table.game.include == ["map.yaml"]
    board = example("yellow_scarves/turn_round1_invade.yaml")

    setup = {**example("yellow_scarves/setup_1p_normal.yaml"),
             "provinces": [{**p, "owner": "neutral"} for p in board["provinces"]]}
    turn, asked = play(table, setup, point="setup")
    assert asked == ["provinces"]  # the map's borders name them; nothing else is read
    result = turn.decide()
    assert result.trace.decision.result == "setup"
    table.record(result)

    turn, asked = play(table, board, point="turn", dice="table")
    # the bot and its bots: list come from the game; the provinces first (the map names
    # them), the players (an owner names one), the round, then the three rolls
    # what the setup said is offered at once; the example gives it anew, so each is asked
    assert asked == ["unchanged", "provinces", "players", "round", "dice.0", "dice.1",
                     "dice.2"]
    questions = [q for q, _ in turn.answers]
    assert [q.kind for q in questions[4:]] == ["dice", "dice", "dice"]
    assert (questions[4].count, questions[4].sides) == (1, 6)
    result = turn.decide()
    entry = table.record(result)
    assert [(a["action"], a["rule"]) for a in entry["decision"]["actions"]] == [
        ("invade", "invade.attack")]
    pending = table.game.pending["Red"]
    assert {k: pending[k] for k in ("step", "invasion_order", "invasion_from",
                                    "invasion_to")} == {"step": "invasion_continue",
                                                        "invasion_order": "top_down",
                                                        "invasion_from": "Elmgate",
                                                        "invasion_to": "Birchwood"}
    # the board as the walk left it goes on with the invasion: never asked again
    assert [p["name"] for p in pending["provinces"]] == [p["name"] for p in board["provinces"]]

    fight_on = example("yellow_scarves/invasion_fight_on.yaml")
    assert table.next_bot() == "Red"
    turn, asked = play(table, fight_on)
    # the invasion and the board are the game's: only the engagement's result is asked
    assert asked == ["defenders_left", "attackers_left"]
    result = turn.decide()
    assert [a.rule for a in result.trace.decision.actions] == ["ic.continue"]
    table.record(result)
    assert table.game.pending["Red"]["invasion_to"] == "Birchwood"
    assert [line["point"] for line in table.log_lines()] == ["setup", "turn",
                                                             "invasion_continue"]
    assert table.replay() == []


@pytest.mark.parametrize(("point", "path", "asked", "rule"), [
    ("objective", "sparta_athens/objective_athens_navy.yaml",
     ["objective_region", "regions", "success_from", "dice.0", "sea", "land"],
     "region-selection.choose"),
    ("deployment", "sparta_athens/deployment_raid_largest.yaml",
     ["enemy_forces", "land", "sea", "success_from", "dice.0", "spaces"], None),
])
def test_sparta_athens_decision_points(tmp_path, point, path, asked, rule):
    """The side is the game's and the decision point given: neither is asked; the dice are
    the example's own, rolled at the table."""
    values = example(path)
    table = Table.new(tmp_path / "game.yaml", "sparta_athens", {"bots": [values["bot"]]},
                      seed=1)
    turn, reached = play(table, values, point=point, dice="table")
    assert reached == asked
    result = turn.decide()
    expected = values["expect"]
    assert result.trace.decision.result == expected["result"]
    assert [a.action for a in result.trace.decision.actions] == \
        [a["action"] for a in expected.get("actions", [])]
    if rule:
        assert result.trace.decision.actions[0].rule == rule
    table.record(result)
    assert table.log_lines()[0]["point"] == point


def test_sparta_refuses_a_second_bot_and_an_unknown_side(tmp_path):
    with pytest.raises(AnswerError, match="1 to 1 bots"):
        Table.new(tmp_path / "a.yaml", "sparta_athens", {"bots": ["sparta", "athens"]})
    with pytest.raises(AnswerError, match="did you mean 'sparta'"):
        Table.new(tmp_path / "b.yaml", "sparta_athens", {"bots": ["spartta"]})
    assert not (tmp_path / "a.yaml").exists()
