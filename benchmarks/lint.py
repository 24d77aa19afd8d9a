"""How long `whybot rules lint` takes, as a user runs it: the shipped packs with their variants,
and a house-rule folder of 1,000 rules on one page laid over Arcs (and its variants).

Each case runs the real command in a subprocess `--repeats` times; the figure is the median CPU
time of the child (user + system, RUSAGE_CHILDREN), printed next to its target (issue 21).
Wall-clock is shown beside it. Not a timed test: the shared machine's load moves the figures.

    python benchmarks/lint.py [--repeats 5] [--rules 1000]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WHYBOT = [sys.executable, "-m", "whybot.cli"]
# (a condition template, the action and the target's filter) cycled through the generated rules:
# each rule's condition differs, so lint has no "can never fire" to report.
_LINES = [
    ("resources == {n} and can.tax.any", "tax", "action == 'tax'"),
    ("spent == {n} and can.repair.any", "repair", "action == 'repair'"),
    ("material + fuel > {n} and exists option as o (action == 'influence' and o.cost <= {n})",
     "influence", "action == 'influence'"),
    ("hand_counter >= {n} and not battle_pending", "tax", "action == 'tax' and gain >= 1"),
]


def house_rules(folder: Path, count: int) -> Path:
    """A house-rule file of `count` rules on the Administration page, above the base lines."""
    lines = ["pack: arcs", "procedure: administration", "title: generated house rules",
             "source: house rules § generated", "salience: 10",
             "defaults:", "  target: {from: option, optional: true}", "rules:"]
    for n in range(count):
        when, action, where = _LINES[n % len(_LINES)]
        lines += [f"  - id: house.generated-{n}",
                  f"    when: \"{when.format(n=n // len(_LINES))}\"",
                  f"    then: {{action: {action}, goal: generated line {n}, "
                  f"target: {{where: \"not used and {where}\"}}}}",
                  f"    says: generated line {n}"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "house.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def cpu_of(args: list[str], accept: tuple[int, ...] = (0,)) -> tuple[float, float, str]:
    """CPU seconds (user + system) and wall seconds of one run, and its last line of output
    (an exit code other than `accept` stops the benchmark)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*WHYBOT, *args], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in accept:
        raise SystemExit(f"whybot {' '.join(args)} exited {done.returncode}:\n{done.stdout}"
                         f"{done.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, done.stdout.strip().splitlines()[-1]


def report(label: str, runs: list[tuple[float, float, str]], target: float) -> None:
    """One case's row: median CPU and wall seconds against its target, and its last line."""
    cpu = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    mark = "yes" if cpu < target else "NO"
    print(f"{label:<44} {cpu:>14.2f} {wall:>7.2f} {'< ' + str(target):>7}  {mark}")
    print(f"{'':<44} last line: {runs[-1][2]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rules", type=int, default=1000, help="generated house rules")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="whybot-lint-bench-"))
    try:
        house = house_rules(work / "house", args.rules)
        cases = [("shipped packs (all, with variants)", ["rules", "lint"], 2.0),
                 (f"arcs + {args.rules:,} house rules on one page",
                  ["rules", "lint", "--pack", "arcs", "--rules", str(house)], 5.0)]
        print(f"{'case':<44} {'CPU s (median)':>14} {'wall s':>7} {'target':>7}  ok")
        for label, command, target in cases:
            report(label, [cpu_of(command) for _ in range(args.repeats)], target)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
