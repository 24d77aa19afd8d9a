"""The summary `whybot batch` prints (tables, `--json`, `--diff`) is, to the character, what
rich prints for the same summary: written directly when there is nothing to colour."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console, Group

from whybot.cli.batch.diffsummary import DiffSummary, diff_summary_parts
from whybot.cli.batch.summary import Summary, summary_parts
from whybot.cli.tables import plain_text

ROOT = Path(__file__).resolve().parents[2]
ARCS = ROOT / "facts" / "examples" / "arcs"
SNAPSHOTS = [ARCS / "demo.yaml", ARCS / "pass.yaml", ARCS / "actions_two.yaml",
             ROOT / "facts" / "examples" / "sparta_athens"]
TAX_FIRST = ROOT / "knowledge" / "examples" / "tax_first"


def rich_console() -> Console:
    """A console as the batch makes it (the same width, found the same way), into a string."""
    return Console(file=io.StringIO(), highlight=False, markup=False, emoji=False)


def printed_by_rich(parts: list) -> str:
    shown = rich_console()
    shown.print(Group(*(part.as_rich() for part in parts)))
    return shown.file.getvalue()  # type: ignore[attr-defined]


def summed(kind: type, out: Path):
    summary = kind()
    for line in out.read_text(encoding="utf-8").splitlines():
        summary.add(json.loads(line))
    return summary


def test_the_summary_tables_are_the_text_rich_prints_for_them(run, tmp_path):
    out = tmp_path / "rows.jsonl"
    result = run("batch", *SNAPSHOTS, "--seed", "7", "--out", out)
    assert result.exit_code == 0, result.output
    summary = summed(Summary, out)
    assert {"arcs", "sparta_athens"} <= set(summary.fired)
    assert plain_text(rich_console(), summary_parts(summary, ())) is not None  # not rich's
    assert result.stdout == printed_by_rich(summary_parts(summary, ()))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("batch") and f"│ {summary.snapshots:>9} │" in lines[4]
    assert any(line.startswith("rule coverage (sparta_athens)") for line in lines)
    assert any(line.startswith("never fired (") for line in lines)
    assert "… and" in result.stdout  # a page's unfired ids beyond the first few


def test_with_rows_on_stdout_the_same_summary_goes_to_stderr(run, tmp_path):
    result = run("batch", ARCS / "demo.yaml", "--seed", "7")
    assert result.exit_code == 0, result.output
    out = tmp_path / "rows.jsonl"
    out.write_text(result.stdout, encoding="utf-8")
    assert result.stderr == printed_by_rich(summary_parts(summed(Summary, out), ()))


def test_the_json_summary_is_the_text_rich_prints_for_it(run, tmp_path):
    out = tmp_path / "rows.jsonl"
    result = run("batch", *SNAPSHOTS, "--seed", "7", "--out", out, "--json")
    assert result.exit_code == 0, result.output
    data = summed(Summary, out).as_dict(())
    shown = rich_console()
    shown.print_json(json.dumps(data, ensure_ascii=False))
    assert result.stdout == shown.file.getvalue()  # type: ignore[attr-defined]
    assert json.loads(result.stdout) == data


def test_the_diff_summary_is_the_text_rich_prints_for_it(run, tmp_path):
    out = tmp_path / "diff.jsonl"
    result = run("batch", ARCS / "demo.yaml", ARCS / "pass.yaml", "--seed", "7",
                 "--diff", TAX_FIRST, "--out", out)
    assert result.exit_code == 0, result.output
    summary = summed(DiffSummary, out)
    assert summary.changed == 1
    assert result.stdout == printed_by_rich(diff_summary_parts(summary))
    assert "house.tax-when-broke │       1 │ not in these rules → fired" in result.stdout
