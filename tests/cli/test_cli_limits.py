"""`whybot limits` lists every limit with its default and the value in force; `whybot --help`
stays short and points to it."""

from __future__ import annotations

import json
from dataclasses import fields

from typer.testing import CliRunner

from whybot.cli.app import app
from whybot.engine.limits import LIMIT_HELP, Limits


def test_the_top_level_help_is_short_and_names_the_limits_command(run):
    result = run("--help")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) < 40
    assert "`whybot limits`" in result.stdout
    assert "file_bytes" not in result.stdout and "8,388,608" not in result.stdout


def test_limits_lists_every_limit_with_its_default_and_what_it_bounds(run):
    result = run("limits")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())  # what it bounds is wrapped over lines
    for spec in fields(Limits):
        assert f"{spec.name} {getattr(Limits(), spec.name):,} " in text
        assert " ".join(LIMIT_HELP[spec.name].split()) in text
    assert "(default" not in text  # nothing raised: every value is its default
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_limits_shows_a_limit_raised_by_the_option_beside_its_default(run):
    result = run("--limit", "entities=20000", "limits")
    assert result.exit_code == 0
    assert "entities              20,000  (default 5,000) entities" in result.stdout


def test_limits_shows_a_limit_set_in_the_environment():
    result = CliRunner(env={"WHYBOT_LIMIT_DEPTH": "7"}).invoke(app, ["limits", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["limit"]: row for row in json.loads(result.stdout)}
    assert set(rows) == {spec.name for spec in fields(Limits)}
    assert rows["depth"] == {"limit": "depth", "value": 7, "default": 40,
                             "variable": "WHYBOT_LIMIT_DEPTH", "bounds": LIMIT_HELP["depth"]}
    assert rows["entities"]["value"] == rows["entities"]["default"] == 5_000


def test_a_misspelt_limit_is_one_line_with_a_suggestion(run):
    result = run("--limit", "entitys=3", "limits")
    assert result.exit_code == 2
    assert result.output.strip() == ("error: unknown limit 'entitys' (did you mean "
                                     "'entities'?)")
