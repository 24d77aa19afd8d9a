"""Fixtures for the table tests: an in-process `whybot` runner and a game folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from whybot.cli.app import app

HERE = Path(__file__).resolve().parent
ARCS_GAME = HERE / "arcs_game"


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
