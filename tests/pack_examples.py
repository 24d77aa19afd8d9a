"""What a pack's examples must show beyond tests/test_examples.py (which checks each `expect:`
block's result, choices and actions): every example carries a derivation (`notes:`) and an
`expect:` block; what the decision tells the players (`expect: says:`, each line a part of one
`say` of the decision); why a rule above the one that fired did not apply (`expect: why_not:`,
the rule and a part of the reason the trace gives); and, over all of a pack's examples, that
each decision page is read by at least two of them and each of its rules fires in at least one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from whybot.engine import Said
from whybot.facts.snapshot import load_snapshot

ROOT = Path(__file__).resolve().parent.parent


def example_paths(pack: str) -> list[Path]:
    return sorted((ROOT / "facts" / "examples" / pack).glob("*.yaml"))


def read_example(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def decide_example(engine, path: Path):
    """The example decided as tests/test_examples.py decides it, with its `expect:` block."""
    expect = read_example(path)["expect"]
    return engine.decide(load_snapshot(path, engine.pack), seed=expect.get("seed", 1)), expect


def missing_says(trace, expect: dict[str, Any]) -> list[str]:
    """The `says` lines no instruction holds, in the table's words or a snapshot's."""
    said = [text for step in trace.decision.steps if isinstance(step, Said)
            for text in (step.say, step.snapshot) if text]
    return [line for line in expect.get("says", []) if not any(line in s for s in said)]


def missing_why_not(trace, expect: dict[str, Any]) -> list[dict[str, str]]:
    """The `why_not` entries no step of the trace gives: the rule skipped with that reason."""
    reasons: dict[str, list[str]] = {}
    for step in trace.steps:
        for skipped in step.skipped:
            reasons.setdefault(skipped.rule, []).extend(skipped.why)
    return [entry for entry in expect.get("why_not", [])
            if not any(entry["why"] in why for why in reasons.get(entry["rule"], []))]


def reach(engine, paths: list[Path]) -> tuple[Counter, set[str]]:
    """How many examples read each page, and every rule that fired in any of them."""
    pages: Counter = Counter()
    fired: set[str] = set()
    for path in paths:
        trace, _ = decide_example(engine, path)
        pages.update({step.page for step in trace.steps})
        fired.update(trace.fired())
    return pages, fired


def unreached(engine, paths: list[Path], excused: dict[str, str]) -> dict[str, Any]:
    """Decision pages read by fewer than two examples; decision rules no example fires (less
    those `excused`, each with the reason no consistent board reaches it)."""
    pages, fired = reach(engine, paths)
    decision_pages = engine.pack.decision_pages()
    return {
        "pages read by fewer than two examples": sorted(
            f"{p.name} ({pages[p.name]})" for p in decision_pages if pages[p.name] < 2),
        "rules no example fires": sorted(
            r.id for p in decision_pages for r in p.ordered()
            if r.id not in fired and r.id not in excused),
        "excused rules that do fire": sorted(r for r in excused if r in fired),
    }


def example_tests(pack: str, engine_fixture: str, point: str,
                  excused: dict[str, str]) -> dict[str, Callable[..., None]]:
    """The tests every example of `pack` gets, for a test module to take into its namespace:
    `point` is the snapshot field naming the decision point; `excused` the decision rules no
    consistent board reaches, each with the reason."""
    paths = example_paths(pack)
    each = pytest.mark.parametrize("path", paths, ids=[p.stem for p in paths])

    @each
    def test_example_has_notes_and_an_expect_block(path: Path):
        data = read_example(path)
        assert data.get("notes") and data.get(point) and isinstance(data.get("expect"), dict)
        assert data["expect"].get("says") or data["expect"].get("actions"), \
            "an example shows what the bot does: actions, or what it tells the players"

    @each
    def test_example_says_what_its_notes_work_out_and_why_not(path: Path, request):
        trace, expect = decide_example(request.getfixturevalue(engine_fixture), path)
        assert missing_says(trace, expect) == [], trace.decision.say
        assert missing_why_not(trace, expect) == []

    @each
    @pytest.mark.parametrize("seed", [1, 7])
    def test_example_decides_without_disagreements(path: Path, seed: int, request):
        engine = request.getfixturevalue(engine_fixture)
        situation = load_snapshot(path, engine.pack)
        trace = engine.decide(situation, seed=seed)
        assert trace.disagreements == []
        assert all(r.source.startswith("pre-rolled") for r in trace.dice), trace.dice
        assert sum(len(r.faces) for r in trace.dice) == len(situation.dice), \
            "the example's pre-rolled dice are all used"

    def test_the_examples_read_every_page_twice_and_fire_every_rule(request):
        assert unreached(request.getfixturevalue(engine_fixture), paths, excused) == {
            "pages read by fewer than two examples": [], "rules no example fires": [],
            "excused rules that do fire": []}

    tests = (test_example_has_notes_and_an_expect_block,
             test_example_says_what_its_notes_work_out_and_why_not,
             test_example_decides_without_disagreements,
             test_the_examples_read_every_page_twice_and_fire_every_rule)
    return {test.__name__: test for test in tests}
