"""Issue 8, input hardening: no snapshot, batch line or house-rule file can crash, hang, leak or
run code; every refusal is one line naming file:line or field path, exit 2, no traceback.

One test (or a few) per finding handled on this branch: 3 (unbounded input), 4 (text the engine
cannot carry), 5 (the file parts: deep nesting, --out into a missing folder), 8 (files:
includes, quoted content, output over input) and 9 (signals, --resume).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.conftest import refused
from whybot.cli.batch import run as batching
from whybot.cli.batch.pool import ordered_map

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
DEMO_DATA = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
BOMB = ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n"
                  for p, c in zip("abcdefgh", "bcdefghi", strict=True)))


def snapshot(tmp_path: Path, text: str | bytes, name: str = "snap.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return path


def demo_line(**changes) -> str:
    return json.dumps({**DEMO_DATA, **changes}, ensure_ascii=False)


def rows_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# --- finding 3: unbounded input ------------------------------------------------------------


def test_a_500_byte_alias_bomb_is_refused_by_yaml_nodes_not_expanded(run, tmp_path):
    assert len(BOMB) < 500
    line = refused(run("decide", snapshot(tmp_path, BOMB)), "snap.yaml:", "yaml_nodes",
                   "--limit yaml_nodes=N")
    assert "aliases expanded" in line


def test_too_many_alias_references_are_refused_by_yaml_aliases(run, tmp_path):
    text = "pack: arcs\nx: &x 1\nl: [" + ", ".join(["*x"] * 101) + "]\n"
    refused(run("decide", snapshot(tmp_path, text)), "snap.yaml:3", "yaml_aliases")


def test_a_file_larger_than_file_bytes_is_refused_before_it_is_read(run):
    refused(run("--limit", "file_bytes=100", "decide", DEMO), "demo.yaml", "file_bytes = 100")


def test_a_text_longer_than_string_chars_is_refused_with_its_line(run, tmp_path):
    text = f"pack: arcs\nname: {'x' * 10_001}\n"
    refused(run("decide", snapshot(tmp_path, text)), "snap.yaml:2", "string_chars")


def test_a_limit_can_be_raised_with_the_global_option(run, tmp_path):
    text = "pack: arcs\nnotes: " + "x" * 12_000 + "\nhand_counter: 0\n"
    refused(run("decide", snapshot(tmp_path, text)), "string_chars")
    assert run("--limit", "string_chars=20000", "decide", snapshot(tmp_path, text)).exit_code == 0
    refused(run("decide", snapshot(tmp_path, text)), "string_chars")  # for that command only


def test_an_unknown_limit_is_one_line_with_a_suggestion(run):
    refused(run("--limit", "file_byte=5", "decide", DEMO), "unknown limit 'file_byte'",
            "did you mean 'file_bytes'?")


def test_an_alias_bomb_house_rule_file_is_refused_by_lint(run, tmp_path):
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "bomb.yaml").write_text(BOMB)
    result = run("rules", "lint", "--rules", folder)
    refused(result, "bomb.yaml:", "yaml_nodes")


# --- finding 4: text the engine cannot carry --------------------------------------------


def test_a_jsonl_surrogate_pair_escape_is_its_character_and_a_lone_one_an_error_row(run,
                                                                                   tmp_path):
    lines = tmp_path / "lines.jsonl"
    pair = demo_line(name="boom").replace('"boom"', '"\\ud83d\\udca5 boom"')
    lone = demo_line(name="boom").replace('"boom"', '"\\ud83d boom"')
    lines.write_text(f"{pair}\n{lone}\n{demo_line(name='after')}\n", encoding="utf-8")
    result = run("batch", lines, "--seed", "7")
    assert result.exit_code == 0, result.output
    first, second, third = rows_of(result.stdout)
    assert first["ok"] and first["name"] == "💥 boom"
    assert not second["ok"] and "lines.jsonl:2" in second["error"]
    assert "lone surrogate \\ud83d" in second["error"]
    assert third["ok"] and third["name"] == "after"


def test_a_yaml_surrogate_pair_escape_decides_and_a_lone_one_names_its_line(run, tmp_path):
    escaped = 'name: "\\\\ud83d\\\\udca5 demo"'  # the JSON escape of 💥, as a user types it
    text = re.sub("^name: .*$", escaped, DEMO.read_text(encoding="utf-8"), flags=re.MULTILINE)
    result = run("decide", snapshot(tmp_path, text), "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "💥 demo" in result.stdout
    lone = "pack: arcs\nhand_counter: 0\nname: \"x \\udca5\"\n"
    refused(run("decide", snapshot(tmp_path, lone, "lone.yaml")), "lone.yaml:3",
            "lone surrogate")


def test_any_valid_utf8_passes_end_to_end(run, tmp_path):
    text = DEMO.read_text(encoding="utf-8").replace("name: demo", "name: Ōrbis — 火星 🪐 demo")
    result = run("decide", snapshot(tmp_path, text), "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    assert "Ōrbis — 火星 🪐" in result.stdout


def test_invalid_utf8_is_one_error_naming_the_line(run, tmp_path):
    path = snapshot(tmp_path, b"pack: arcs\nhand_counter: 0\nname: caf\xe9\n")
    refused(run("decide", path), "snap.yaml:3", "not valid UTF-8", "0xe9")


def test_a_nul_or_control_character_is_one_error_naming_the_line(run, tmp_path):
    refused(run("decide", snapshot(tmp_path, 'pack: arcs\nname: "a\\x00b"\n')), "snap.yaml:2",
            "U+0000")
    refused(run("decide", snapshot(tmp_path, "pack: arcs\n\nname: a\x1bb\n", "raw.yaml")),
            "raw.yaml:3", "U+001B")


def test_a_jsonl_batch_goes_on_past_bad_bytes_bad_json_and_too_long_lines(run, tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_bytes(b"\n".join([
        demo_line().encode(), b'{"pack": "arcs", "name": "caf\xe9"}', b'{"pack": "arcs",',
        b'{"pack": "arcs", "name": "' + b"x" * 7000 + b'"}', b"[" * 3000,
        b'{"pack": "arcs", "hand_counter": ' + b"9" * 5000 + b"}",
        b'{"pack": "arcs", "pack": "arcs"}', demo_line().encode()]) + b"\n")
    result = run("--limit", "line_bytes=6000", "batch", lines, "--seed", "7")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert [r["snapshot"].rsplit(":", 1)[1] for r in rows] == [str(n) for n in range(1, 9)]
    assert rows[0]["ok"] and rows[-1]["ok"]
    errors = [r["error"] for r in rows[1:-1]]
    for error, words in zip(errors, [("lines.jsonl:2", "not valid UTF-8"),
                                     ("lines.jsonl:3", "not valid JSON"),
                                     ("lines.jsonl:4", "line_bytes"),
                                     ("lines.jsonl:5", "depth"),
                                     ("lines.jsonl:6", "not valid JSON"),
                                     ("lines.jsonl:7", "'pack' appears twice")], strict=True):
        assert all(word in error for word in words), error


# --- finding 5, file parts -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, "a:\n" + "".join(
    f"{' ' * n}b:\n" for n in range(1, 200))], ids=["flow", "block"])
def test_deep_nesting_is_refused_by_depth_not_a_recursion_error(run, tmp_path, text):
    refused(run("decide", snapshot(tmp_path, text)), "snap.yaml:", "depth = 40")


def test_out_into_a_missing_folder_is_one_line(run, tmp_path):
    refused(run("batch", DEMO, "--out", tmp_path / "nowhere" / "r.jsonl"), "--out",
            "does not exist")


def test_plain_data_only_no_python_tags_or_dates(run, tmp_path):
    refused(run("decide", snapshot(tmp_path, "pack: arcs\nname: !!python/object:os.system x\n")),
            "snap.yaml:2", "is not allowed")
    refused(run("decide", snapshot(tmp_path, "pack: arcs\nname: 2024-05-01\n", "d.yaml")),
            "d.yaml:2", "!!timestamp", "quote a date")


def test_a_fifo_named_as_a_snapshot_is_refused_not_waited_on(run, tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = run("batch", fifo)
    assert result.exit_code == 0
    (row,) = rows_of(result.stdout)
    assert "not a regular file" in row["error"]


# --- finding 8: files ----------------------------------------------------------------------


def secret_file(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.yaml"
    secret.write_text("hand_counter: 0\nsecret_value: TOP-SECRET-LINE\n")
    return secret


def test_an_include_may_not_leave_the_snapshot_folder(run, tmp_path):
    secret = secret_file(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (home / "link.yaml").symlink_to(secret)
    for include, words in [(str(secret), ("$.include[0]", "is an absolute path")),
                           ("../outside/secret.yaml", ("outside the snapshot's folder",)),
                           ("link.yaml", ("outside the snapshot's folder", "--include-from"))]:
        path = snapshot(home, f"pack: arcs\ninclude: [{include}]\n")
        line = refused(run("decide", path), "snap.yaml:2", *words)
        assert "TOP-SECRET" not in line


def test_include_from_allows_a_named_folder_and_errors_never_quote_included_content(run,
                                                                                   tmp_path):
    secret = secret_file(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    path = snapshot(home, "pack: arcs\ninclude: ../outside/secret.yaml\n")
    result = run("decide", path, "--include-from", secret.parent)
    line = refused(result, "secret.yaml:2", "unknown fact 'secret_value'")
    secret.write_text("hand_counter: 0\nnotes: !secret TOP-SECRET-LINE\n")
    line = refused(run("decide", path, "--include-from", secret.parent), "secret.yaml:2",
                   "is not allowed")
    assert "TOP-SECRET" not in line and "!secret" not in line


def test_include_cycles_and_repeats_stay_refused(run, tmp_path):
    refused(run("decide", snapshot(tmp_path, "pack: arcs\ninclude: snap.yaml\n")),
            "snap.yaml:1", "without its own include")
    (tmp_path / "map.yaml").write_text("hand_counter: 0\n")
    refused(run("decide", snapshot(tmp_path, "pack: arcs\ninclude: [map.yaml, ./map.yaml]\n",
                                   "twice.yaml")), "twice.yaml:2", "included twice")


def test_the_shipped_examples_still_include_the_shipped_map(run):
    example = ROOT / "facts" / "examples" / "yellow_scarves" / "turn_round1_invade.yaml"
    assert run("decide", example).exit_code == 0


def test_an_error_quotes_at_most_a_short_escaped_excerpt(run, tmp_path):
    value = "v" * 9000
    line = refused(run("decide", snapshot(tmp_path, f"pack: arcs\nhand_counter: {value}\n")),
                   "snap.yaml:2", "$.hand_counter", "vvvv…")
    assert len(line) < 600


def test_a_line_break_in_the_users_text_is_escaped_so_an_error_stays_one_line(run, tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text('{"pack": "arcs", "deci\\nsion\\u2028": 1}\n')
    (row,) = rows_of(run("batch", lines).stdout)
    assert len(row["error"].splitlines()) == 1
    assert "($.deci\\nsion\\u2028)" in row["error"]


def test_a_house_rule_file_linked_from_outside_is_refused_without_its_content(run, tmp_path):
    folder = tmp_path / "house"
    folder.mkdir()
    notes = tmp_path / "notes.txt"  # say, a system file: one long text, not a rule file
    notes.write_text("secret " * 1000 + "\n")
    (folder / "linked.yaml").symlink_to(notes)
    for command in (["rules", "lint"], ["decide", DEMO]):
        line = refused(run(*command, "--rules", folder), "linked.yaml",
                       "a link to a file outside the house-rule folders")
        assert "secret" not in line
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    (folder / "linked.yaml").unlink()
    refused(run("rules", "lint", "--rules", folder), "loop.yaml", "leads nowhere")


@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink"])
def test_batch_output_never_replaces_an_input_even_with_force(run, tmp_path, spelling):
    lines = tmp_path / "in.jsonl"
    lines.write_text(demo_line() + "\n")
    before = lines.read_bytes()
    out = lines if spelling == "same" else tmp_path / "out.jsonl"
    if spelling == "symlink":
        out.symlink_to(lines)
    elif spelling == "hardlink":
        os.link(lines, out)
    refused(run("batch", lines, "--out", out, "--force"), "would replace the input", "in.jsonl")
    assert lines.read_bytes() == before


def test_rows_appended_to_an_input_through_stdout_are_refused(tmp_path):
    lines = tmp_path / "in.jsonl"
    lines.write_text(demo_line() + "\n")
    with lines.open("a") as stdout:
        done = subprocess.run([sys.executable, "-m", "whybot.cli", "batch", str(lines)],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert "stdout is the input" in done.stderr and "Traceback" not in done.stderr
    assert lines.read_text() == demo_line() + "\n"


# --- finding 9: signals and --resume -------------------------------------------------------


def _die_on_seven(number: int) -> int:
    if number == 7:
        os._exit(3)
    return number * 10


def _nothing() -> None:
    """The pool's initializer in the test below."""


def test_a_worker_that_dies_costs_only_its_item_and_the_pool_goes_on():
    results = list(ordered_map(_die_on_seven, range(30), 2, _nothing, (),
                               lambda item, code: f"died on {item} ({code})", chunk=4))
    assert results == [n * 10 if n != 7 else "died on 7 (3)" for n in range(30)]


def write_partial(out: Path, rows: list[bytes], request: batching.Request) -> None:
    out.with_name(out.name + ".partial").write_bytes(b"".join(rows))
    out.with_name(out.name + ".partial.run").write_text(json.dumps(request.run_card()))


def test_resume_continues_without_redoing_or_duplicating_rows_and_drops_a_torn_line(run,
                                                                                 tmp_path):
    lines = tmp_path / "in.jsonl"
    lines.write_text("".join(demo_line(name=f"n{i}") + "\n" for i in range(6)))
    full = tmp_path / "full.jsonl"
    assert run("batch", lines, "--out", full).exit_code == 0
    rows = full.read_bytes().splitlines(keepends=True)
    out = tmp_path / "resumed.jsonl"
    write_partial(out, [*rows[:3], rows[3][:25]], batching.Request(paths=[lines]))
    result = run("batch", lines, "--out", out, "--resume", "--json")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == full.read_bytes()
    assert json.loads(result.stdout)["snapshots"] == 6
    assert not out.with_name("resumed.jsonl.partial").exists()


def test_resume_refuses_changed_inputs_other_options_and_no_partial(run, tmp_path):
    lines = tmp_path / "in.jsonl"
    lines.write_text("".join(demo_line(name=f"n{i}") + "\n" for i in range(3)))
    out = tmp_path / "out.jsonl"
    row = json.dumps({"snapshot": f"{tmp_path}/other.jsonl:1", "ok": False, "error": "x"})
    write_partial(out, [row.encode() + b"\n"], batching.Request(paths=[lines]))
    refused(run("batch", lines, "--out", out, "--resume"), "--resume: row 1", "inputs changed")
    refused(run("batch", lines, "--out", out, "--resume", "--seed", "3"), "other seed")
    refused(run("batch", lines, "--out", out), "interrupted batch left", "--resume")
    refused(run("batch", lines, "--resume"), "--resume", "--out")
    refused(run("batch", lines, "--out", tmp_path / "never.jsonl", "--resume"),
            "no interrupted run")


def _start_batch(tmp_path: Path, out: Path, *extra: str) -> subprocess.Popen:
    lines = tmp_path / "many.jsonl"
    if not lines.exists():
        lines.write_text("".join(demo_line(name=f"n{i}") + "\n" for i in range(600)))
    return subprocess.Popen(
        [sys.executable, "-m", "whybot.cli", "batch", str(lines), "--out", str(out), *extra],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_parallel_batch_cleanly_and_resume_finishes_it(tmp_path, signum):
    out = tmp_path / "out.jsonl"
    partial = tmp_path / "out.jsonl.partial"
    process = _start_batch(tmp_path, out, "--jobs", "2")
    deadline = time.monotonic() + 120  # generous: only a guard against waiting forever
    while not (partial.exists() and partial.stat().st_size > 0) and process.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signum)  # the whole group, as Ctrl-C at a terminal does
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr
    assert stderr.strip().count("\n") == 0 and "--resume" in stderr
    kept = partial.read_bytes()
    assert kept.endswith(b"\n")
    assert [json.loads(line)["snapshot"] for line in kept.splitlines()] == [
        f"{tmp_path}/many.jsonl:{n}" for n in range(1, kept.count(b"\n") + 1)]
    resumed = _start_batch(tmp_path, out, "--jobs", "2", "--resume")
    _, stderr = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, stderr
    fresh = tmp_path / "fresh.jsonl"
    again = _start_batch(tmp_path, fresh, "--jobs", "2")
    again.communicate(timeout=600)
    assert out.read_bytes() == fresh.read_bytes()



def test_a_bad_limit_variable_is_one_line_naming_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "whybot.cli", "decide", str(DEMO)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "WHYBOT_LIMIT_DEPTH": "abc"})
    assert done.returncode == 2
    assert done.stderr.strip() == "error: WHYBOT_LIMIT_DEPTH takes a whole number, not 'abc'"
