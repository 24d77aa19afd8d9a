"""Every shipped example decides as its `expect:` block says — the decision worked out by hand
from the seed text (the example's `notes:` show the working): the result, the entities chosen
(the card), and each action with the rule that cites the seed line for it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import KNOWLEDGE, ROOT, engine_for, example_overlays
from whybot.facts.snapshot import load_snapshot

FOLDER = ROOT / "facts" / "examples"
EXAMPLES = sorted(p for p in FOLDER.rglob("*.yaml") if p.name != "map.yaml")


def _expect(path: Path) -> dict | None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data.get("expect") if isinstance(data, dict) else None


@pytest.mark.parametrize("path", EXAMPLES,
                         ids=[str(p.relative_to(FOLDER).with_suffix("")) for p in EXAMPLES])
def test_the_example_decides_as_worked_out_from_the_seed(path: Path):
    expect = _expect(path)
    assert expect is not None, "every shipped example says what it decides (expect:)"
    engine = engine_for(KNOWLEDGE, path.relative_to(FOLDER).parts[0],  # its pack
                        example_overlays(path))
    trace = engine.decide(load_snapshot(path, engine.pack), seed=expect.get("seed", 1))
    decision = trace.decision
    assert decision.result == expect["result"]
    assert [{"action": a.action, "rule": a.rule} for a in decision.actions] \
        == expect.get("actions", [])
    for alias, fields in expect.get("choices", {}).items():
        chosen = decision.choices[alias].entity
        assert {k: chosen.get(k) for k in fields} == fields
