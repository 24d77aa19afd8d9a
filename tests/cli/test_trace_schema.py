"""`whybot why --json` keeps to its published JSON Schema (docs/trace.schema.json): examples of
every pack, explained (as the command prints them) and not (the trace a batch decides), and
the schema itself is a valid one that refuses what it does not describe."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import ROOT
from whybot.cli.shown import shown_in_full
from whybot.engine.walk.facts_read import Reading
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation

SCHEMA = json.loads((ROOT / "docs" / "trace.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLES = ROOT / "facts" / "examples"
# every sixth example of each pack (in name order): Fates, variants, dice, house rules
SAMPLE = [path for pack in ("arcs", "sparta_athens", "yellow_scarves")
          for path in sorted((EXAMPLES / pack).rglob("*.yaml"))[::6]]


def problems(data: dict) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_why_json_keeps_to_the_published_schema(run, path: Path):
    result = run("why", path, "--json", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert problems(json.loads(result.stdout)) == []


@pytest.mark.parametrize("path", SAMPLE[::3], ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_a_trace_decided_without_explaining_keeps_to_it_too(path: Path):
    engine, situation = load_situation(path, None, overlay_key(None))
    trace = engine.decide(situation, seed=2, explain=False, reading=Reading())
    assert problems(trace.as_dict()) == []
    assert problems(shown_in_full(engine, situation, trace).data) == []


def test_every_pack_is_sampled():
    assert {p.relative_to(EXAMPLES).parts[0] for p in SAMPLE} == \
        {"arcs", "sparta_athens", "yellow_scarves"}


def test_the_schema_refuses_a_trace_it_does_not_describe(run):
    result = run("why", EXAMPLES / "arcs" / "demo.yaml", "--json", "--seed", "7")
    data = json.loads(result.stdout)
    data["path"][0]["skipped"] = [{"rule": "x"}]  # a why-not without its reasons
    data["decision"]["actions"][0]["rule"] = 3
    assert problems(data) == ["$.decision.actions[0].rule: 3 is not of type 'string'",
                              *(f"$.path[0].skipped[0]: '{key}' is a required property"
                                for key in ("says", "why", "read"))]
