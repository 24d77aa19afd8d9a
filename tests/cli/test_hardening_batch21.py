"""Issue 21, hardening round two, `whybot batch`: the same rows on a cluster (a snapshot's
`variant:`), output that never replaces a special file or an input, --resume that notices an
edited input, a scheduler that never answers, and an --out name too long for its `.partial`.

Every refusal is one line naming the file or option, exit 2, no traceback.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import socket
import stat
import threading
import time
import warnings
from pathlib import Path

import pytest
import yaml

from tests.conftest import refused
from whybot.cli.batch import run as batching

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "facts" / "examples"
DEMO = EXAMPLES / "arcs" / "demo.yaml"
DEMO_DATA = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
VARIANTS = EXAMPLES / "arcs" / "variants"
TAX_FIRST = ROOT / "knowledge" / "examples" / "tax_first"


def card_of(out: Path, paths: list[Path]) -> None:
    """The run card an interrupted batch of `paths` would have left beside OUT.partial."""
    Path(f"{out}.partial.run").write_text(json.dumps(batching.Request(paths=paths).run_card()))


def demo_line(**changes) -> str:
    return json.dumps({**DEMO_DATA, **changes}, ensure_ascii=False)


# --- item 1: a snapshot's `variant:` on a cluster ---------------------------------------------


@pytest.fixture(scope="module")
def scheduler():
    """The address of a running two-worker LocalCluster."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def variant_lines(tmp_path: Path) -> Path:
    """A variant example as one JSON line, and the refusals a `variant:` can meet: a name the
    pack does not ship, and a variant set by an included file (the snapshot's own wins)."""
    example = yaml.safe_load((VARIANTS / "draft_000_bot_round_passes.yaml").read_text())
    (tmp_path / "shared.yaml").write_text(yaml.safe_dump({"variant": "draft-001"}))
    without = {k: v for k, v in DEMO_DATA.items() if k != "variant"}
    lines = tmp_path / "lines.jsonl"
    lines.write_text("\n".join([
        json.dumps(example), demo_line(variant="draft-999"), demo_line(variant="draft-0001"),
        json.dumps({**without, "include": "shared.yaml"}),
        json.dumps({**example, "include": "shared.yaml"}),
    ]) + "\n")
    return lines


def both(run, tmp_path: Path, address: str, *args: str | Path) -> tuple[bytes, bytes]:
    """The rows of one batch decided here and on the cluster."""
    rows = []
    for name, where in (("here", ()), ("there", ("--cluster", address))):
        out = tmp_path / f"{name}.jsonl"
        result = run("batch", *args, "--out", out, *where)
        assert result.exit_code == 0, result.output
        rows.append(out.read_bytes())
    return rows[0], rows[1]


def test_every_example_of_every_pack_and_variant_gives_the_same_bytes_on_a_cluster(
        run, tmp_path, scheduler):
    here, there = both(run, tmp_path, scheduler, EXAMPLES, variant_lines(tmp_path))
    assert here == there
    rows = [json.loads(line) for line in here.splitlines()]
    assert len(rows) == len(list(EXAMPLES.rglob("*.yaml"))) + 5
    assert all(r["ok"] for r in rows if "/variants/" in r["snapshot"])
    errors = [r["error"] for r in rows if r["snapshot"].endswith(("lines.jsonl:2",
                                                                    "lines.jsonl:3"))]
    assert "no variant 'draft-999' of pack 'arcs'" in errors[0]
    assert "draft-000" in errors[1]  # did you mean


def test_a_variant_another_than_the_runs_is_refused_alike_on_a_cluster(run, tmp_path,
                                                                      scheduler):
    here, there = both(run, tmp_path, scheduler, VARIANTS, variant_lines(tmp_path),
                       "--pack", "arcs", "--variant", "draft-001")
    assert here == there
    assert b"this run lays variant 'draft-001' over every snapshot" in here


def test_a_diff_of_variant_snapshots_is_the_same_on_a_cluster_and_quiet(run, tmp_path,
                                                                         scheduler):
    # both sides' engines travel with every variant's: a large blob, by design, sent once
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        here, there = both(run, tmp_path, scheduler, VARIANTS, "--pack", "arcs", "--diff",
                           TAX_FIRST)
    assert here == there
    assert not [w for w in seen if "large graph" in str(w.message)]


# --- item 2: an --out that is not a regular file ---------------------------------------------


def test_a_device_is_written_directly_never_replaced(run):
    for force in ((), ("--force",)):
        assert run("batch", DEMO, "--out", "/dev/null", *force).exit_code == 0
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not os.path.lexists("/dev/null.partial")


def test_a_fifo_gets_the_rows_and_stays_a_fifo(run, tmp_path):
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert run("batch", DEMO, DEMO, "--out", fifo, "--force").exit_code == 0
    reader.join(timeout=60)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [json.loads(line)["ok"] for line in got[0].splitlines()] == [True, True]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.fifo"]


def test_a_folder_a_socket_or_a_path_that_cannot_be_written_is_one_line(run, tmp_path):
    refused(run("batch", DEMO, "--out", tmp_path, "--force"), "--out", "a folder, not a file")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.sock"))
        refused(run("batch", DEMO, "--out", tmp_path / "s.sock", "--force"), "s.sock",
                "neither a file")
    refused(run("batch", DEMO, "--out", "/proc/version", "--force"), "--out",
            "cannot write here")


# --- item 3: never over an input, in a folder or through a link ------------------------------


def folder_of_inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "snaps"
    folder.mkdir()
    (folder / "demo.yaml").write_bytes(DEMO.read_bytes())
    (folder / "lines.jsonl").write_text(demo_line(name="a") + "\n")
    return folder


def test_an_out_inside_an_input_folder_or_linked_to_an_input_is_refused(run, tmp_path):
    folder = folder_of_inputs(tmp_path)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    for name in ("lines.jsonl", "demo.yaml"):
        refused(run("batch", folder, "--out", folder / name, "--force"),
                "would replace the input", name)
    (tmp_path / "link.jsonl").symlink_to(folder / "lines.jsonl")
    refused(run("batch", folder, "--out", tmp_path / "link.jsonl", "--force"),
            "would replace the input", "lines.jsonl")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


@pytest.mark.parametrize("planted", [".partial", ".partial.run"])
def test_a_link_planted_at_a_temp_name_is_never_written_through(run, tmp_path, planted):
    folder = folder_of_inputs(tmp_path)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    out = tmp_path / "out.jsonl"
    Path(f"{out}{planted}").symlink_to(folder / "demo.yaml")
    assert run("batch", folder, "--out", out, "--force").exit_code == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert len(out.read_text().splitlines()) == 2
    assert not os.path.lexists(f"{out}{planted}")


def test_resume_refuses_partial_rows_that_are_a_link(run, tmp_path):
    folder = folder_of_inputs(tmp_path)
    out = tmp_path / "out.jsonl"
    Path(f"{out}.partial").symlink_to(folder / "lines.jsonl")
    card_of(out, [folder])
    refused(run("batch", folder, "--out", out, "--resume"), "--resume", "out.jsonl.partial",
            "cannot read the partial rows")
    assert (folder / "lines.jsonl").read_text() == demo_line(name="a") + "\n"


# --- item 4: --resume and an input edited since its row -------------------------------------


def test_resume_decides_an_edited_input_again_and_says_how_many(run, tmp_path):
    lines = tmp_path / "in.jsonl"
    lines.write_text("".join(demo_line(name=f"n{i}") + "\n" for i in range(5)))
    full = tmp_path / "full.jsonl"
    assert run("batch", lines, "--out", full).exit_code == 0
    rows = full.read_bytes().splitlines(keepends=True)
    out = tmp_path / "out.jsonl"
    Path(f"{out}.partial").write_bytes(b"".join(rows[:4]))
    card_of(out, [lines])
    edited = [demo_line(name=f"n{i}" if i != 1 else "edited") for i in range(5)]
    lines.write_text("".join(line + "\n" for line in edited))
    result = run("batch", lines, "--out", out, "--resume", "--json")
    assert result.exit_code == 0, result.output
    assert "1 snapshot(s) changed since the interrupted run: decided again" in result.stderr
    fresh = tmp_path / "fresh.jsonl"
    assert run("batch", lines, "--out", fresh).exit_code == 0
    assert out.read_bytes() == fresh.read_bytes()
    assert json.loads(out.read_bytes().splitlines()[1])["name"] == "edited"
    assert json.loads(result.stdout)["snapshots"] == 5


def test_each_row_holds_the_digest_of_its_input(run, tmp_path):
    lines = tmp_path / "in.jsonl"
    lines.write_text(demo_line() + "\n")
    out = tmp_path / "out.jsonl"
    assert run("batch", lines, DEMO, "--out", out).exit_code == 0
    line_row, file_row = (json.loads(r) for r in out.read_bytes().splitlines())
    assert line_row["input_sha256"] == hashlib.sha256(demo_line().encode()).hexdigest()
    assert len(file_row["input_sha256"]) == 64


# --- item 13a: an --out name too long for its temp files --------------------------------------


def test_an_out_name_too_long_for_its_temp_files_is_one_line(run, tmp_path):
    refused(run("batch", DEMO, "--out", tmp_path / ("r" * 251)), "--out", "too long",
            "at most 243 bytes")
    longest = tmp_path / ("r" * 243)
    assert run("batch", DEMO, "--out", longest).exit_code == 0
    assert json.loads(longest.read_text())["ok"]


# --- item 12: a listener that accepts and never answers ---------------------------------------


@pytest.fixture()
def silent_listener():
    """tcp://127.0.0.1:PORT of a loopback socket that accepts connections and says nothing."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(server.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(timeout=5)
    for connection in [*held, server]:
        connection.close()


def test_a_scheduler_that_accepts_and_never_answers_is_one_line_in_seconds(
        run, monkeypatch, tmp_path, silent_listener):
    monkeypatch.setenv("WHYBOT_CLUSTER_TIMEOUT", "0.5")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    refused(run("batch", DEMO, "--cluster", silent_listener, "--out", out),
            f"the Dask scheduler at {silent_listener} did not answer within 1 s",
            "WHYBOT_CLUSTER_TIMEOUT")
    assert time.monotonic() - started < 30
    assert list(tmp_path.iterdir()) == []


class _Stalled:
    """A client whose scheduler took it in and then never answers (Dask's `callback_timeout`
    ends the wait with TimeoutError)."""

    def wait_for_workers(self, count: int, timeout: float) -> None:
        pass

    def run_on_scheduler(self, function, callback_timeout: float | None = None):
        assert callback_timeout == 1.5
        raise TimeoutError


def test_a_scheduler_that_never_gives_its_first_answer_is_one_error():
    from whybot.cli.batch import cluster as clustering
    from whybot.engine.errors import WhybotError

    with pytest.raises(WhybotError, match=r"scheduler at tcp://s:1 did not answer within "
                                          r"1\.5 s .*WHYBOT_CLUSTER_TIMEOUT"):
        clustering.Cluster(_Stalled(), "tcp://s:1", 1.5).check_workers()
