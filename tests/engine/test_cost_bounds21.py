"""Issue 21, items 5 and 6: costly house rules within the documented limits decide, or are
refused in one line naming the limit (exit 2), and `rules lint` says what `decide` would.

The cases are those of `benchmarks/worst_cases.py` (an Arcs snapshot and a house-rule folder),
run through the CLI in this process; the benchmark measures their time and memory.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchmarks.worst_cases import CASES, Case, alternatives, stop, write
from tests.conftest import refused
from whybot.cli.app import app


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
    assert f"error: {decided.removeprefix('error: ')}".split(" (split")[0] in linted.stdout


def test_lint_passes_what_decide_decides(run, tmp_path):
    _, rules = write(CASES["or64join"], tmp_path)
    linted = run("rules", "lint", "--pack", "arcs", "--rules", rules)
    assert linted.exit_code == 0, linted.output
