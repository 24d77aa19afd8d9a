"""The explainer agrees with the engine: the plain-Python reference reasoner (conditions read by
the evaluator the explainer uses) decides every shipped example exactly as durable_rules does —
same decision, same rules fired in the same order, same dice, same judgments."""

from __future__ import annotations

from pathlib import Path

import pytest

from whybot.cli.common import KNOWLEDGE, engine_for, overlay_key, with_variant
from whybot.engine import Engine, SnapshotError
from whybot.engine.load.sources import read_document
from whybot.facts.snapshot import load_snapshot, snapshot_variant

ROOT = Path(__file__).resolve().parents[2]
HOUSE = KNOWLEDGE / "examples" / "house"
PACKS = ("arcs", "yellow_scarves", "sparta_athens")
FOLDER = ROOT / "facts" / "examples"
EXAMPLES = [path for pack in PACKS for path in sorted((FOLDER / pack).rglob("*.yaml"))]


def same_decision(one, other) -> bool:
    return (one.decision == other.decision and one.fired() == other.fired()
            and one.dice == other.dice
            and {n: j.value for n, j in one.judgments.items()}
            == {n: j.value for n, j in other.judgments.items()}
            and _fields(one) == _fields(other))


def _fields(trace) -> list[tuple]:
    return [(j["entity"], j["field"], j["value"]) for j in trace.entity_judgments]


@pytest.fixture(scope="module")
def engines():
    found = {}
    for pack in PACKS:
        engine = engine_for(pack, overlay_key([HOUSE] if pack == "arcs" else []))
        found[pack] = (engine, Engine(engine.pack, reasoner="plain"))
    return found


@pytest.mark.parametrize("path", EXAMPLES,
                         ids=[str(p.relative_to(FOLDER).with_suffix("")) for p in EXAMPLES])
def test_the_reference_reasoner_decides_each_shipped_example_like_the_engine(engines, path):
    pack = path.relative_to(FOLDER).parts[0]
    engine, reference = engines[pack]
    variant = snapshot_variant(read_document(path, SnapshotError))
    if variant:  # a variant's example: both reasoners read the variant's rules
        engine = engine_for(pack, with_variant(pack, variant, overlay_key([HOUSE])))
        reference = Engine(engine.pack, reasoner="plain")
    situation = load_snapshot(path, engine.pack)
    for seed in range(3):
        by_engine = engine.decide(situation, seed=seed)
        by_reference = reference.decide(situation, seed=seed)
        assert by_engine.disagreements == []
        assert same_decision(by_engine, by_reference), (seed, by_engine.fired(),
                                                        by_reference.fired())
