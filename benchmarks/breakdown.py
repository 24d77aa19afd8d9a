"""Where a warm decision's time goes, part by part: the breakdown issue 24 asks for.

Decides a pack's shipped examples the way `whybot batch` decides a row (a warm-up pass first:
engines loaded, rulesets of affected derivations compiled), once plainly and once with a timer
around each part (`whybot.engine.timed_parts`, and here the snapshot read and the row), in CPU
time of this thread and exclusive of the parts it calls (the C core's time is its own part,
wherever it was called from). A timer costs time itself, most of it in the part that made the
timed call: that cost, measured on an empty function, is taken off each part per call it made,
and what is left is scaled to the plain pass's milliseconds a snapshot.

    python benchmarks/breakdown.py [--passes 3] [PACK]   (default: arcs)

`core_share.py` gives the C core's calls one by one; this one, what surrounds them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import examples
from core_share import fastest_pass

from whybot.cli.batch import rows as batch_rows
from whybot.cli.batch import run as rows
from whybot.cli.batch.inputs import Item
from whybot.engine import timed_parts, timer_cost

BATCH_PARTS = {"the snapshot read": [(rows, "read_situation")],
               "the row": [(batch_rows, "_decided")]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="arcs", help="a pack (default: arcs)")
    parser.add_argument("--passes", type=int, default=3, help="plain passes (the fastest)")
    args = parser.parse_args()
    lines = [line for line in examples() if json.loads(line)["pack"] == args.pack]
    if not lines:
        parser.error(f"no examples of pack {args.pack!r}")
    items = [Item(f"{args.pack}.jsonl", number, line.encode())
             for number, line in enumerate(lines, start=1)]
    rows.configure(None, (), 1, (), "durable", fresh=True)
    for item in items:  # warm-up
        rows.decide_item(item)
    plain = fastest_pass(items, args.passes, rows.decide_item) / len(items) * 1000
    cost = timer_cost()
    with timed_parts(BATCH_PARTS) as timers:
        timed = fastest_pass(items, 1, rows.decide_item)
    spent = dict(timers.spent)
    spent[timers.OUTSIDE] = timed - sum(spent.values())
    kept = {part: max(0.0, seconds - cost * timers.made.get(part, 0))
            for part, seconds in spent.items()}
    total = sum(kept.values())
    print(f"{args.pack}: {len(items)} snapshots, {plain:.2f} ms CPU a snapshot (plain, fastest "
          f"of {args.passes}); timed pass {timed / len(items) * 1000:.2f} ms, of which timers "
          f"{(timed - total) / len(items) * 1000:.2f} ms "
          f"({sum(timers.made.values()) / len(items):.0f} timed calls a snapshot)")
    for part, seconds in sorted(kept.items(), key=lambda item: -item[1]):
        share = seconds / total
        print(f"  {share:6.1%}  {share * plain:6.2f} ms  {part}")


if __name__ == "__main__":
    main()
