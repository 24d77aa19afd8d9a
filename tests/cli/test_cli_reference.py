"""The explainer agrees with the engine: the plain-Python reference evaluator of
`benchmarks/reference.py` (conditions read by `holds`) decides every shipped example exactly as
durable_rules does — same decision, same rules fired in the same order, same dice."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from whybot.cli.common import KNOWLEDGE, engine_for, overlay_key
from whybot.facts.snapshot import load_snapshot

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from reference import ReferenceEngine, same_decision  # noqa: E402

HOUSE = KNOWLEDGE / "examples" / "house"
PACKS = ("arcs", "yellow_scarves", "sparta_athens")
EXAMPLES = [path for pack in PACKS
            for path in sorted((ROOT / "facts" / "examples" / pack).glob("*.yaml"))]


@pytest.fixture(scope="module")
def engines():
    found = {}
    for pack in PACKS:
        engine = engine_for(pack, overlay_key([HOUSE] if pack == "arcs" else []))
        found[pack] = (engine, ReferenceEngine(engine.pack))
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_the_reference_evaluator_decides_each_shipped_example_like_the_engine(engines, path):
    engine, reference = engines[path.parent.name]
    situation = load_snapshot(path, engine.pack)
    for seed in range(3):
        by_engine = engine.decide(situation, seed=seed)
        by_reference = reference.decide(situation, seed=seed)
        assert by_engine.disagreements == []
        assert same_decision(by_engine, by_reference), (seed, by_engine.fired(),
                                                        by_reference.fired())
