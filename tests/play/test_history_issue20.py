"""Issue 20: redo after undo, and correcting one answer of a past turn (`whybot fix`): the
turn decided again, the later turns that now decide differently shown, kept or dropped."""

from __future__ import annotations

import yaml

from whybot.facts.play.table import Table

from .conftest import ARCS_GAME, HERE

ISSUE = HERE / "issue20"


def _data(game):
    return yaml.safe_load(game.read_text(encoding="utf-8"))


def _ok(result):
    assert result.exit_code == 0, result.output
    return result


def _game(run, tmp_path, *turns: str):
    """A Magnate game, the chapter begun, then `turns` (answers files) played."""
    game = tmp_path / "game.yaml"
    _ok(run("new", "arcs", game, "--seed", "11", "--answers", ARCS_GAME / "setup.yaml"))
    _ok(run("play", game, "--at", "chapter", "--answers", ARCS_GAME / "1-chapter.yaml"))
    for answers in turns:
        _ok(run("play", game, "--at", "turn", "--answers", answers))  # rounds not played
    return game


def test_redo_puts_back_what_undo_took_back_until_a_new_turn(run, tmp_path):
    game = _game(run, tmp_path, ARCS_GAME / "2-turn.yaml", ARCS_GAME / "3-turn.yaml")
    played = _data(game)
    _ok(run("undo", game, "--turns", "2"))
    assert len(_data(game)["log"]) == 1 and len(_data(game)["undone"]) == 2
    redone = _ok(run("redo", game))
    assert "put back turn 2 (red)" in redone.stdout
    _ok(run("redo", game))
    after = _data(game)
    assert after["log"] == played["log"] and after["state"] == played["state"]
    assert after["pending"] == played["pending"] and "undone" not in after
    assert Table.open(game).replay() == []
    nothing = run("redo", game)
    assert nothing.exit_code == 2 and "nothing to redo" in nothing.stderr

    _ok(run("undo", game))
    _ok(run("play", game, "--at", "turn", "--answers", ARCS_GAME / "3-turn.yaml"))  # a new line
    assert run("redo", game).exit_code == 2


def test_a_corrected_answer_shows_the_later_turn_that_now_decides_differently(run, tmp_path):
    game = _game(run, tmp_path, ARCS_GAME / "2-turn.yaml", ISSUE / "kept-ambition-turn.yaml")
    before = _data(game)
    asked = run("fix", game, "--turn", "2", "--answers", ISSUE / "fix-ambition.yaml")
    assert asked.exit_code == 2  # a later turn changed: keep or drop must be said
    assert "turn 3 (red) now decides differently" in asked.stdout
    assert "--later keep" in asked.stderr
    assert _data(game) == before  # nothing saved

    kept = _ok(run("fix", game, "--turn", "2", "--answers", ISSUE / "fix-ambition.yaml",
                   "--later", "keep"))
    assert "turn 2 corrected and saved" in kept.stdout
    data = _data(game)
    assert len(data["log"]) == 3
    assert data["log"][1]["asked"] != before["log"][1]["asked"]
    assert data["log"][2]["decision"] != before["log"][2]["decision"]
    assert data["state"]["entities"]["game"]["ambition"]["empath"]["declared"] is False
    assert Table.open(game).replay() == []


def test_dropping_the_later_turns_leaves_them_to_play_again(run, tmp_path):
    game = _game(run, tmp_path, ARCS_GAME / "2-turn.yaml", ISSUE / "kept-ambition-turn.yaml")
    dropped = _ok(run("fix", game, "--turn", "2", "--answers", ISSUE / "fix-ambition.yaml",
                      "--later", "drop"))
    assert "dropped turn(s) 3" in dropped.stdout
    data = _data(game)
    assert len(data["log"]) == 2 and data["state"]["bots"]["red"]["hand_counter"] == 5


def test_a_fix_the_turn_was_not_asked_is_refused(run, tmp_path):
    game = _game(run, tmp_path, ARCS_GAME / "2-turn.yaml")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("lead_suit: aggression\n", encoding="utf-8")
    result = run("fix", game, "--turn", "2", "--answers", wrong)
    assert result.exit_code == 2 and "does not ask 'lead_suit'" in result.stderr
    assert "Traceback" not in result.output
    nothing = run("fix", game, "--turn", "9", "--answers", wrong)
    assert nothing.exit_code == 2 and "no turn 9" in nothing.stderr
