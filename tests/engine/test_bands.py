"""Issue 8, finding 1: a page of any size decides correctly; no ruleset outgrows durable_rules.

The root cause: durable_rules walks the alpha network with a 64-entry stack; an evaluate event
whose tests held at more than 64 nodes (every rule's `from <= rank`) failed half-way with error
303, and deleting that state then corrupted the heap. Pages are now split into bands whose
tests a fact can meet at once stay under a budget (`alpha.py`), packed into as many rulesets as
needed, and evaluated top band first.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import Engine, load_pack
from whybot.engine.compile.alpha_network import STACK_BUDGET, AlphaModel, Overflow

SHAPES = {
    # each rule never applies: the decision must be the toy pack's own
    "equal": lambda i: f"coins == {100 + i}",
    "range": lambda i: f"coins >= {i % 7} and coins < 0",
    "exists": lambda i: f"exists token (size >= 0 and size < {-1 - i})",
    "mixed": lambda i: [f"coins == {100 + i}", f"ratio >= {i % 5} and coins > 99",
                        f"exists slot (open and colour == 'c{i}')",
                        "mood in ['calm', 'angry'] and coins > 50"][i % 4],
}


def _house(tmp_path, shape: str, count: int):
    house = tmp_path / shape
    house.mkdir()
    rules = "".join(f"  - id: house.r{i}\n    when: \"{SHAPES[shape](i)}\"\n"
                    f"    then: {{say: 'never {i}', continue: true}}\n" for i in range(count))
    (house / "house.yaml").write_text(f"pack: toy\nprocedure: turn\nsalience: 10\nrules:\n{rules}")
    return house


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_page_with_a_thousand_house_rules_decides_as_without_them(toy, tmp_path, shape):
    engine = Engine(load_pack(TOY_PACKS, "toy", [_house(tmp_path, shape, 1000)]))
    snapshot = "coins: 2\nmood: angry\nready: true\ntokens: [{colour: red, size: 2}]\n"
    expected = decide(toy, snapshot)
    trace = decide(engine, snapshot)
    assert trace.decision == expected.decision
    assert trace.fired() == expected.fired()
    bands = engine.pages.compiled.bands["turn"]
    assert len(bands) > 1  # the page was split, and every band fits the budget
    explained = [s for s in trace.steps[0].skipped if s["rule"].startswith("house.")]
    assert len(explained) == 1000 and all(s["why"] for s in explained)


def test_the_model_counts_tests_that_can_hold_at_once():
    model = AlphaModel()
    for rank in range(1, 31):
        model.add_unit([{"e": {"$and": [{"t": "evaluate"}, {"band": 1},
                                        {"$lte": {"from": rank}}]}}])
    assert model.stack == 30  # an event with from=1 meets all thirty at once
    exclusive = AlphaModel()
    for value in range(150):
        exclusive.add_unit([{"x": {"$and": [{"t": "e"}, {"colour": f"c{value}"}]}}])
    assert exclusive.stack <= 2  # a fact has one colour: equal tests exclude each other


def test_the_model_refuses_a_ruleset_durable_rules_could_not_carry():
    model = AlphaModel()
    with pytest.raises(Overflow, match="at once"):
        for rank in range(1, 100):
            model.add_unit([{"e": {"$and": [{"t": "evaluate"}, {"$lte": {"from": rank}}]}}])
    assert rank == STACK_BUDGET + 1


_RAW = """
import json, sys
import durable_rules_engine as core
n = int(sys.argv[1])
rules = {f"r{i}": {"all": [{"e": {"$and": [{"t": "evaluate"}, {"$lte": {"from": i}}]}}],
                   "pri": i} for i in range(1, n + 1)}
handle = core.create_ruleset(f"raw{n}", json.dumps(rules))
try:
    core.assert_event(handle, json.dumps({"sid": "1", "id": "e", "t": "evaluate", "from": 1}))
except core.error as exc:
    print(exc)
"""


def test_the_root_cause_is_durable_rules_64_entry_alpha_stack():
    """The finding itself, against durable_rules alone: 64 all-true tests pass, 65 fail."""
    ran = [subprocess.run([sys.executable, "-c", _RAW, str(n)], capture_output=True,
                          text=True, timeout=60) for n in (64, 65)]
    assert ran[0].returncode == 0 and ran[0].stdout == ""
    assert "error code: 303" in ran[1].stdout
