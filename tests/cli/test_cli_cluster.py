"""`whybot batch --cluster`: on a Dask LocalCluster, the same rows, bytes and order as a local
run; a worker that dies costs only its snapshot; every refusal is one line, exit 2.

The module's cluster runs two single-threaded worker processes, so rows really travel between
processes (pickled both ways), as they do between machines.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pickle
import pty
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from distributed import LocalCluster

from tests.conftest import refused
from whybot.cli.batch import cluster as clustering
from whybot.cli.batch import remote
from whybot.cli.batch.remote import fingerprint
from whybot.engine.errors import WhybotError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "facts" / "examples"
DEMO = EXAMPLES / "arcs" / "demo.yaml"
DEMO_DATA = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
HOUSE = ROOT / "knowledge" / "examples" / "house"


@pytest.fixture(scope="module")
def scheduler():
    """The address of a running two-worker LocalCluster (an "existing scheduler")."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def demo_line(**changes) -> str:
    return json.dumps({**DEMO_DATA, **changes}, ensure_ascii=False)


def inputs(tmp_path: Path) -> list[Path]:
    """A mixed batch: good and bad files, JSONL lines good and bad, includes from a folder
    named with --include-from (one refused), a house-rule snapshot, and the Yellow Scarves
    examples, which include the shipped map."""
    shared, snaps = tmp_path / "shared", tmp_path / "snaps"
    shared.mkdir()
    snaps.mkdir()
    (shared / "ambitions.yaml").write_text(yaml.safe_dump({"ambitions": DEMO_DATA["ambitions"]}))
    without = {k: v for k, v in DEMO_DATA.items() if k != "ambitions"}
    (snaps / "a_included.yaml").write_text(yaml.safe_dump(
        {**without, "include": "../shared/ambitions.yaml"}))
    (snaps / "b_bad.yaml").write_text("pack: arcs\nhand_counter: 2\nbogus: 1\n")
    (snaps / "c_outside.yaml").write_text(yaml.safe_dump({**without, "include": "/etc/hosts"}))
    shutil.copy(DEMO, snaps / "d_demo.yaml")
    (snaps / "e_lines.jsonl").write_text("\n".join([
        json.dumps({**without, "include": "../shared/ambitions.yaml"}),
        '{"pack": "arcs", "hand_counter": "x"}', '{"pack": "arcs",', demo_line(name="n4"),
    ]) + "\n")
    return [snaps, EXAMPLES / "arcs" / "house_hoarder.yaml", EXAMPLES / "yellow_scarves"]


def batch_both(run, tmp_path: Path, address: str, paths: list[Path], *options: str):
    """The same batch here and on the cluster: (rows here, rows there, result here, there)."""
    done = []
    for name, where in (("here", ()), ("there", ("--cluster", address))):
        out = tmp_path / f"{name}.jsonl"
        done.append((out, run("batch", *paths, "--out", out, *options, *where)))
    (here, local), (there, remote) = done
    return here.read_bytes(), there.read_bytes(), local, remote


def test_a_cluster_batch_writes_the_same_bytes_and_summary_as_a_local_one(run, tmp_path,
                                                                          scheduler):
    here, there, local, remote = batch_both(
        run, tmp_path, scheduler, inputs(tmp_path), "--seed", "5", "--rules", HOUSE,
        "--include-from", tmp_path / "shared", "--json", "--strict")
    assert there == here
    rows = [json.loads(line) for line in there.splitlines()]
    assert len(rows) == 4 + 4 + 1 + len(list((EXAMPLES / "yellow_scarves").glob("*.yaml")))
    by_name = {Path(r["snapshot"]).name: r for r in rows}
    assert by_name["a_included.yaml"]["ok"] and by_name["e_lines.jsonl:1"]["ok"]
    assert "/etc/hosts" in by_name["c_outside.yaml"]["error"]
    assert "unknown fact 'bogus'" in by_name["b_bad.yaml"]["error"]
    assert "hoarder.act1.tax-when-poor" in by_name["house_hoarder.yaml"]["fired"]
    assert local.exit_code == remote.exit_code == 2  # --strict, and some rows are bad
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_limits_and_a_named_pack_travel_to_the_workers(run, tmp_path, scheduler):
    lines = tmp_path / "in.jsonl"
    lines.write_text(demo_line() + "\n" + demo_line(pack="yellow_scarves") + "\n")
    here, there = (run("--limit", "entities=2", "batch", lines, "--pack", "arcs", *where)
                   for where in ((), ("--cluster", scheduler)))
    assert there.exit_code == here.exit_code == 0, there.output
    assert there.stdout == here.stdout
    assert "entities" in json.loads(there.stdout.splitlines()[0])["error"]


def test_odds_are_worked_out_on_the_workers_the_same(run, scheduler):
    paths = (DEMO, EXAMPLES / "sparta_athens" / "raid_tied_siege.yaml")
    here, there = (run("--limit", "odds_runs=5", "batch", *paths, "--odds", *where)
                   for where in ((), ("--cluster", scheduler)))
    assert there.exit_code == here.exit_code == 0, there.output
    assert there.stdout == here.stdout
    demo, raid = (json.loads(line)["odds"] for line in there.stdout.splitlines())
    assert "over the limit odds_runs = 5" in demo["error"] and raid["certain"]


def test_the_plain_reasoner_and_a_house_rule_that_fails_to_load_decide_the_same(run, tmp_path,
                                                                              scheduler):
    broken = tmp_path / "broken"
    broken.mkdir()
    text = (HOUSE / "hoarder.yaml").read_text(encoding="utf-8")
    (broken / "hoarder.yaml").write_text(text.replace("resources < 2", "resourcez < 2"))
    paths = [DEMO, EXAMPLES / "arcs" / "house_hoarder.yaml", EXAMPLES / "yellow_scarves"]
    for options in (("--reasoner", "plain", "--rules", HOUSE), ("--rules", broken)):
        here, there, local, remote = batch_both(run, tmp_path, scheduler, paths, "--seed", "3",
                                                "--force", *options)
        assert remote.exit_code == local.exit_code == 0, remote.output
        assert there == here
    arcs = [json.loads(line) for line in there.splitlines()][:2]
    assert all("unknown name 'resourcez'" in row["error"] for row in arcs)
    assert all(json.loads(line)["ok"] for line in there.splitlines()[2:])


def test_workers_unpickle_engines_and_nothing_else():
    with pytest.raises(pickle.UnpicklingError, match="only whybot's own classes, not posix"):
        remote._engines("digest", pickle.dumps({"arcs": os.getcwd}))


def test_a_diff_on_the_cluster_writes_the_same_bytes_and_summary(run, tmp_path, scheduler):
    here, there, local, remote = batch_both(
        run, tmp_path, scheduler, inputs(tmp_path), "--seed", "5", "--diff", HOUSE,
        "--include-from", tmp_path / "shared", "--json", "--odds")
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert there == here
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    rows = {Path(r["snapshot"]).name: r for r in map(json.loads, there.splitlines())}
    assert rows["house_hoarder.yaml"]["changed"] and rows["a_included.yaml"]["ok"]
    assert not rows["d_demo.yaml"]["changed"] and not rows["b_bad.yaml"]["ok"]
    assert "'hoarder' is not one of" in rows["house_hoarder.yaml"]["base"]["error"]
    assert rows["house_hoarder.yaml"]["overlay"]["odds"]["certain"]


def test_cluster_local_starts_its_own_workers(run, tmp_path):
    files = sorted((EXAMPLES / "arcs").glob("*.yaml"))[:8]
    here, there, local, remote = batch_both(run, tmp_path, "local", files, "--seed", "7",
                                            "--jobs", "1")
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert there == here and here.count(b"\n") == 8


def test_a_snapshot_that_kills_its_worker_is_an_error_row_and_the_batch_goes_on(run, tmp_path):
    folder = tmp_path / "snaps"
    folder.mkdir()
    for index in range(6):
        shutil.copy(DEMO, folder / f"a{index}.yaml")
    (folder / "b_poison.yaml").write_text(yaml.safe_dump({**DEMO_DATA, "name": "poison pill"}))
    shutil.copy(EXAMPLES / "arcs" / "pass.yaml", folder / "c_pass.yaml")
    preload = Path(__file__).with_name("crash_preload.py")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.CRITICAL, preload=[str(preload)],
                      scheduler_kwargs={"allowed_failures": 0}) as crashing:
        result = run("batch", folder, "--seed", "7", "--cluster", crashing.scheduler_address)
    assert result.exit_code == 1, result.output  # an engine fault, as with --jobs
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    local = [json.loads(line) for line in run("batch", folder, "--seed", "7").stdout.splitlines()]
    assert [r["snapshot"] for r in rows] == [r["snapshot"] for r in local]
    poison = rows.pop(6)
    assert poison == {"snapshot": str(folder / "b_poison.yaml"), "ok": False, "fault": True,
                      "error": "engine fault: the worker process deciding it died (a Dask "
                               "worker, each time Dask ran it)",
                      "input_sha256": local[6]["input_sha256"]}  # for --resume
    assert rows == local[:6] + local[7:]


def test_a_stopped_cluster_batch_keeps_whole_rows_and_resume_finishes_it(run, tmp_path,
                                                                        scheduler):
    lines = tmp_path / "many.jsonl"
    lines.write_text("".join(demo_line(name=f"n{i}") + "\n" for i in range(300)))
    out, partial = tmp_path / "out.jsonl", tmp_path / "out.jsonl.partial"
    command = [sys.executable, "-m", "whybot.cli", "batch", str(lines), "--out", str(out),
               "--cluster", scheduler]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120  # only a guard against waiting forever
    while not (partial.exists() and partial.stat().st_size > 0) and process.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # the whole group, as Ctrl-C at a terminal does
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert stderr.strip().count("\n") == 0 and "--resume" in stderr
    kept = partial.read_bytes()
    assert kept.endswith(b"\n")
    assert [json.loads(line)["snapshot"] for line in kept.splitlines()] == [
        f"{lines}:{n}" for n in range(1, kept.count(b"\n") + 1)]
    resumed = subprocess.run([*command, "--resume"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert run("batch", lines, "--out", tmp_path / "fresh.jsonl").exit_code == 0
    assert out.read_bytes() == (tmp_path / "fresh.jsonl").read_bytes()


def test_on_a_terminal_the_progress_line_names_the_cluster(tmp_path, scheduler):
    files = sorted((EXAMPLES / "arcs").glob("*.yaml"))[:8]
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "whybot.cli", "batch", *map(str, files),
                               "--out", str(tmp_path / "out.jsonl"), "--cluster", scheduler],
                              stderr=follower, stdout=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(follower)
    shown = b""
    with contextlib.suppress(OSError):  # EIO once the terminal has nothing more
        while chunk := os.read(leader, 65536):
            shown += chunk
    os.close(leader)
    assert done.returncode == 0, shown
    assert f"deciding on {scheduler}".encode() in shown and b"/ 8 snapshots" in shown


def test_an_unreachable_scheduler_is_one_line_exit_2(run, monkeypatch):
    monkeypatch.setenv(clustering.TIMEOUT, "0.5")
    refused(run("batch", DEMO, "--cluster", "tcp://127.0.0.1:1"),
            "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 0.5 s")
    refused(run("batch", DEMO, "--cluster", "127.0.0.1"), "not a scheduler address",
            "missing port")
    monkeypatch.setenv(clustering.TIMEOUT, "soon")
    refused(run("batch", DEMO, "--cluster", "tcp://127.0.0.1:1"),
            "WHYBOT_CLUSTER_TIMEOUT takes a number of seconds")


def test_without_dask_the_cluster_option_says_to_install_the_extra(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    refused(run("batch", DEMO, "--cluster", "local"), "needs Dask",
            "pip install 'whybot[cluster]'")


def test_jobs_with_a_cluster_address_is_refused_saying_what_it_means(run):
    refused(run("batch", DEMO, "--cluster", "tcp://127.0.0.1:1", "--jobs", "4"),
            "--jobs sets the number of workers on this machine", "--cluster local --jobs N")


class _Client:
    """A Client stand-in whose scheduler and workers answer the fingerprint as given."""

    def __init__(self, workers: dict, scheduler: object = None) -> None:
        self.workers = workers
        self.scheduler = fingerprint() if scheduler is None else scheduler

    def wait_for_workers(self, count: int, timeout: float) -> None:
        if not self.workers:
            raise TimeoutError

    def run_on_scheduler(self, function, callback_timeout: float | None = None):
        if isinstance(self.scheduler, Exception):
            raise self.scheduler
        return self.scheduler

    def run(self, function, on_error: str, callback_timeout: float | None = None):
        return self.workers


NO_WHYBOT = ModuleNotFoundError("No module named 'whybot'")


@pytest.mark.parametrize(("workers", "scheduler", "words"), [
    ({"tcp://w:1": NO_WHYBOT}, None,
     ("worker tcp://w:1 cannot run whybot: No module named 'whybot'",
      "pip install 'whybot[cluster]==")),
    ({"tcp://w:1": fingerprint()}, NO_WHYBOT, ("scheduler at tcp://s:1 cannot run whybot",)),
    ({"tcp://w:1": {**fingerprint(), "source": "0123456789ab"}}, None,
     ("worker tcp://w:1 has source 0123456789ab, this machine", "same whybot")),
    ({"tcp://w:1": {**fingerprint(), "packs": ["arcs"]}}, None,
     ("worker tcp://w:1 has packs ['arcs']",)),
], ids=["worker without whybot", "scheduler without whybot", "other whybot", "other packs"])
def test_a_machine_without_this_whybot_is_named_before_any_row(workers, scheduler, words):
    cluster = clustering.Cluster(_Client(workers, scheduler), "tcp://s:1", 1)
    with pytest.raises(WhybotError) as caught:
        cluster.check_workers()
    for word in words:
        assert word in str(caught.value)


def test_a_scheduler_without_workers_is_refused():
    with pytest.raises(WhybotError, match=r"has no workers .*dask worker tcp://s:1"):
        clustering.Cluster(_Client({}), "tcp://s:1", 1).check_workers()
