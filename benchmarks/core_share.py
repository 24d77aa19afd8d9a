"""Where a decision's time goes: how much of it durable_rules' C core itself takes, per pack.

Decides every shipped example of each pack in this process, the way `whybot batch` decides a
row, several passes after a warm-up pass (engines loaded, the rulesets of affected derivations
compiled), and times every call into the C core in CPU time (`time.thread_time`: the C
function alone, not the Python wrapping it, nor other processes that held the core on a loaded
machine). Prints, per pack: CPU milliseconds a snapshot (the fastest pass), the C core's share,
the ratio of the whole decision's CPU to the C core's (issue 24's target: at most 2x), the calls
and bytes a snapshot sends it, and the ceiling the C core alone puts on one core (snapshots a
second if nothing but the C core ran). Then the same snapshots decided as `play` and `serve`
decide a turn, warm: the trace explained (why each higher rule did not apply), what the walk
read noted (the assumptions), every support listing the facts it matched (issue 24's target:
at most 8 ms an Arcs decision).

    python benchmarks/core_share.py [--passes 3] [PACK ...]

The batch benchmark (`batch.py`) measures the real path; this one says how far Python work can
still go: the C core's time is the floor of what durable_rules doing the reasoning costs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import examples

from whybot.cli.batch import run as rows
from whybot.cli.batch.inputs import Item
from whybot.engine import Reading, durable_core_wrapped

SENT = ("assert_facts", "retract_facts", "assert_event")  # calls whose 2nd argument is JSON
RATIO = 2.0  # issue 24: a decision's CPU at most twice what durable_rules' C core takes
EXPLAINED = 8.0  # issue 24: a warm explained Arcs decision (`play`, `serve`), milliseconds
SEED = 1  # the dice of every decision here, as `whybot batch --seed 1`


class TimedCore:
    """The C extension, every call of one of its C functions timed (CPU time of this thread,
    around the C call alone) and counted, and the JSON it is sent measured. Its exception type
    and constants pass through untimed."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.sent = 0

    def __getattr__(self, name: str) -> Any:
        function = getattr(self.core, name)
        if not isinstance(function, types.BuiltinFunctionType):
            return function  # not a C function: the exception type, a constant

        def timed(*args: Any) -> Any:
            if name in SENT:
                self.sent += len(args[1])
            clock = time.thread_time
            start = clock()
            try:
                return function(*args)
            finally:
                spent = clock() - start
                self.seconds[name] = self.seconds.get(name, 0.0) + spent
                self.calls[name] = self.calls.get(name, 0) + 1
        return timed


def fastest_pass(items: list[Item], passes: int, decide: Callable[[Item], Any]) -> float:
    """CPU seconds of the fastest of `passes` passes over `items`."""
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        for item in items:
            decide(item)
        best = min(best, time.process_time() - start)
    return best


def measure(pack: str, lines: list[str], passes: int) -> None:
    items = [Item(f"{pack}.jsonl", number, line.encode())
             for number, line in enumerate(lines, start=1)]
    rows.configure(None, (), SEED, (), "durable", fresh=True)
    for item in items:  # warm-up: engines loaded, rulesets of affected derivations compiled
        rows.decide_item(item)
    plain = fastest_pass(items, passes, rows.decide_item) / len(items)
    with durable_core_wrapped(TimedCore) as timed:
        fastest_pass(items, passes, rows.decide_item)
    decided = passes * len(items)
    core = sum(timed.seconds.values()) / decided
    ratio = plain / core
    print(f"{pack}: {len(items)} snapshots, {plain * 1000:.2f} ms CPU a snapshot; "
          f"C core {core * 1000:.2f} ms ({core / plain:.0%}); "
          f"CPU / C core {ratio:.2f}x (target <= {RATIO:.0f}x: "
          f"{'ok' if ratio <= RATIO else 'MISSED'}); "
          f"{sum(timed.calls.values()) / decided:.0f} calls and "
          f"{timed.sent / decided / 1024:.1f} KiB sent a snapshot; "
          f"C core alone: at most {1 / core:,.0f}/s on one core")
    for name in sorted(timed.seconds, key=timed.seconds.__getitem__, reverse=True):
        print(f"    {name}: {timed.calls[name] / decided:.1f} calls, "
              f"{timed.seconds[name] / decided * 1000:.3f} ms")
    explained = explained_pass(items, passes)
    target = f" (target <= {EXPLAINED:.0f} ms: {'ok' if explained <= EXPLAINED else 'MISSED'})" \
        if pack == "arcs" else ""
    print(f"    explained, as play and serve decide a turn: {explained:.2f} ms a snapshot"
          f"{target}")


def explained_pass(items: list[Item], passes: int) -> float:
    """CPU milliseconds a snapshot of the fastest pass deciding `items` with the trace
    explained and what the walk read noted (`play`'s and `serve`'s decision), warm."""
    read = [rows.read_situation(item.document(), None, (), ()) for item in items]
    best = float("inf")
    for _ in range(passes + 1):  # the first pass warms what only an explained decision reads
        start = time.process_time()
        for engine, situation in read:
            engine.decide(situation, seed=SEED, reading=Reading())
        best = min(best, time.process_time() - start)
    return best / len(items) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*", metavar="PACK", help="packs (default: all)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes (the fastest)")
    args = parser.parse_args()
    by_pack: dict[str, list[str]] = {}
    for line in examples():
        by_pack.setdefault(json.loads(line)["pack"], []).append(line)
    for pack in args.packs or sorted(by_pack):
        if pack not in by_pack:
            parser.error(f"no examples of pack {pack!r} (packs: {', '.join(sorted(by_pack))})")
        measure(pack, by_pack[pack], args.passes)


if __name__ == "__main__":
    main()
