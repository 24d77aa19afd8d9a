"""The load test of `whybot serve`: a burst of requests from several tabs on one game.

It starts `whybot serve` itself (a new process, 127.0.0.1 only, a fresh games folder), makes
one Arcs game, then lets TABS threads, each a browser tab, play turns on that same game at
once, as fast as the server answers: every tab opens the next turn, answers its questions from
the two-turn script of the web tests, sometimes reads the games page, the game and a decision,
and every few turns undoes one. Tabs race: when one records a turn, the others' forms are stale
and must be refused (409) — never applied twice, never lost.

Bounded: at most --requests requests (default 1,000) and --seconds seconds (default 600), to
loopback only; it stops the server when done. It reports the figures and exits 1 if any request
failed (a status other than 200, 303, or 409 for a stale form; a refused connection; a
timeout) or any turn was lost. Beside wall-clock figures it reports the server's own CPU time
per request, which a busy shared machine does not inflate as much:

    lost turns = turns the server said it recorded − turns it said it took back − turns in
                 the game file at the end (must be 0)

    python benchmarks/serve_load.py [--requests 1000] [--tabs 8] [--seconds 300] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serve.arcs_game import SETUP, TURN_1, TURN_2, as_text, cells  # noqa: E402
from whybot.cli.cmd_serve import free_port  # noqa: E402
from whybot.facts.play.table import Table  # noqa: E402

HOST = "127.0.0.1"
_HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
SCRIPT = {**TURN_2, **TURN_1}  # every question either turn asks


class Budget:
    """The shared bounds: a request count and a deadline; every request is counted here."""

    def __init__(self, requests: int, seconds: float) -> None:
        self.left, self.deadline = requests, time.monotonic() + seconds
        self.lock = threading.Lock()
        self.statuses: Counter[str] = Counter()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.recorded = self.undone = self.stale = 0

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0 or time.monotonic() > self.deadline:
                return False
            self.left -= 1
            return True

    def note(self, status: str, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.latencies.append(seconds)
            if error:
                self.errors.append(error)


class OutOfBudget(Exception):
    pass


class Tab:
    """One browser tab: its own keep-alive connection, sending forms as the pages do."""

    def __init__(self, port: int, budget: Budget) -> None:
        self.port, self.budget = port, budget
        self.connection = http.client.HTTPConnection(HOST, port, timeout=60)

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                ) -> tuple[int, str, str]:
        if not self.budget.take():
            raise OutOfBudget
        body = urlencode(form).encode() if form is not None else None
        headers = {"content-type": "application/x-www-form-urlencoded"} if form else {}
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=headers)
            answer = self.connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            self.connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
            self.budget.note("failed", time.perf_counter() - start, f"{method} {path}: {exc}")
            return 0, "", ""
        status = answer.status
        wrong = status not in (200, 303, 409) or (status == 409 and "out of date" not in text)
        self.budget.note(str(status), time.perf_counter() - start,
                         f"{method} {path}: {status} {text[:200]!r}" if wrong else None)
        return status, text, answer.getheader("location") or ""

    def play(self, game: str) -> None:
        """One turn from its first question to the decision (or to a stale refusal)."""
        status, page, _ = self.request("GET", f"/g/{game}/turn")
        while status == 200:
            fields = {k: unescape(v) for k, v in _HIDDEN.findall(page)}
            if "question" not in fields:
                fields["action"] = "answer"  # nothing more to ask: decide
            else:
                value = SCRIPT[fields["question"]]
                fields.update(cells(value) if isinstance(value, list)
                              else {"value": as_text(value)})
            status, page, location = self.request("POST", f"/g/{game}/turn", fields)
            if status == 303:
                with self.budget.lock:
                    self.budget.recorded += 1
                self.request("GET", location)
                return
        if status == 409:
            with self.budget.lock:
                self.budget.stale += 1

    def undo(self, game: str) -> None:
        status, page, _ = self.request("GET", f"/g/{game}")
        turns = re.search(r'name="turn" value="(\d+)"', page)
        if status != 200 or not turns or turns.group(1) == "0":
            return
        status, _, location = self.request("POST", f"/g/{game}/undo",
                                           {"turn": turns.group(1)})
        if status == 303 and "taken+back" in location:
            with self.budget.lock:
                self.budget.undone += 1

    def run(self, game: str, number: int) -> None:
        turns = 0
        try:
            while True:
                self.request("GET", "/")
                self.play(game)
                turns += 1
                if (turns + number) % 5 == 0:
                    self.undo(game)
        except OutOfBudget:
            pass
        finally:
            self.connection.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process `pid` has used so far (Linux /proc)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(games: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-m", "whybot.cli", "serve", str(games),
                               "--host", HOST, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            probe = http.client.HTTPConnection(HOST, port, timeout=2)
            probe.request("GET", "/static/whybot.css")
            probe.getresponse().read()
            return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"whybot serve stopped: {server.stderr.read().decode()}") \
                    from None
            time.sleep(0.2)
    server.kill()
    raise SystemExit("whybot serve did not answer within 60 s")


def measure(requests: int, tabs: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder)
        port = free_port(HOST)
        server = start_server(games, port)
        try:
            budget = Budget(requests, seconds)
            made = Tab(port, budget).request("POST", "/new", {**SETUP, "name": "load"})
            if made[0] != 303:
                raise SystemExit(f"could not make the game: {made[0]} {made[1][:300]}")
            threads = [threading.Thread(target=Tab(port, budget).run, args=("load", n))
                       for n in range(tabs)]
            start, cpu = time.perf_counter(), cpu_seconds(server.pid)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - start
            cpu = cpu_seconds(server.pid) - cpu
        finally:
            server.terminate()
            server.wait(10)
        in_file = len(Table.open(games / "load.yaml").game.log)
    latencies = sorted(budget.latencies)
    sent = sum(budget.statuses.values())
    return {
        "requests": sent, "tabs": tabs, "seconds": round(elapsed, 2),
        "requests_per_second": round(sent / elapsed, 1),
        "server_cpu_ms_per_request": round(1000 * cpu / sent, 1),
        "latency_ms": {"median": round(1000 * statistics.median(latencies), 1),
                       "p95": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 1),
                       "max": round(1000 * latencies[-1], 1)},
        "statuses": dict(sorted(budget.statuses.items())),
        "turns_recorded": budget.recorded, "turns_undone": budget.undone,
        "turns_in_file": in_file, "stale_forms_refused": budget.stale,
        "lost_turns": budget.recorded - budget.undone - in_file,
        "errors": len(budget.errors), "first_errors": budget.errors[:5],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="at most this many")
    parser.add_argument("--tabs", type=int, default=8, help="tabs playing at once")
    parser.add_argument("--seconds", type=float, default=600, help="stop by then")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    if not 1 <= options.requests <= 100_000 or not 1 <= options.tabs <= 64:
        parser.error("--requests 1..100000 and --tabs 1..64")
    figures = measure(options.requests, options.tabs, options.seconds)
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")
    sys.exit(1 if figures["errors"] or figures["lost_turns"] else 0)


if __name__ == "__main__":
    main()
