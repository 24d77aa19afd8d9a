"""Every shipped SUPERCAT example decides, and the durable_rules walk agrees with the evaluator."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.arcs.conftest import HOUSE
from tests.conftest import KNOWLEDGE, ROOT, engine_for
from whybot.engine import SnapshotError
from whybot.engine.load.variants import variant_folder
from whybot.facts.snapshot import load_snapshot

FOLDER = ROOT / "facts" / "examples" / "arcs"
EXAMPLES = sorted(FOLDER.rglob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES,
                         ids=[str(p.relative_to(FOLDER).with_suffix("")) for p in EXAMPLES])
@pytest.mark.parametrize("house", [False, True], ids=["base", "house"])
def test_example_decides_without_disagreements(path: Path, house: bool, arcs, arcs_house):
    """The walk agrees with the evaluator, base and under the house rules; the base decides the
    example's expected result, and the house rules (they add only the Hoarder Fate) change no
    action or choice of a bot that does not play it."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    engines = {False: arcs, True: arcs_house}
    if data.get("variant"):  # a variant's example: decided with its variant, under the house too
        variant = variant_folder(KNOWLEDGE / "arcs", data["variant"])
        engines = {h: engine_for(KNOWLEDGE, "arcs", (variant, *((HOUSE,) if h else ())))
                   for h in (False, True)}
    engine = engines[house]
    if path.stem.startswith("house_") and not house:
        with pytest.raises(SnapshotError, match="is not one of"):  # a Fate with no pages
            load_snapshot(path, engine.pack)
        return
    seed = data["expect"].get("seed", 1)
    trace = engine.decide(load_snapshot(path, engine.pack), seed=seed)
    assert trace.disagreements == []
    if not house or path.stem.startswith("house_"):
        assert trace.decision["result"] == data["expect"]["result"]
    else:
        base = engines[False].decide(load_snapshot(path, engines[False].pack), seed=seed)
        assert _outline(trace.decision) == _outline(base.decision)


def _outline(decision: dict) -> tuple:
    """What a decision does, by whom: its result, each action with its rule, each choice's rule
    (the house rules judge a field of their own on some entities, so whole entities differ)."""
    return (decision["result"], [(a["action"], a["rule"]) for a in decision["actions"]],
            {alias: choice["by"] for alias, choice in decision.get("choices", {}).items()})


def test_demo_ends_on_administration_with_a_tax(arcs):
    """The demo (make demo): the bot pivots to Administration and Taxes to contend Tycoon."""
    path = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
    for seed in (1, 7):
        trace = arcs.decide(load_snapshot(path, arcs.pack), seed=seed)
        assert trace.decision["actions"][-1]["page"] == "administration"
        assert trace.decision["actions"][-1]["action"] == "tax"
        assert trace.decision["actions"][-1]["rule"] == "admin.tax-contend-declared"


def test_there_are_about_twenty_examples():
    assert len(EXAMPLES) >= 20
