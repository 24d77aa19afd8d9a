"""Throughput and memory of whole bot turns, against a plain-Python reference evaluator.

    python benchmarks/throughput.py            # 10,000 snapshots, median of 3 runs
    python benchmarks/throughput.py --quick    # 500 snapshots (a CI sanity check)

The shipped examples (facts/examples/arcs/*.yaml) are replicated to N snapshots, each decided
with its own seed (so dice differ), as full turns with the trace on (the explanations of skipped
rules included). Reported: snapshots per second for the engine (durable_rules) and for the
reference evaluator (`benchmarks/reference.py`, plain Python over the same Pack), their ratio,
resident memory at the start, middle and end of a run (flat memory means no state leaks from one
snapshot to the next), and how many of the N decisions differ between the two (should be 0).
Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import ReferenceEngine, same_decision

from whybot.cli.common import KNOWLEDGE, overlay_key
from whybot.engine import Engine, load_pack
from whybot.engine.errors import WhybotError
from whybot.engine.situation import Situation
from whybot.facts.snapshot import load_snapshot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "facts" / "examples" / "arcs"
HOUSE = KNOWLEDGE / "examples" / "house"


def rss_mb() -> tuple[float, float]:
    """(current resident set, peak resident set) in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        current = pages * resource.getpagesize() / 2**20
    except OSError:
        current = float("nan")
    return current, peak


def situations(pack_overlays: list[Path]) -> tuple[object, list[Situation]]:
    pack = load_pack(KNOWLEDGE, "arcs", pack_overlays)
    loaded = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        try:
            loaded.append(load_snapshot(path, pack))
        except WhybotError as exc:
            print(f"  skipped {path.name}: {exc}", file=sys.stderr)
    return pack, loaded


def timed_run(decide: Callable[[Situation, int], object], snapshots: list[Situation], n: int,
              memory: list[tuple[str, float, float]] | None = None) -> float:
    marks = {0: "start", n // 2: "middle", n - 1: "end"}
    start = time.perf_counter()
    for i in range(n):
        decide(snapshots[i % len(snapshots)], i)
        if memory is not None and i in marks:
            memory.append((marks[i], *rss_mb()))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="snapshots per run")
    parser.add_argument("--runs", type=int, default=3, help="repeated runs (median reported)")
    parser.add_argument("--quick", action="store_true", help="n=500, one run each")
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.runs = 500, 1
    overlays = [HOUSE] if HOUSE.is_dir() else []
    before = rss_mb()
    pack, snapshots = situations([Path(o) for o in overlay_key(overlays)])
    if not snapshots:
        print("no example snapshots could be loaded", file=sys.stderr)
        return 2
    started = time.perf_counter()
    engine = Engine(pack)
    compile_s = time.perf_counter() - started
    reference = ReferenceEngine(pack)
    print(f"pack arcs (+ {', '.join(o.name for o in overlays) or 'no overlay'}): "
          f"{len(pack.rules())} rules; compiled onto durable_rules in {compile_s:.2f} s")
    print(f"{len(snapshots)} example snapshots replicated to n = {args.n:,}, "
          f"each a full turn with the trace on (seed = index); median of {args.runs} run(s)")
    print(f"memory before loading: {before[0]:.1f} MB resident")

    def by_engine(s: Situation, seed: int) -> object:
        return engine.decide(s, seed=seed, explain=True)

    def by_reference(s: Situation, seed: int) -> object:
        return reference.decide(s, seed=seed, explain=True)

    by_engine(snapshots[0], 0)  # warm up both (first-call imports and caches)
    by_reference(snapshots[0], 0)
    memory: list[tuple[str, float, float]] = []
    engine_times = [timed_run(by_engine, snapshots, args.n, memory if run == 0 else None)
                    for run in range(args.runs)]
    reference_times = [timed_run(by_reference, snapshots, args.n) for _ in range(args.runs)]
    engine_s, reference_s = statistics.median(engine_times), statistics.median(reference_times)

    mismatches = 0
    for i in range(args.n):
        snapshot = snapshots[i % len(snapshots)]
        if not same_decision(by_engine(snapshot, i), by_reference(snapshot, i)):
            mismatches += 1

    print()
    print(f"{'evaluator':<34}{'median s':>10}{'snapshots/s':>14}{'ms/snapshot':>13}")
    for name, seconds in (("engine (durable_rules + trace)", engine_s),
                          ("reference (plain Python + trace)", reference_s)):
        print(f"{name:<34}{seconds:>10.2f}{args.n / seconds:>14,.0f}"
              f"{1000 * seconds / args.n:>13.3f}")
    print(f"ratio engine / reference time: {engine_s / reference_s:.2f}x")
    print()
    print("memory during the first engine run (MB):  current resident / peak resident")
    for mark, current, peak in memory:
        print(f"  {mark:<7} {current:8.1f} / {peak:8.1f}")
    growth = memory[-1][1] - memory[0][1] if memory else 0.0
    print(f"  growth start → end: {growth:+.1f} MB over {args.n:,} snapshots")
    print()
    print(f"decisions that differ between engine and reference: {mismatches} of {args.n:,}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
