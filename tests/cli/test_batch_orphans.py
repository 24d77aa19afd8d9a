"""A `whybot batch --jobs N` killed with SIGKILL (no handler runs, nothing is cleaned up) must
not leave its worker processes behind: each sees its parent go and leaves within seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # in the test extra through dask[distributed]
import yaml

DEMO = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"


def _gone(process: psutil.Process) -> bool:
    """Exited: no longer running, or a zombie waiting for whoever adopted it to reap it."""
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_workers_leave_when_their_parent_is_killed(tmp_path):
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    lines = tmp_path / "many.jsonl"
    lines.write_text("".join(json.dumps({**data, "name": f"n{i}"}) + "\n" for i in range(2000)))
    partial = tmp_path / "out.jsonl.partial"
    parent = subprocess.Popen(
        [sys.executable, "-m", "whybot.cli", "batch", str(lines), "--out",
         str(tmp_path / "out.jsonl"), "--jobs", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # a guard against waiting forever, not a measure
        while not (partial.exists() and partial.stat().st_size > 0) and time.monotonic() < deadline:
            assert parent.poll() is None, "the batch ended before it could be killed"
            time.sleep(0.05)
        workers = psutil.Process(parent.pid).children()
        assert len(workers) == 2
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [w.pid for w in workers if not _gone(w)] == []
    finally:
        os.killpg(parent.pid, signal.SIGKILL)  # whatever is left of the group, if the test failed
