"""A pack's own action fields (pack.yaml `action_fields:`): declared once, read by the rule-file
schema, the trace, the short answer, batch rows and the odds; the engine and the CLI know only
the generic ones (`goal`, `details`, `budget`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, refused
from whybot.cli.batch.rows import decision_of
from whybot.engine import Engine, load_pack
from whybot.facts.snapshot import load_snapshot

PACK = """\
pack: crafts
title: A toy pack for the action fields (no game)
start: turn
action_fields:
  colour: {type: text, shown: tag, says: "the colour the work is done in"}
  cost: {type: count}
facts:
  board:
    busy: {type: boolean, default: false}
actions: [paint, rest]
"""
PAGE = """\
pack: crafts
procedure: turn
rules:
  - id: turn.paint
    when: not busy
    then: {action: paint, goal: brighten the room, colour: red, cost: 2, details: two coats}
  - id: turn.rest
    then: {action: rest}
"""


@pytest.fixture()
def crafts(tmp_path: Path) -> Path:
    folder = tmp_path / "crafts"
    (folder / "pages").mkdir(parents=True)
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    (folder / "pages" / "turn.yaml").write_text(PAGE, encoding="utf-8")
    (tmp_path / "snap.yaml").write_text("busy: false\n", encoding="utf-8")
    return folder


def test_a_declared_field_shows_where_the_pack_says(run, crafts):
    result = run("decide", crafts.parent / "snap.yaml", "--pack", crafts)
    assert result.exit_code == 0, result.output
    assert "1. paint — brighten the room  [red]" in result.stdout
    assert "cost: 2" in result.stdout and "details: two coats" in result.stdout


def test_the_trace_carries_it_and_a_batch_row_keeps_the_headline_fields(run, crafts, tmp_path):
    why = json.loads(run("why", tmp_path / "snap.yaml", "--pack", crafts, "--json").stdout)
    action = why["decision"]["actions"][0]
    assert [k for k in action if k in ("goal", "colour", "details", "cost")] == \
        ["goal", "colour", "details", "cost"]  # the headline first, as the row and odds read
    engine = Engine(load_pack(tmp_path, "crafts"))
    trace = engine.decide(load_snapshot(tmp_path / "snap.yaml", engine.pack))
    assert decision_of(engine, trace)["actions"] == [
        {"action": "paint", "goal": "brighten the room", "colour": "red", "rule": "turn.paint",
         "page": "turn"}]


def test_the_odds_tell_decisions_apart_by_it(run, crafts, tmp_path):
    result = run("odds", tmp_path / "snap.yaml", "--pack", crafts, "--json")
    assert result.exit_code == 0, result.output
    told = json.loads(result.stdout)["outcomes"][0]["decision"]["actions"][0]
    assert told == {"action": "paint", "goal": "brighten the room", "colour": "red",
                    "details": "two coats", "cost": "2"}


def test_an_unknown_field_type_is_one_clear_error_naming_the_file_and_field(run, crafts):
    pack = crafts / "pack.yaml"
    pack.write_text(PACK.replace("type: text", "type: txt"), encoding="utf-8")
    line = refused(run("decide", crafts.parent / "snap.yaml", "--pack", crafts),
                   "pack.yaml:5", "$.action_fields.colour.type", "txt", "text")
    assert "did you mean" in line


def test_an_unknown_place_to_show_it_is_refused_too(run, crafts):
    (crafts / "pack.yaml").write_text(PACK.replace("shown: tag", "shown: badge"),
                                      encoding="utf-8")
    refused(run("decide", crafts.parent / "snap.yaml", "--pack", crafts),
            "$.action_fields.colour.shown", "badge", "after, tag, line")


def test_a_field_may_not_take_the_name_of_an_outcome_key(run, crafts):
    (crafts / "pack.yaml").write_text(PACK.replace("  cost:", "  target:"), encoding="utf-8")
    refused(run("decide", crafts.parent / "snap.yaml", "--pack", crafts),
            "$.action_fields.target", "already a field of a rule's outcome")


def test_a_field_the_pack_does_not_declare_is_an_unknown_field(run, crafts):
    (crafts / "pages" / "turn.yaml").write_text(PAGE.replace("colour: red", "shade: red"),
                                                encoding="utf-8")
    refused(run("decide", crafts.parent / "snap.yaml", "--pack", crafts),
            "turn.yaml", "unknown field", "shade")


def test_arcs_declares_the_suit_and_the_engine_and_cli_name_no_such_field():
    assert "suit:" in (ROOT / "knowledge" / "arcs" / "pack.yaml").read_text(encoding="utf-8")
    for folder in ("engine", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            assert not re.search(r"[\"']suit[\"']", path.read_text(encoding="utf-8")), path
