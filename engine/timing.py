"""Where a decision's time goes, part by part: each part of the engine timed in CPU time of
this thread, exclusive of the timed parts it calls (the C core's calls are a part of their own,
wherever they are made). A measuring seam for `benchmarks/breakdown.py`, as `core_wrapped` is
for `core_share.py`: nothing in a decision uses it.

A timer costs time itself, most of it in the part that made the timed call: `timer_cost`
measures it on an empty function, for the benchmark to take off each part per call it made.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from . import decide
from .compile import durable_core
from .derive import asserted, derivation, forward_chaining
from .derive.fast import incremental, reuse
from .walk import judgments, pages

C_CORE = "durable_rules' C core"
Targets = Sequence[tuple[Any, str]]  # (module or class, the name of a function on it)
# part → the functions whose calls it is; a name a module imported is patched where it is used
ENGINE_PARTS: dict[str, Targets] = {
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
}


class Timers:
    """Exclusive CPU time per part: a part's time less what the parts it called took."""

    OUTSIDE = "everything else (the caller's loop)"  # what no timed part holds

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.made: dict[str, int] = {}  # part → timed calls made from it, or from OUTSIDE
        self.stack: list[tuple[str, float]] = []  # active parts, the time their children took

    def run(self, part: str, call: Callable[[], Any]) -> Any:
        clock = time.thread_time
        caller = self.stack[-1][0] if self.stack else self.OUTSIDE
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
        """`function`, each call timed as `part`; a generator's each resumption (its caller
        runs between them)."""
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


class _TimedCore:
    """The C extension, each C function's calls a leaf part of `timers`."""

    def __init__(self, timers: Timers, core: Any) -> None:
        self.timers = timers
        self.core = core

    def __getattr__(self, name: str) -> Any:
        function = getattr(self.core, name)
        if not callable(function) or isinstance(function, type):
            return function
        return lambda *args: self.timers.run(C_CORE, lambda: function(*args))


@contextmanager
def timed_parts(extra: Mapping[str, Targets] | None = None) -> Iterator[Timers]:
    """Every part of `ENGINE_PARTS` and `extra` (the caller's own) timed while the block runs,
    and the C core's calls; all put back after."""
    timers = Timers()
    parts = {**ENGINE_PARTS, **(extra or {})}
    originals = [(owner, name, getattr(owner, name)) for targets in parts.values()
                 for owner, name in targets]
    for part, targets in parts.items():
        for owner, name in targets:
            setattr(owner, name, timers.wrap(part, getattr(owner, name)))
    try:
        with durable_core.core_wrapped(functools.partial(_TimedCore, timers)):
            yield timers
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
