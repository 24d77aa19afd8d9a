"""Where a warm decision's time goes, part by part: the breakdown issue 24 asks for.

Decides a pack's shipped examples the way `whybot batch` decides a row (a warm-up pass first:
engines loaded, rulesets of affected derivations compiled), once plainly and once with a timer
around each part below, in CPU time of this thread and exclusive of the parts it calls (the C
core's time is its own part, wherever it was called from). Timers cost time themselves, so each
part is printed as its share of the timed pass and as that share of the plain pass's
milliseconds a snapshot.

    python benchmarks/breakdown.py [--passes 3] [PACK]   (default: arcs)

`core_share.py` gives the C core's calls one by one; this one, what surrounds them.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import examples
from core_share import fastest_pass

from whybot.cli.batch import rows as batch_rows
from whybot.cli.batch import run as rows
from whybot.cli.batch.inputs import Item
from whybot.engine import decide, durable_core_wrapped
from whybot.engine.compile import durable_core
from whybot.engine.derive import asserted, derivation, forward_chaining
from whybot.engine.derive.fast import incremental, reuse
from whybot.engine.walk import judgments, pages

C_CORE = "durable_rules' C core"
OUTSIDE = "everything else (the batch loop)"
# part → (owner, attribute) whose calls it is; a name a module imported is patched where used
PARTS: dict[str, list[tuple[Any, str]]] = {
    "JSON sent to the C core (encoding)": [(durable_core, "_dump")],
    "JSON read back (firings parsed)": [(durable_core, "_load")],
    "telling facts (stamping, batching, reading firings)": [
        (durable_core.State, name) for name in
        ("assert_facts", "retract_facts", "firings", "post", "close")],
    "entity and phase facts built": [
        (asserted.EntityFacts, "update"), (forward_chaining, "carrier_fact"),
        (pages, "carrier_fact"), (forward_chaining._Facts, "tell"),
        (forward_chaining._Facts, "phase"), (forward_chaining._Facts, "flush")],
    "firings concluded (the Derivation)": [
        (forward_chaining, "conclude_round"), (derivation.Derivation, "finish"),
        (derivation.Derivation, "initial")],
    "forward chaining: strata and rounds": [
        (forward_chaining.DurableDeriver, "derive"),
        (forward_chaining.DurableDeriver, "_stratum")],
    "the last run's firings replayed": [(incremental.Replay, "firings")],
    "reuse: the last derivation kept and compared": [
        (reuse.LastDerivation, name) for name in ("keep", "find", "replay")],
    "judgment record (what the trace shows)": [
        (judgments.Knowing, "_record"), (judgments.Knowing, "_remember")],
    "pages: the walk's rule choice": [(pages.PageSession, "first"),
                                      (pages.PageSession, "_state")],
    "the walk (effects, bindings, the trace)": [(decide.Engine, "decide")],
    "the snapshot read": [(rows, "read_situation")],
    "the row": [(batch_rows, "_decided")],
}


class Timers:
    """Exclusive CPU time per part: a part's time less what the parts it called took."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.made: dict[str, int] = {}  # part → timed calls made from it (OUTSIDE: none)
        self.stack: list[tuple[str, float]] = []  # active parts, the time their children took

    def run(self, part: str, call: Callable[[], Any]) -> Any:
        clock = time.thread_time
        caller = self.stack[-1][0] if self.stack else OUTSIDE
        self.made[caller] = self.made.get(caller, 0) + 1
        start = clock()
        self.stack.append((part, 0.0))
        try:
            return call()
        finally:
            elapsed = clock() - start
            _, children = self.stack.pop()
            self.spent[part] = self.spent.get(part, 0.0) + elapsed - children
            if self.stack:
                self.stack[-1] = (self.stack[-1][0], self.stack[-1][1] + elapsed)

    def wrap(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.isgeneratorfunction(function):
            @functools.wraps(function)
            def resumed(*args: Any, **kwargs: Any) -> Iterator[Any]:
                items = function(*args, **kwargs)
                done = object()
                while (item := self.run(part, lambda: next(items, done))) is not done:
                    yield item
            return resumed

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            return self.run(part, lambda: function(*args, **kwargs))
        return timed


class TimedCore:
    """The C extension, each C function's calls a leaf part of `timers`."""

    def __init__(self, timers: Timers, core: Any) -> None:
        self.timers = timers
        self.core = core

    def __getattr__(self, name: str) -> Any:
        function = getattr(self.core, name)
        if not callable(function) or isinstance(function, type):
            return function
        return lambda *args: self.timers.run(C_CORE, lambda: function(*args))


def timed_pass(items: list[Item], timers: Timers) -> float:
    """One pass with every part timed; its CPU seconds."""
    originals = [(owner, name, getattr(owner, name)) for targets in PARTS.values()
                 for owner, name in targets]
    for part, targets in PARTS.items():
        for owner, name in targets:
            setattr(owner, name, timers.wrap(part, getattr(owner, name)))
    try:
        with durable_core_wrapped(functools.partial(TimedCore, timers)):
            return fastest_pass(items, 1, rows.decide_item)
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def timer_cost(repeat: int = 200_000) -> float:
    """CPU seconds a timed call costs more than a plain one (an empty function, inside a
    timed part as every timed call but the outermost is)."""
    def empty() -> None:
        return None

    timers = Timers()
    wrapped = timers.wrap("empty", empty)

    def calls(function: Callable[[], None]) -> float:
        start = time.thread_time()
        for _ in range(repeat):
            function()
        return time.thread_time() - start

    plain = calls(empty)
    timed = timers.run("outer", lambda: calls(wrapped))
    return max(0.0, (timed - plain) / repeat)


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
    timers = Timers()
    timed = timed_pass(items, timers)
    spent = dict(timers.spent)
    spent[OUTSIDE] = timed - sum(spent.values())
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
