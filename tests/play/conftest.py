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
