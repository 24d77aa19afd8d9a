"""Fuzz fixtures: the in-process CLI, how many cases a run makes, and the figures it reports.

Every case goes through `check_case`, which asserts what issue 8 promises for any input: exit 0
or 2, no traceback, every line short and printable, and bounded time and memory for the case.
`whybot serve`'s requests (`test_fuzz_serve.py`) count their HTTP statuses instead of exits.
The figures (cases, exits by code, statuses, the slowest case) are printed at the end of the
run.
"""

from __future__ import annotations

import os
import re
import resource
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import typer.main
import typer.testing

import whybot.facts.packs as registry
from tests.conftest import KNOWLEDGE, TOY_PACKS
from whybot.cli.app import app

CASE_SECONDS = 10.0  # generous: a case that takes longer is a hang in the making
CASE_MEGABYTES = 400  # growth of the peak resident memory one case may cause
LINE_CHARS = 1_000  # an error line quotes at most message_chars of the user's text
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


@dataclass
class Tally:
    """What the fuzz cases of this run came to. A batch is one invocation of many cases (its
    lines or files), whose outcomes are its rows."""

    cases: Counter = field(default_factory=Counter)
    exits: Counter = field(default_factory=Counter)
    rows: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    slowest: tuple[float, str] = (0.0, "")

    def add(self, command: str, exit_code: int | str, seconds: float, label: str,
            cases: int = 1) -> None:
        """`exit_code`: the exit status, or "timeout", or a negative number for a signal."""
        self.cases[command] += cases
        if command == "serve":  # an HTTP status, not an exit
            self.statuses[exit_code] += 1
        else:
            self.exits[f"signal {-exit_code}" if isinstance(exit_code, int) and exit_code < 0
                       else exit_code] += 1
        self.slowest = max(self.slowest, (seconds / cases, label))

    def report(self) -> list[str]:
        total = sum(self.cases.values())
        by_command = ", ".join(f"{name} {count:,}" for name, count in self.cases.most_common())
        exits = ", ".join(f"{code}: {count:,}" for code, count in sorted(self.exits.items(),
                                                                         key=str))
        rows = ", ".join(f"{kind} {count:,}" for kind, count in sorted(self.rows.items()))
        statuses = ", ".join(f"{code}: {count:,}" for code, count in sorted(
            self.statuses.items(), key=str))
        return [f"fuzz: {total:,} cases ({by_command})",
                f"fuzz: exits by code, per invocation: {exits or 'none'}",
                f"fuzz: batch rows: {rows or 'none'}",
                f"fuzz: serve statuses, per request: {statuses or 'none'}",
                f"fuzz: slowest case: {self.slowest[0]:.2f} s ({self.slowest[1]}; a batch's "
                "time is divided by its cases)"]


TALLY = Tally()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY.cases:
        terminalreporter.section("fuzz figures")
        for line in TALLY.report():
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def scale(request: pytest.FixtureRequest) -> int:
    """1 by default (about a minute); 10 with --fuzz-long or WHYBOT_FUZZ_LONG=1."""
    long = request.config.getoption("--fuzz-long") or os.environ.get("WHYBOT_FUZZ_LONG")
    return 10 if long else 1


@pytest.fixture(scope="session")
def packs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped packs and the toy pack side by side, so `rules lint --pack toy` is cheap."""
    root = tmp_path_factory.mktemp("packs")
    for folder in [*(p for p in KNOWLEDGE.iterdir() if (p / "pack.yaml").is_file()),
                   TOY_PACKS / "toy"]:
        (root / folder.name).symlink_to(folder)
    return root


@pytest.fixture(scope="module")
def cli(packs_root: Path) -> Iterator[Callable[..., typer.testing.Result]]:
    """`whybot ARGS...` in this process. typer rebuilds its click command on every invoke
    (7 ms, more than most cases take), so it is built once for a module's cases; not once for
    the session, since the patched pack folder must not outlive the fuzz tests when a test
    worker goes on to other tests."""
    command = typer.main.get_command(app)
    runner = typer.testing.CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", lambda _app: command)
        patch.setattr(registry, "KNOWLEDGE", packs_root)
        registry.pack_names.cache_clear()  # the packs found there (the toy one too) ...
        try:
            yield lambda *args: runner.invoke(app, [str(a) for a in args],
                                              catch_exceptions=False)
        finally:
            registry.pack_names.cache_clear()  # ... and afterwards the shipped ones again


def _peak_megabytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check_output(text: str, label: str) -> None:
    """No traceback, and every line short and free of raw control characters."""
    assert "Traceback" not in text, f"{label}: {text[-2000:]}"
    for line in text.splitlines():
        assert len(line) < LINE_CHARS, f"{label}: a line of {len(line)} characters"
        assert not _CONTROL.search(line), f"{label}: a raw control character: {line[:200]!r}"


def check_case(cli: Callable[..., typer.testing.Result], args: list[str | Path], command: str,
               label: str, cases: int = 1) -> typer.testing.Result:
    """Run one case in process and assert issue 8's promises about it."""
    before = _peak_megabytes()
    start = time.perf_counter()
    result = cli(*args)
    seconds = time.perf_counter() - start
    TALLY.add(command, result.exit_code, seconds, label, cases)
    assert result.exit_code in (0, 2), f"{label}: exit {result.exit_code}: {result.output[-800:]}"
    check_output(result.stderr if command == "batch" else result.output, label)  # rows: long
    if command == "decide" and result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1, f"{label}: {result.stderr[:2000]}"
    assert seconds < CASE_SECONDS * cases, f"{label}: {seconds:.1f} s"
    assert _peak_megabytes() - before < CASE_MEGABYTES, f"{label}: memory grew"
    return result
