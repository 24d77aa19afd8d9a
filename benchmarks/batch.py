"""The benchmark: `whybot batch` as a user runs it, on a mixed corpus of every pack's examples.

Every figure comes from running the `whybot` command itself on files (JSONL text in, rows out,
snapshot checks and the trace on), each measured several times and reported as the median:

- snapshots a second on one core, and with `--jobs 2`; the rows must be byte-identical;
- the same corpus decided by the plain-Python reference reasoner (`--reasoner plain`), in the
  same run: the ratio of the two;
- a cold `whybot decide` of the demo (a new process; the compiled pack on disk);
- with `--memory`: the batch's peak memory at two corpus sizes (it must stay flat).

    python benchmarks/batch.py [--copies 1000] [--repeat 3] [--memory]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WHYBOT = Path(sys.executable).parent / "whybot"
TIME = "/usr/bin/time"  # GNU time (Debian package `time`), for each run's own peak memory
TARGETS = {"one core": 600, "two jobs": 1000, "ratio": 2.0, "cold decide": 0.4}


def examples() -> list[str]:
    """Every shipped example as one JSON line, its included files merged in."""
    lines = []
    for path in sorted((ROOT / "facts" / "examples").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "pack" not in data or ("expect" in data and \
                data["expect"].get("rules")):
            continue  # a map, or an example that needs house rules
        for name in (lambda v: v if isinstance(v, list) else [v])(data.pop("include", [])):
            included = yaml.safe_load((path.parent / name).read_text(encoding="utf-8"))
            for key, value in included.items():
                data.setdefault(key, value)
        data.pop("expect", None)
        lines.append(json.dumps(data, ensure_ascii=False))
    return lines


def run(args: list[str]) -> tuple[float, int]:
    """Seconds a command took, and its peak memory in KiB (GNU time's %M, this run alone)."""
    start = time.perf_counter()
    done = subprocess.run([TIME, "-f", "%M", str(WHYBOT), *args], capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"whybot {' '.join(args)} failed ({done.returncode}): {done.stderr[-500:]}")
    return seconds, int(done.stderr.strip().splitlines()[-1])


def batch(corpus: Path, out: Path, repeat: int, *extra: str) -> tuple[float, str]:
    """Median seconds of `whybot batch`, and the rows of its last run."""
    times = []
    for _ in range(repeat):
        out.unlink(missing_ok=True)
        seconds, _ = run(["batch", str(corpus), "--out", str(out), "--seed", "1", "--json",
                          *extra])
        times.append(seconds)
    return statistics.median(times), out.read_text(encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=1000, help="copies of each example")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--memory", action="store_true",
                        help="also compare peak memory at 10,000 and 200,000 snapshots")
    options = parser.parse_args()
    lines = examples()
    work = Path(tempfile.mkdtemp(prefix="whybot-bench-"))
    corpus = work / "corpus.jsonl"
    corpus.write_text("\n".join(lines * options.copies) + "\n", encoding="utf-8")
    count = len(lines) * options.copies
    print(f"corpus: {len(lines)} examples of {len({json.loads(x)['pack'] for x in lines})} "
          f"packs x {options.copies} = {count:,} snapshots; median of {options.repeat} runs")
    run(["decide", str(ROOT / "facts/examples/arcs/demo.yaml")])  # the compiled packs on disk
    one, rows = batch(corpus, work / "one.jsonl", options.repeat)
    two, rows_two = batch(corpus, work / "two.jsonl", options.repeat, "--jobs", "2")
    plain, rows_plain = batch(corpus, work / "plain.jsonl", options.repeat, "--reasoner",
                              "plain")
    cold = statistics.median(run(["decide", str(ROOT / "facts/examples/arcs/demo.yaml")])[0]
                             for _ in range(max(options.repeat, 5)))
    same = [json.loads(a)["actions"] == json.loads(b)["actions"]
            for a, b in zip(rows.splitlines(), rows_plain.splitlines(), strict=True)]
    results = [
        ("one core", count / one, f">= {TARGETS['one core']}/s", count / one >= 600),
        ("two jobs", count / two, f">= {TARGETS['two jobs']}/s", count / two >= 1000),
        ("ratio to the plain reference", one / plain, "<= 2.0x", one / plain <= 2.0),
        ("cold decide (s)", cold, "< 0.4 s", cold < 0.4),
    ]
    print(f"{'measure':32} {'value':>10}  target")
    for name, value, target, ok in results:
        print(f"{name:32} {value:10.2f}  {target}  {'ok' if ok else 'MISSED'}")
    print(f"plain reference: {count / plain:.0f} snapshots/s; decisions alike: {sum(same):,} of "
          f"{len(same):,}")
    print(f"rows byte-identical with --jobs 2: {rows == rows_two}")
    if options.memory:
        for size in (10_000, 200_000):
            scaled = work / f"scaled-{size}.jsonl"
            scaled.write_text("\n".join((lines * (size // len(lines) + 1))[:size]) + "\n",
                              encoding="utf-8")
            _, peak = run(["batch", str(scaled), "--out", str(work / f"m{size}.jsonl"),
                           "--seed", "1", "--json"])
            print(f"peak memory at {size:,} snapshots: {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
