"""Fixtures for the table tests: an in-process `whybot` runner and a game folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from whybot.cli.app import app

HERE = Path(__file__).resolve().parent
ARCS_GAME = HERE / "arcs_game"
STEWARD_GAME = HERE / "steward_game"  # issue 20's scripted game (test_steward_game.py)
PLAN = yaml.safe_load((STEWARD_GAME / "plan.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def run():
    """`whybot ARGS...` in-process (standard input empty: answers come from files); it keeps
    nothing between calls, so one serves the session (and module fixtures)."""
    runner = CliRunner()

    def invoke(*args: str | Path, stdin: str = ""):
        return runner.invoke(app, [str(a) for a in args], input=stdin,
                             catch_exceptions=False)

    return invoke


@pytest.fixture
def magnate_game(run, tmp_path) -> Path:
    """A one-bot game (the Magnate) at its chapter's start: its first bot turn is next."""
    path = tmp_path / "game.yaml"
    assert run("new", "arcs", path, "--seed", "11", "--answers",
               ARCS_GAME / "setup.yaml").exit_code == 0
    assert run("play", path, "--answers", ARCS_GAME / "1-chapter.yaml", "--at",
               "chapter").exit_code == 0
    return path


@pytest.fixture(scope="session")
def played(run, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted Steward game played once, read by the tests (none writes to it: copy
    it first)."""
    game = tmp_path_factory.mktemp("steward") / "game.yaml"
    result = run("new", "arcs", game, "--seed", str(PLAN["game"]["seed"]), "--answers",
                 STEWARD_GAME / PLAN["game"]["setup"])
    assert result.exit_code == 0, result.output
    for number, step in enumerate(PLAN["steps"], 1):
        result = run("play", game, "--answers", STEWARD_GAME / step["answers"])
        assert result.exit_code == 0, f"step {number}: {result.output}"
        assert f"next: {step['point'].replace('_', ' ')} for {step['bot']}" in result.stdout
        assert "not asked" not in result.stderr, f"step {number}: {result.stderr}"
    return game
