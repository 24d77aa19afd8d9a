"""Issue 20: a turn is never wrong. The `normal` and `harder` difficulty paths decide through
`play --answers` (answers checked together, not each against a snapshot missing the others),
and a turn the procedure cannot decide asks again for what is missing and is never saved."""

from __future__ import annotations

import pytest
import yaml

from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .conftest import ARCS_GAME, HERE
from .helpers import given

ISSUE = HERE / "issue20"


def _data(game):
    return yaml.safe_load(game.read_text(encoding="utf-8"))


def _new(run, tmp_path, setup: str, *extra: str):
    game = tmp_path / "game.yaml"
    result = run("new", "arcs", game, "--seed", "11", "--answers", ISSUE / setup)
    assert result.exit_code == 0, result.output
    return game


def _play(run, game, answers, *extra):
    result = run("play", game, "--answers", answers, *extra)
    assert result.exit_code == 0, result.output
    return result


def test_normal_difficulty_asks_both_powers_and_decides(run, tmp_path):
    game = _new(run, tmp_path, "setup-normal.yaml")
    _play(run, game, ARCS_GAME / "1-chapter.yaml", "--at", "chapter")
    result = _play(run, game, ISSUE / "normal-turn.yaml")
    assert "turn 2 (red) saved" in result.stdout
    entry = _data(game)["log"][1]
    asked = {a["id"]: a["value"] for a in entry["asked"]}  # both on the bot's first page
    assert {"power", "player_power"} <= set(asked["standing"])
    assert not {"power_track", "power", "player_power"} & set(asked)
    assert entry["snapshot"]["power"] == 3 and entry["snapshot"]["player_power"] == 4
    assert Table.open(game).replay() == []


def test_harder_chapter_with_two_bots_decides_for_each(run, tmp_path):
    game = _new(run, tmp_path, "setup-harder.yaml")
    for number, bot in ((1, "red"), (2, "blue")):
        result = _play(run, game, ISSUE / "harder-chapter.yaml", "--at", "chapter")
        assert f"turn {number} ({bot}) saved" in result.stdout
    log = _data(game)["log"]
    assert [e["decision"]["result"] for e in log] == ["chapter", "chapter"]
    assert {a["id"] for a in log[0]["asked"]} == {"guild_cards", "power_track"}
    assert {"power": 2, "other_bot_power": 1} in [a["value"] for a in log[0]["asked"]]


def test_one_power_alone_is_not_refused_for_the_other_missing(tmp_path, run):
    """Through the table API: `power` is accepted while `player_power` is still to come."""
    game = _new(run, tmp_path, "setup-normal.yaml")
    _play(run, game, ARCS_GAME / "1-chapter.yaml", "--at", "chapter")
    turn = Table.open(game).turn(moves=True, follow=True,  # the file lists the moves
                                 flow={"flow.initiative": "red"})
    answers = yaml.safe_load((ISSUE / "normal-turn.yaml").read_text(encoding="utf-8"))
    seen = []
    while (question := turn.next_question()) is not None:
        assert question.id not in seen, f"{question.id} asked twice"
        seen.append(question.id)
        turn.answer(question.id, given(question, answers))  # unchanged: no
    assert turn.decide().trace.decision.result


def test_an_undecidable_turn_asks_again_and_is_never_saved(run, tmp_path):
    game = _new(run, tmp_path, "setup-normal.yaml")
    data = _data(game)
    _play(run, game, ARCS_GAME / "1-chapter.yaml", "--at", "chapter")
    before = game.read_text(encoding="utf-8")
    result = run("play", game, "--answers", ISSUE / "undecided-turn.yaml")
    assert result.exit_code == 2
    assert "not decided, nothing saved" in result.stderr
    assert "fewer are listed as bonus cards" in result.stderr
    assert "Traceback" not in result.output
    assert game.read_text(encoding="utf-8") == before  # not logged, not saved
    assert data["state"]["game"]["difficulty"] == "normal"

    table = Table.open(game)
    turn = table.turn(follow=True, flow={"flow.initiative": "red"})
    answers = yaml.safe_load((ISSUE / "undecided-turn.yaml").read_text(encoding="utf-8"))
    while (question := turn.next_question()) is not None and not question.again:
        turn.answer(question.id, given(question, answers, None))
    again = turn.next_question()
    assert again.id == "cards" and again.again and "bonus card" in again.help
    with pytest.raises(AnswerError, match="not decided, nothing saved"):
        turn.decide()
    turn.answer("cards", "administration 5, aggression 2, construction 1, bonus=yes")
    assert turn.next_question().id == "pips.construction 1"  # new to the game: asked once
    turn.answer("pips.construction 1", 2)
    assert turn.next_question().id != "cards"  # the procedure goes on


def test_no_drawn_card_is_asked_again(run, tmp_path):
    game = _new(run, tmp_path, "setup-normal.yaml")
    _play(run, game, ARCS_GAME / "1-chapter.yaml", "--at", "chapter")
    empty = tmp_path / "empty.yaml"
    standing = yaml.safe_load((ISSUE / "undecided-turn.yaml").read_text(encoding="utf-8"))
    kept = {name: value for name, value in standing.items() if not name.startswith("pips.")}
    empty.write_text(yaml.safe_dump({**kept, "bonus_cards": 0, "cards": []}),
                     encoding="utf-8")
    result = run("play", game, "--answers", empty)
    assert result.exit_code == 2 and "No drawn cards are listed" in result.stderr
    assert len(_data(game)["log"]) == 1
