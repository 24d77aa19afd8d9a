"""The rules a page's reading passed over are worked out once an engine, stretch by stretch
(`walk/passed_over.py`). With explain off, a decision's trace lists the same rules, each with
the names it reads, and rests on the same assumptions as with explain on (which tells each
rule's failures one by one); deciding again from the kept stretches gives the same trace."""

from __future__ import annotations

from typing import Any

from tests.conftest import ROOT
from whybot.engine.errors import WhybotError
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation


def _without_failures(value: Any) -> Any:
    """A trace as a dict, each skipped rule's failures (`why`, explain on only) left out."""
    if isinstance(value, dict):
        return {k: [] if k == "why" else _without_failures(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_failures(v) for v in value]
    return value


def test_a_decision_passes_over_the_same_rules_with_explain_off_as_on():
    decided = passed = 0
    for path in sorted((ROOT / "facts" / "examples").rglob("*.yaml"))[::3]:
        try:
            engine, situation = load_situation(path, None, overlay_key(None))
            on = engine.decide(situation, seed=1, explain=True).as_dict()
        except WhybotError:
            continue  # a map, or an example that needs house rules
        off = engine.decide(situation, seed=1, explain=False).as_dict()
        assert _without_failures(on) == off, path
        assert engine.decide(situation, seed=1, explain=False).as_dict() == off, path
        passed += sum(len(step.get("skipped", [])) for step in off["path"])
        decided += 1
    assert decided > 50
    assert passed > 1000  # the examples do pass over rules
