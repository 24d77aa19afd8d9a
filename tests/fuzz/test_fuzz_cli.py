"""Issue 8's fuzz suite: malformed snapshots, JSONL lines and house-rule files, through `decide`,
`batch` and `rules lint --rules DIR` in the CLI's own process, and a sample in subprocesses.

For every case: exit 0 or 2 only, no traceback, no signal death, short printable lines, bounded
time and memory (`conftest.check_case`). The default run makes a little over 10,000 cases in
about a minute; `--fuzz-long` or WHYBOT_FUZZ_LONG=1 makes ten times as many.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whybot.cli.common import pack_for
from whybot.engine.language.pack import FieldSpec

from .conftest import CASE_SECONDS, TALLY, check_case, check_output
from .corpus import (
    ROOT,
    SNAPSHOT_FAMILIES,
    Case,
    deep_condition,
    jsonl_line,
    many_entities,
    rule_file,
)

DECIDE_CASES = {"huge": 40}  # a huge case takes up to a second to refuse: fewer of them
DECIDE_PER_FAMILY = 260
JSONL_BATCHES = 5
JSONL_LINES = 1_100
FOLDER_FILES = 300
LINT_CASES = 500
HYPOTHESIS_EXAMPLES = 300
SUBPROCESS_MEGABYTES = 4_096  # address space a subprocess case may use before it fails


def rng_for(family: str, number: int) -> random.Random:
    return random.Random(f"{family}/{number}")


@pytest.mark.parametrize("family", sorted(SNAPSHOT_FAMILIES))
def test_any_snapshot_file_decides_or_is_refused_in_one_line(cli, scale, tmp_path, family):
    generate = SNAPSHOT_FAMILIES[family]
    for number in range(DECIDE_CASES.get(family, DECIDE_PER_FAMILY) * scale):
        case = generate(rng_for(family, number))
        path = case.write(tmp_path / str(number))
        check_case(cli, [*case.options, "decide", path, "--seed", "1"], "decide",
                   f"decide {family} #{number}")


def _batch_rows(text: str, lines: int, label: str) -> None:
    rows = [json.loads(line) for line in text.splitlines()]
    assert len(rows) == lines, label
    for row in rows:
        assert set(row) >= {"snapshot", "ok"}, label
        assert not row.get("fault"), f"{label}: {row['snapshot']}: {row.get('error')}"
        if not row["ok"]:
            check_output(row["error"], label)
            assert len(row["error"].splitlines()) == 1, label
        TALLY.rows["ok" if row["ok"] else "error"] += 1


@pytest.mark.parametrize("batch", range(JSONL_BATCHES))
def test_any_jsonl_line_is_a_row_and_the_batch_goes_on(cli, scale, tmp_path, batch):
    rng = rng_for("jsonl", batch)
    lines = [jsonl_line(rng) for _ in range(JSONL_LINES * scale)]
    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    options = [["--jobs", "2"], ["--seed", "3"], [], [], []][batch]
    limits = ["--limit", "line_bytes=2000"] if batch == 2 else []
    label = f"batch jsonl #{batch} {' '.join(limits + options)}"
    result = check_case(cli, [*limits, "batch", path, "--json", *options], "batch", label,
                        cases=len(lines))
    assert result.exit_code == 0, label
    _batch_rows(result.stdout, sum(1 for line in lines if line.strip()), label)


def test_any_folder_of_snapshot_files_is_a_row_each(cli, scale, tmp_path):
    folder = tmp_path / "snapshots"
    families = sorted(SNAPSHOT_FAMILIES)
    for number in range(FOLDER_FILES * scale):
        family = families[number % len(families)]
        SNAPSHOT_FAMILIES[family](rng_for(f"folder-{family}", number)).write(
            folder / f"{number:05d}")
    out = tmp_path / "rows.jsonl"
    result = check_case(cli, ["batch", folder, "--out", out, "--json", "--jobs", "2"], "batch",
                        "batch folder", cases=FOLDER_FILES * scale)
    assert result.exit_code == 0
    _batch_rows(out.read_text(encoding="utf-8"), json.loads(result.stdout)["snapshots"],
                "batch folder")


def test_any_house_rule_file_lints_or_is_refused_with_file_and_line(cli, scale, tmp_path):
    for number in range(LINT_CASES * scale):
        case = rule_file(rng_for("rules", number))
        case.write(tmp_path / str(number))
        result = check_case(cli, ["rules", "lint", "--pack", "toy", "--rules",
                                  tmp_path / str(number)], "lint", f"lint rule-file #{number}")
        if result.exit_code == 2:
            assert "house.yaml" in result.output, f"lint #{number}: {result.output[:500]}"


def test_a_deeply_parenthesised_condition_is_refused_in_one_line(cli, tmp_path):
    for number in range(3):
        deep_condition(rng_for("deep-condition", number)).write(tmp_path / str(number))
        check_case(cli, ["rules", "lint", "--pack", "toy", "--rules", tmp_path / str(number)],
                   "lint", f"lint deep-condition #{number}")


# --- hypothesis: structured snapshots from the arcs fact schema ---------------------------------

ANY = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
                st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4),
                                                                     st.integers(), max_size=2))


def _value(spec: FieldSpec) -> st.SearchStrategy[Any]:
    typed = {"integer": st.integers(-3, 12), "number": st.floats(-5, 50),
             "boolean": st.booleans(),
             "string": st.sampled_from(spec.enum) if spec.enum else st.text(max_size=12)}
    return st.one_of(typed[spec.type], typed[spec.type], typed[spec.type], ANY)


def snapshots() -> st.SearchStrategy[dict[str, Any]]:
    """arcs snapshots: mostly the right fields with the right types, now and then not."""
    facts = pack_for("arcs").facts
    board = {n: _value(s) for n, s in facts.board.items()}
    entities = {e.key: st.lists(st.fixed_dictionaries({}, optional={
        n: _value(s) for n, s in e.fields.items()}), max_size=3)
        for e in facts.entities.values() if not e.created}
    answers = st.dictionaries(st.sampled_from(sorted(facts.judgments)),
                              st.one_of(st.booleans(), ANY), max_size=3)
    return st.builds(lambda b, e, a, extra: {"pack": "arcs", **b, **e, "answers": a, **extra},
                     st.fixed_dictionaries({}, optional=board),
                     st.fixed_dictionaries({}, optional=entities), answers,
                     st.dictionaries(st.sampled_from(["bogus", "dice", "include", "name"]), ANY,
                                     max_size=1))


def test_any_structured_snapshot_decides_or_is_refused(cli, scale, tmp_path):
    path = tmp_path / "snapshot.json"
    count = iter(range(10**9))

    @settings(max_examples=HYPOTHESIS_EXAMPLES * scale, deadline=None, derandomize=True,
              database=None, suppress_health_check=list(HealthCheck))
    @given(snapshots())
    def one(data: dict[str, Any]) -> None:
        path.write_text(json.dumps(data), encoding="utf-8")
        check_case(cli, ["decide", path, "--seed", "2"], "decide",
                   f"decide hypothesis #{next(count)}")

    one()


# --- a sample in subprocesses: the real entry point, no signal death, bounded memory ----------


# A whole process: Python's start, the imports, and for `--jobs 2` two workers of its own, on a
# machine that may be busy with other work — still far below what a hang takes.
PROCESS_SECONDS = 3 * CASE_SECONDS


def _limit_memory() -> None:
    size = SUBPROCESS_MEGABYTES * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def run_process(args: list[str | Path], label: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m whybot.cli ARGS` with bounded memory and time; issue 8's promises checked."""
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "whybot.cli", *map(str, args)], cwd=cwd,
                              capture_output=True, text=True, errors="backslashreplace",
                              timeout=PROCESS_SECONDS, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        TALLY.add("subprocess", "timeout", PROCESS_SECONDS, label)
        pytest.fail(f"{label}: still running after {PROCESS_SECONDS} s")
    TALLY.add("subprocess", done.returncode, time.perf_counter() - start, label)
    assert done.returncode >= 0, f"{label}: killed by signal {-done.returncode}"
    assert done.returncode in (0, 2), f"{label}: exit {done.returncode}: {done.stderr[-800:]}"
    if "batch" in args:  # rows are long; their errors are checked one by one
        check_output(done.stderr, label)
        for row in map(json.loads, done.stdout.splitlines()):
            check_output(row.get("error") or "", label)
    else:
        check_output(done.stdout + done.stderr, label)
    return done


SAMPLE = ["valid", "aliases", "deep", "non-utf8", "surrogates", "includes", "tags", "huge"]


def test_a_sample_in_subprocesses_exits_0_or_2_without_signal_death(scale, tmp_path):
    for number in range(scale):
        for family in SAMPLE:
            case = SNAPSHOT_FAMILIES[family](rng_for(f"process-{family}", number))
            path = case.write(tmp_path / f"{family}-{number}")
            run_process([*case.options, "decide", path], f"subprocess decide {family} #{number}",
                        tmp_path)
        rng = rng_for("process-jsonl", number)
        lines = tmp_path / f"lines-{number}.jsonl"
        lines.write_bytes(b"\n".join(jsonl_line(rng) for _ in range(200)) + b"\n")
        run_process(["batch", lines, "--jobs", "2", "--json"], f"subprocess batch #{number}",
                    tmp_path)
        house = tmp_path / f"house-{number}"
        text = (ROOT / "knowledge" / "examples" / "house" / "hoarder.yaml").read_bytes()
        cut = rng_for("process-house", number).randrange(len(text))
        Case("rule-file", text[:cut], name="hoarder.yaml").write(house)
        run_process(["rules", "lint", "--rules", house], f"subprocess lint #{number}", tmp_path)
        run_process(["decide", ROOT / "facts" / "examples" / "arcs" / "house_hoarder.yaml",
                     "--rules", house], f"subprocess decide --rules #{number}", tmp_path)


def test_a_snapshot_with_many_entities_is_decided_or_refused_in_bounded_time(scale, tmp_path):
    for number in range(scale):
        case = many_entities(rng_for("many-entities", number))
        run_process(["decide", case.write(tmp_path / str(number)), "--seed", "1"],
                    f"subprocess decide many-entities #{number}", tmp_path)
