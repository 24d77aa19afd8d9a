"""The `whybot` process ends without taking its heap apart (`app._leave`), yet as `sys.exit`
would: the same exit code, every line written, and exit handlers run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"

# the console entry point, with an exit handler registered as a library would
_ENTRY = ("import atexit, sys; from whybot.cli.app import main; "
          "atexit.register(lambda: print('handler ran', file=sys.stderr)); "
          "sys.argv[0] = 'whybot'; main()")


def _whybot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _ENTRY, *args], capture_output=True,
                          text=True, timeout=300)


def test_a_batch_writes_every_row_and_its_summary_runs_exit_handlers_and_exits_0():
    done = _whybot("batch", str(DEMO), str(DEMO), "--json")
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert [json.loads(row)["ok"] for row in rows] == [True, True]
    assert json.loads(done.stderr.partition("\nhandler ran")[0])["decided"] == 2
    assert done.stderr.endswith("handler ran\n")


def test_bad_input_still_exits_2_with_its_one_line(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("pack: arcs\nboard: [unclosed\n", encoding="utf-8")
    done = _whybot("decide", str(broken))
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "broken.yaml" in done.stderr
    assert done.stderr.endswith("handler ran\n")


def test_a_strict_batch_with_a_bad_row_exits_2(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("pack: arcs\nboard: [unclosed\n", encoding="utf-8")
    done = _whybot("batch", str(broken), "--strict", "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout)["ok"] is False


def test_a_batch_written_to_a_file_holds_every_row_when_the_process_ends(tmp_path):
    """Rows go to `-o` through a file the batch closes before the process ends without
    Python's usual shutdown: none is left in a buffer."""
    out = tmp_path / "rows.jsonl"
    done = _whybot("batch", *[str(DEMO)] * 5, "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 5 and all(json.loads(row)["ok"] for row in rows)
