"""Every shipped Yellow Scarves example decides, and durable_rules agrees with the evaluator."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from whybot.facts.snapshot import load_snapshot

EXAMPLES = sorted((ROOT / "facts" / "examples" / "yellow_scarves").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("seed", [1, 7])
def test_example_decides_without_disagreements(path: Path, seed: int, ys):
    situation = load_snapshot(path, ys.pack)
    trace = ys.decide(situation, seed=seed)
    assert trace.disagreements == []
    used = sum(len(r["faces"]) for r in trace.dice if r["source"].startswith("pre-rolled"))
    assert used == len(situation.dice), "the example's pre-rolled dice are all used"
    assert all(r["source"].startswith("pre-rolled") for r in trace.dice), trace.dice
    assert trace.decision["result"] in {"setup", "turn_over", "invasion", "players_win",
                                        "players_lose", "play_on"}


def test_there_are_examples_for_each_step():
    steps = {load_snapshot_step(p) for p in EXAMPLES}
    assert steps == {"setup", "turn", "invasion_continue", "victory"}


def load_snapshot_step(path: Path) -> str:
    import yaml

    return yaml.safe_load(path.read_text())["step"]
