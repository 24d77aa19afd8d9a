"""Fixtures for the CLI tests: an in-process `whybot` runner and the demo's trace.

Every command builds its Engine through `whybot.facts.packs.engine_for`, cached per process, so
these tests compile the arcs pack once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from whybot.cli.app import app

DEMO = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"


@pytest.fixture()
def run():
    """Invoke `whybot ARGS...` in-process; returns typer's Result (stdout, stderr, exit_code)."""
    runner = CliRunner()

    def invoke(*args: str | Path):
        return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)

    return invoke


@pytest.fixture()
def demo_trace(run) -> dict:
    """The demo's trace as JSON (seed 7), to pick fired and skipped rules from."""
    result = run("why", DEMO, "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
