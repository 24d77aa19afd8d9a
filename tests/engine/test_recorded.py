"""A batch row decides without recording (`Engine.decide(record=False)`): no support lists the
facts its firing matched, no action says `because`. Deciding again with recording on must give
the same decision: the same row, and the same trace once those two parts are set aside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from whybot.cli.batch.rows import _decided
from whybot.engine.errors import WhybotError
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation


def _examples(exhaustive: bool) -> list[Path]:
    """Every shipped example with --exhaustive; every third otherwise (every pack's, and the
    Arcs Fates', whose pages rederive after each action)."""
    paths = sorted((ROOT / "facts" / "examples").rglob("*.yaml"))
    return paths if exhaustive else paths[::3]


def _without_recording(value: Any) -> Any:
    """A trace as a dict, with what only recording gives left out: the facts each support
    lists, and an action's `because`."""
    if isinstance(value, dict):
        return {k: _without_recording(v) for k, v in value.items()
                if k not in ("facts", "because")}
    if isinstance(value, list):
        return [_without_recording(v) for v in value]
    return value


def _decide(path: Path, seed: int, record: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    engine, situation = load_situation(path, None, overlay_key(None))
    trace = engine.decide(situation, seed=seed, explain=False, record=record)
    return _decided(path.name, engine, situation, trace), trace.as_dict()


def test_a_decision_without_recording_is_the_recorded_decision(exhaustive):
    decided = 0
    recorded_facts = 0
    for path in _examples(exhaustive):
        for seed in (1, 2):
            try:
                row, trace = _decide(path, seed, record=False)
            except WhybotError:
                continue  # a map, or an example that needs house rules
            again_row, again = _decide(path, seed, record=True)
            assert row == again_row, path
            assert _without_recording(trace) == _without_recording(again), path
            assert "because" not in str(trace["decision"]["actions"])
            recorded_facts += str(again).count("'facts'")
            decided += 1
    assert decided > 100
    assert recorded_facts > 0  # recording on does list the facts


@pytest.mark.parametrize("record", [True, False])
def test_recording_decides_each_derivation_alike(record):
    """A run without recording still names every rule behind each judgment (a row's
    `derived_by`), with no facts."""
    path = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
    engine, situation = load_situation(path, None, overlay_key(None))
    run = engine.derive(engine.inputs(situation), situation.entities, situation.answers,
                        record=record)
    supports = [s for by in run.support.values() for s in by]
    assert supports and all("rule" in s for s in supports)
    assert any(s["facts"] for s in supports) is record
