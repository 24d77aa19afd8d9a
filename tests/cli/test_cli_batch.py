"""`whybot batch`: folders, JSONL, error rows that do not stop the batch, --out, coverage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"


def rows_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def folder_with_one_bad_file(tmp_path: Path) -> Path:
    folder = tmp_path / "snaps"
    (folder / "deeper").mkdir(parents=True)
    shutil.copy(DEMO, folder / "a_demo.yaml")
    shutil.copy(DEMO, folder / "deeper" / "c_demo.yml")
    (folder / "b_bad.yaml").write_text("pack: arcs\nhand_counter: 2\nbogus: 1\n")
    (folder / "ignored.txt").write_text("not a snapshot")
    return folder


def test_a_bad_file_in_a_folder_becomes_an_error_row_and_the_batch_goes_on(run, tmp_path):
    folder = folder_with_one_bad_file(tmp_path)
    result = run("batch", folder, "--seed", "7")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert [Path(r["snapshot"]).name for r in rows] == ["a_demo.yaml", "b_bad.yaml",
                                                       "c_demo.yml"]
    good, bad, deeper = rows
    assert good["ok"] and deeper["ok"] and not bad["ok"]
    assert "b_bad.yaml:3" in bad["error"] and "unknown fact 'bogus'" in bad["error"]
    assert good["result"] == "decided" and good["error"] is None
    assert good["fired"] and good["card"] is not None
    assert good["fired"] == deeper["fired"]
    assert "never fired" in result.stderr  # the summary goes to stderr when rows go to stdout
    assert "Traceback" not in result.output


def test_jsonl_lines_are_snapshots_named_file_colon_line(run, tmp_path):
    import yaml

    demo = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    lines = tmp_path / "many.jsonl"
    lines.write_text("\n".join([json.dumps(demo), "", '{"pack": "arcs", "hand_counter": "x"}',
                                '{"pack": "arcs", "hand_counter": 0}', '{"pack": "arcs",']) + "\n")
    result = run("batch", lines)
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert [r["snapshot"].rsplit("/", 1)[-1] for r in rows] == [
        "many.jsonl:1", "many.jsonl:3", "many.jsonl:4", "many.jsonl:5"]
    assert rows[0]["ok"]
    assert not rows[1]["ok"] and "many.jsonl:3" in rows[1]["error"]
    assert rows[2]["ok"] and rows[2]["result"] == "pass"
    assert not rows[3]["ok"] and "not valid JSON" in rows[3]["error"]


def test_out_is_never_overwritten_without_force(run, tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_text("precious\n")
    result = run("batch", DEMO, "--out", out)
    assert result.exit_code == 2
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "precious\n"
    result = run("batch", DEMO, "--out", out, "--force")
    assert result.exit_code == 0, result.output
    assert rows_of(out.read_text())[0]["ok"]
    assert "decided" in result.stdout  # with --out, the summary goes to stdout


def test_a_batch_never_reads_its_own_output_file(run, tmp_path):
    folder = folder_with_one_bad_file(tmp_path)
    out = folder / "results.jsonl"
    assert run("batch", folder, "--out", out).exit_code == 0
    assert run("batch", folder, "--out", out, "--force").exit_code == 0
    assert len(rows_of(out.read_text())) == 3


def test_the_json_summary_counts_results_and_lists_rules_that_never_fired(run, tmp_path):
    folder = folder_with_one_bad_file(tmp_path)
    result = run("batch", folder, "--out", tmp_path / "r.jsonl", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["snapshots"], summary["decided"], summary["errors"]) == (3, 2, 1)
    coverage, never = summary["coverage"]["arcs"], summary["never_fired"]["arcs"]
    assert coverage["bot_turn.draw"] == 2
    assert "bot_turn.draw" not in never
    assert set(never) == {rule for rule, count in coverage.items() if count == 0}


def test_strict_exits_2_when_any_snapshot_was_bad(run, tmp_path):
    folder = folder_with_one_bad_file(tmp_path)
    assert run("batch", folder, "--strict", "--out", tmp_path / "r.jsonl").exit_code == 2


def test_parallel_jobs_give_the_same_rows_in_the_same_order(run, tmp_path):
    folder = folder_with_one_bad_file(tmp_path)
    for index in range(6):
        shutil.copy(DEMO, folder / f"more_{index}.yaml")
    serial = run("batch", folder, "--seed", "5").stdout
    parallel = run("batch", folder, "--seed", "5", "--jobs", "2").stdout
    assert rows_of(parallel) == rows_of(serial)


def test_derivations_of_entity_fields_count_as_fired_in_coverage(run, tmp_path):
    """A rule that judges a field of an entity (a region's `least`) counts for coverage when
    the decision read that field."""
    example = ROOT / "facts" / "examples" / "sparta_athens" / "objective_sparta_army.yaml"
    result = run("batch", example, "--out", tmp_path / "r.jsonl", "--json")
    assert result.exit_code == 0, result.output
    row, = rows_of((tmp_path / "r.jsonl").read_text())
    assert {"target.least-altered", "target.candidate-army"} <= set(row["derived_by"])
    assert "target.least-altered" not in json.loads(result.stdout)["never_fired"]["sparta_athens"]


def test_the_plain_reasoner_gives_the_same_rows_as_the_rule_engine(run):
    examples = ROOT / "facts" / "examples"
    durable = run("batch", examples, "--seed", "3")
    plain = run("batch", examples, "--seed", "3", "--reasoner", "plain")
    assert durable.exit_code == plain.exit_code == 0, plain.output
    assert rows_of(durable.stdout) == rows_of(plain.stdout)
    assert len(rows_of(plain.stdout)) >= 30


def test_an_unknown_reasoner_is_refused_with_a_suggestion(run):
    result = run("batch", DEMO, "--reasoner", "plan")
    assert result.exit_code == 2
    assert "did you mean 'plain'?" in result.output


def test_the_summary_names_a_few_unfired_rules_per_page_and_json_lists_them_all(run):
    """One snapshot leaves most of the pack unfired: the terminal shows every page, a few of
    its rules by name and how many more; --json keeps every rule."""
    demo = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"
    text = run("batch", demo, "--seed", "7").stderr
    assert "construction" in text and "… and 8 more (--json)" in text  # 12 rules, none fired
    assert "cons.repair-any" not in text  # the 11th of them
    summary = json.loads(run("batch", demo, "--seed", "7", "--json").stderr)
    assert summary["coverage"]["arcs"]["cons.repair-any"] == 0


def test_rows_are_decided_with_the_collector_run_seldom_and_its_thresholds_put_back(
        run, monkeypatch):
    import gc

    from whybot.cli.batch import run as batching

    seen = []
    decide = batching.decide_item
    monkeypatch.setattr(batching, "decide_item",
                        lambda item: seen.append(gc.get_threshold()) or decide(item))
    before = gc.get_threshold()
    result = run("batch", DEMO, DEMO)
    assert result.exit_code == 0, result.output
    assert [row["ok"] for row in rows_of(result.stdout)] == [True, True]
    assert seen == [batching.COLLECT_AFTER] * 2 != [before] * 2
    assert gc.get_threshold() == before
