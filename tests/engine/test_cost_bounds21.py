"""Issue 21, items 5 and 6: costly house rules within the documented limits decide, or are
refused in one line naming the limit (exit 2), and `rules lint` says what `decide` would.

The cases are those of `benchmarks/worst_cases.py` (an Arcs snapshot and a house-rule folder),
run through the CLI in this process; the benchmark measures their time and memory.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from typer.testing import CliRunner

from benchmarks.worst_cases import CASES, Case, alternatives, judge, stop, write
from tests.conftest import TOY_PACKS, refused
from whybot.cli.app import app
from whybot.engine import load_pack
from whybot.engine.compile.alpha_network import AlphaModel, Overflow
from whybot.engine.compile.rulesets import Packer
from whybot.engine.limits import LimitError


@pytest.fixture()
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def _or_join(tests: str, count: int) -> Case:
    """One decision rule: a pair of options joined, the second with `count` alternatives."""
    return Case("or", "", 2, False, (stop("house.or", alternatives(tests, count)),))


def test_64_alternatives_inside_a_join_decide(run, tmp_path):
    snapshot, rules = write(CASES["or64join"], tmp_path)
    result = run("decide", snapshot, "--rules", rules, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "result: house" in result.stdout


def test_alternatives_that_all_hold_inside_a_join_are_refused_at_load_by_lint_and_decide(
        run, tmp_path):
    # `gain > i`: every alternative's test holds for one option at once, each with its own
    # join under it — past durable_rules' 64-entry stack whatever the order of the tests
    snapshot, rules = write(_or_join("gain > {i}", 60), tmp_path)
    words = ("house.yaml:", "house.or", "too large for durable_rules", "64")
    decided = refused(run("decide", snapshot, "--rules", rules, "--seed", "1"), *words)
    linted = run("rules", "lint", "--pack", "arcs", "--rules", rules)
    assert linted.exit_code == 2, linted.output
    assert decided.split(" (split")[0] in linted.stdout


def _same_join_then(count: int) -> list[list[dict]]:
    """`count` rules whose second pattern tests the same join, then a value of its own."""
    return [[{"a": {"$and": [{"t": "a"}]}},
             {"b": {"$and": [{"t": "b"}, {"$neq": {"v": {"a": "v"}}}, {"w": value},
                             {"k": {"a": "k"}}]}}] for value in range(count)]


_RAW = """
import json, sys
import durable_rules_engine as core
rules = {f"r{i}": {"all": all_, "pri": 1} for i, all_ in enumerate(json.loads(sys.argv[1]))}
handle = core.create_ruleset("raw", json.dumps(rules))
try:
    core.assert_fact(handle, json.dumps({"sid": "1", "id": "b", "t": "b", "v": 1, "w": 0,
                                         "k": 1}))
except core.error as exc:
    print(exc)
"""


def test_durable_rules_shares_no_join_node_and_the_model_knows_it():
    """The root of item 6, against durable_rules alone: rules testing the same join first
    push a node each for one fact, however alike the tests: 64 fill the stack, 65 overflow it
    (error 303). The model refuses them well before (its budget keeps a margin)."""
    ran = [subprocess.run([sys.executable, "-c", _RAW, json.dumps(_same_join_then(n))],
                          capture_output=True, text=True, timeout=60) for n in (64, 65)]
    assert ran[0].returncode == 0 and ran[0].stdout == "", ran[0].stdout + ran[0].stderr
    assert "error code: 303" in ran[1].stdout
    model = AlphaModel()
    with pytest.raises(Overflow, match="at most 64"):
        for patterns in _same_join_then(64):
            model.add_unit(patterns)


def test_lint_passes_what_decide_decides(run, tmp_path):
    _, rules = write(CASES["or64join"], tmp_path)
    linted = run("rules", "lint", "--pack", "arcs", "--rules", rules)
    assert linted.exit_code == 0, linted.output


@pytest.mark.parametrize("name", ["join2x447", "join3x58", "rules200x4990", "page200x4990"])
def test_costly_joins_and_many_rules_are_refused_up_front_naming_the_limit(run, tmp_path,
                                                                          name):
    # each took minutes and gigabytes; now refused before the work, with the costliest rule
    snapshot, rules = write(CASES[name], tmp_path)
    refused(run("decide", snapshot, "--rules", rules, "--seed", "1"),
            "this decision would examine", "entity combinations", "rule ",
            "over the limit combinations = 150,000", "WHYBOT_LIMIT_COMBINATIONS")


def test_the_budget_is_the_whole_decisions_not_one_rules(run, tmp_path):
    # 200 rules of 20 options each: no rule comes near the limit, together they pass it
    case = Case("many", "", 20, True, tuple(judge(f"house.r{i}", "exists option as o0 "
                                                  "(gain >= 0)") for i in range(200)))
    snapshot, rules = write(case, tmp_path)
    decided = run("decide", snapshot, "--rules", rules, "--seed", "1")
    assert decided.exit_code == 0, decided.output
    refused(run("--limit", "combinations=5000", "decide", snapshot, "--rules", rules,
                "--seed", "1"), "over the limit combinations = 5,000")


def test_a_join_of_100_by_100_decides(run, tmp_path):
    # it took 20.8 s (2 ms a combination); the pair's firings are read back cheaply now
    snapshot, rules = write(CASES["join2x100"], tmp_path)
    decided = run("decide", snapshot, "--rules", rules, "--seed", "1")
    assert decided.exit_code == 0, decided.output
    assert "result: decided" in decided.stdout


def test_the_evaluators_work_counts_against_the_same_budget():
    from whybot.engine.budget import Budget
    from whybot.engine.evaluator.evaluate import World, holds
    from whybot.engine.language.parser import parse

    from .test_closures import KINDS

    tokens = [{"colour": "red", "size": 1} for _ in range(30)]
    world = World({}, {"token": tokens}, Budget(500))
    with pytest.raises(LimitError, match="over the limit combinations = 500"):
        holds(parse("exists token as b (size >= 1) and exists token as c (size > b.size)",
                    KINDS), world)  # 30 tested, then 30 for each of them


def test_a_ruleset_full_of_house_rules_goes_on_in_the_next_one(tmp_path):
    # 3,000 rules on one page filled a ruleset while its next band was opened: the end rule
    # that opens a band overflowed it, uncaught (exit 1, an internal error)
    rules = [{"id": f"house.b{i}", "when": f"coins == {100 + i}", "then": {"stop": "x"}}
             for i in range(3_000)]
    (tmp_path / "house.yaml").write_text(yaml.safe_dump(
        {"pack": "toy", "procedure": "turn", "salience": 10, "rules": rules}))
    pack = load_pack(TOY_PACKS, "toy", [tmp_path])
    packer = Packer("evaluate", "full", frozenset(), register=False)
    for rank, rule in enumerate(pack.pages["turn"].ordered(), start=1):
        packer.add("turn", rank, rule)
    assert len(packer.finish().rulesets) == 2


def test_the_rules_limit_counts_alternatives_in_lint_and_decide_alike(run, tmp_path):
    either = " or ".join(f"material == {100 + i}" for i in range(64))
    rules = tuple(stop(f"house.b{i}", f"power == {i} and ({either})") for i in range(30))
    snapshot, folder = write(Case("wide", "", 5, False, rules), tmp_path)
    words = ("rules compiled, each alternative of a condition counted as one",
             "exceeds the limit rules = 2,000")
    refused(run("--limit", "rules=2000", "decide", snapshot, "--rules", folder), *words)
    linted = run("--limit", "rules=2000", "rules", "lint", "--pack", "arcs", "--rules", folder)
    assert linted.exit_code == 2 and all(word in linted.stdout for word in words), linted.output
