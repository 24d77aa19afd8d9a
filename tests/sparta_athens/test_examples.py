"""Every shipped Sparta/Athens example decides as its notes work out from the seed (the result,
choices and actions are checked by tests/test_examples.py; here what the decision tells the
players and why the rules above did not apply), durable_rules agrees with the evaluator, every
die is pre-rolled and used, and the examples together read every page and fire every rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pack_examples import (
    decide_example,
    example_paths,
    missing_says,
    missing_why_not,
    read_example,
    unreached,
)
from whybot.facts.snapshot import load_snapshot

EXAMPLES = example_paths("sparta_athens")

# Decision rules no example reaches, and why no consistent board does.
EXCUSED = {
    "region-selection.none": "every target kind reaches Region Selection only with a region to "
                             "aim at (each falls back to the Economic target, which stops "
                             "first when there is none)",
}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_has_notes_and_an_expect_block(path: Path):
    data = read_example(path)
    assert data.get("notes") and data.get("decision") and isinstance(data.get("expect"), dict)
    assert data["expect"].get("says") or data["expect"].get("actions"), \
        "an example shows what the bot does: actions, or what it tells the players"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_says_what_its_notes_work_out_and_why_not(path: Path, sa):
    trace, expect = decide_example(sa, path)
    assert missing_says(trace, expect) == [], trace.decision["say"]
    assert missing_why_not(trace, expect) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("seed", [1, 7])
def test_example_decides_without_disagreements(path: Path, seed: int, sa):
    situation = load_snapshot(path, sa.pack)
    trace = sa.decide(situation, seed=seed)
    assert trace.disagreements == []
    assert all(r["source"].startswith("pre-rolled") for r in trace.dice), trace.dice
    assert sum(len(r["faces"]) for r in trace.dice) == len(situation.dice)


def test_the_examples_read_every_page_twice_and_fire_every_rule(sa):
    assert unreached(sa, EXAMPLES, EXCUSED) == {
        "pages read by fewer than two examples": [], "rules no example fires": [],
        "excused rules that do fire": []}

