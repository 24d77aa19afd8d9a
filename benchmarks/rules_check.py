"""How long `whybot rules check` takes, as a user runs it: each shipped pack (Arcs with each of
its variants), and Arcs under a house-rule folder of 1,000 rules on one page (what --rules adds:
the overlay's effects, searched and confirmed by both engines).

Each case runs the real command in a subprocess `--repeats` times, after one run that fills
the compiled-engine cache (as any second run of a user finds it); the figure is the median CPU
time of the child (user + system), printed next to its target (issue 23: under 30 s for Arcs).
Not a timed test: the shared machine's load moves the figures.

    python benchmarks/rules_check.py [--repeats 5] [--rules 1000]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from lint import cpu_of, house_rules, report

ROOT = Path(__file__).resolve().parents[1]


def cases(house: Path, count: int) -> list[tuple[str, list[str], float, tuple[int, ...]]]:
    """(label, command, target CPU seconds, accepted exit codes)."""
    found = [(f"arcs{' --variant ' + v if v else ''}",
              ["rules", "check", "--pack", "arcs", *(["--variant", v] if v else [])], 30.0,
              (0,))
             for v in (None, *sorted(p.name for p in (ROOT / "knowledge" / "arcs" /
                                                      "variants").iterdir() if p.is_dir()))]
    found += [(name, ["rules", "check", "--pack", name], 30.0, (0,))
              for name in ("sparta_athens", "yellow_scarves")]
    # the house rules change what a page does: findings, so exit 1 is the expected answer
    found.append((f"arcs + {count:,} house rules on one page",
                  ["rules", "check", "--pack", "arcs", "--rules", str(house)], 30.0, (0, 1)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rules", type=int, default=1000, help="generated house rules")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="whybot-check-bench-"))
    try:
        house = house_rules(work / "house", args.rules)
        print(f"{'case':<44} {'CPU s (median)':>14} {'wall s':>7} {'target':>7}  ok")
        for label, command, target, accept in cases(house, args.rules):
            cpu_of(command, accept)  # fills the compiled-engine cache
            report(label, [cpu_of(command, accept) for _ in range(args.repeats)], target)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
