"""`whybot batch`: decide many snapshots, one JSON line each, then counts and rule coverage.

A bad snapshot becomes an error row and the batch goes on. With `jobs > 1` forked workers
decide in parallel (`pool.py`); each compiles its own engines once, and rows keep input order,
byte for byte the same as with one process; with `cluster`, the workers of a Dask cluster do
(`cluster.py`), and rows are the same again. One row is `rows.py` (with `diff`, the row of a
snapshot decided under two rule sets, `diffrows.py`); where rows go, and how an interrupted run
is kept and resumed, `results.py`; what counts as an input, `inputs.py`; stopping,
`stopping.py`.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whybot.engine import Engine, Situation, WhybotError
from whybot.facts.packs import engine_for, pack_for
from whybot.facts.situations import read_situation

from .diffoverlay import Spelled, as_given, check_overlay
from .diffrows import attempt_diff
from .diffsummary import DiffSummary
from .inputs import Item, count_items, iter_items
from .pool import ordered_map
from .results import Results, open_results
from .rows import Row, attempt, died, rendered
from .stopping import Interrupted, StopSignals
from .summary import Summary

# --- deciding one item (in this process or in a worker) -----------------------------------

_CONFIG: dict[str, Any] = {"pack": None, "overlays": (), "seed": None, "include_from": (),
                           "reasoner": "durable", "odds": False, "diff": None}


def configure(pack: str | None, overlays: tuple[str, ...], seed: int | None,
              include_from: tuple[Path, ...] = (), reasoner: str = "durable",
              fresh: bool = False, odds: bool = False,
              diff: tuple[str, ...] | None = None) -> None:
    """Set what every item is decided with (`diff`: the overlays of the other side of a
    --diff); in a worker, compile the engines once up front."""
    if fresh:  # a forked worker must not share engines compiled by its parent
        engine_for.cache_clear()
        pack_for.cache_clear()
    _CONFIG.update(pack=pack, overlays=overlays, seed=seed, include_from=include_from,
                   reasoner=reasoner, odds=odds, diff=diff)
    if pack:
        for folders in (overlays, diff) if diff is not None else (overlays,):
            with contextlib.suppress(WhybotError):  # if it fails, every row will carry it
                engine_for(pack, folders, reasoner)


def _init_worker(pack: str | None, overlays: tuple[str, ...], seed: int | None,
                 include_from: tuple[Path, ...], reasoner: str, odds: bool,
                 diff: tuple[str, ...] | None) -> None:
    configure(pack, overlays, seed, include_from, reasoner, fresh=True, odds=odds, diff=diff)


def decide_item(item: Item) -> Row:
    """One result row; never raises (a bad snapshot or an engine fault becomes an error row)."""
    document = functools.cache(item.document)  # read once, for both sides of a --diff

    def situate(overlays: tuple[str, ...]) -> Callable[[], tuple[Engine, Situation]]:
        return lambda: read_situation(document(), _CONFIG["pack"], overlays,
                                      _CONFIG["include_from"], _CONFIG["reasoner"])

    if _CONFIG["diff"] is None:
        outcome = attempt(item.origin, _CONFIG["seed"], situate(_CONFIG["overlays"]),
                          odds=_CONFIG["odds"])
    else:
        outcome = attempt_diff(item.origin, _CONFIG["seed"], situate(_CONFIG["overlays"]),
                               situate(_CONFIG["diff"]), odds=_CONFIG["odds"])
    return rendered(item.origin, outcome)


def _died(item: Item, exit_code: int | None) -> Row:
    how = f"signal {signal.Signals(-exit_code).name}" if exit_code and exit_code < 0 \
        else f"exit status {exit_code}"
    return died(item.origin, how)


def decide_all(items: Iterable[Item], jobs: int) -> Iterator[Row]:
    """Rows in input order, from this process or from `jobs` forked workers."""
    if jobs <= 1:
        return (decide_item(item) for item in items)
    if "fork" not in multiprocessing.get_all_start_methods():
        raise WhybotError("--jobs needs the 'fork' start method (Linux or macOS)")
    config = (_CONFIG["pack"], _CONFIG["overlays"], _CONFIG["seed"], _CONFIG["include_from"],
              _CONFIG["reasoner"], _CONFIG["odds"], _CONFIG["diff"])
    return ordered_map(decide_item, items, jobs, _init_worker, config, _died)


# --- a whole batch ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What `whybot batch` was asked, from its options."""

    paths: list[Path]
    out: Path | None = None
    force: bool = False
    resume: bool = False
    jobs: int | None = None  # None: not given (1 here; with --cluster local, one per CPU)
    cluster: str | None = None
    pack: str | None = None
    overlays: tuple[str, ...] = ()
    seed: int = 0
    include_from: tuple[Path, ...] = ()
    reasoner: str = "durable"
    odds: bool = False
    diff: str | None = None  # the overlay folder of a --diff, laid over `overlays`
    spelled: Spelled = ()  # the house-rule folders as the user gave them, to name their files

    @property
    def other(self) -> tuple[str, ...] | None:
        """The overlays of a --diff's other side (None: not a --diff)."""
        return None if self.diff is None else (*self.overlays, self.diff)

    def run_card(self) -> dict[str, Any]:
        """What a resumed run must share with the run it continues (rows depend on it; where
        they are decided, with --jobs or --cluster, does not change them)."""
        return {"paths": [str(p) for p in self.paths], "pack": self.pack,
                "rules": list(self.overlays), "seed": self.seed,
                "include_from": [str(p) for p in self.include_from],
                "reasoner": self.reasoner, "odds": self.odds,
                **({"diff": self.diff} if self.diff else {})}

    def summary(self) -> Summary | DiffSummary:
        return DiffSummary() if self.diff else Summary(reasoner=self.reasoner)


def _shown(rows: Iterator[Row], request: Request, results: Results) -> Iterator[Row]:
    """`rows`, with a progress line on stderr when someone is watching."""
    if not sys.stderr.isatty():
        return rows
    from .progress import shown

    total = count_items(request.paths, results.skip()) - len(results.done)
    return shown(rows, total, f" on {request.cluster}" if request.cluster else "")


@contextlib.contextmanager
def _decider(request: Request) -> Iterator[Callable[[Iterator[Item]], Iterator[Row]]]:
    """How this batch turns items into rows: here, in forked workers, or on a Dask cluster,
    which is reached before any file is written (one that cannot be leaves nothing behind)."""
    if request.cluster is None:
        yield lambda items: decide_all(items, request.jobs or 1)
        return
    from .cluster import connect

    with connect(request.cluster, request.jobs) as cluster:
        yield lambda items: cluster.rows(items, pack=request.pack, overlays=request.overlays,
                                         seed=request.seed, include_from=request.include_from,
                                         reasoner=request.reasoner, odds=request.odds,
                                         diff=request.other)


# A row makes and drops tens of thousands of containers, nearly none of them in cycles: at
# Python's default (a young collection every 700) the collector took 4% of a corpus batch.
COLLECT_AFTER = (10_000, 10, 10)


@contextlib.contextmanager
def _collected_seldom() -> Iterator[None]:
    """The cyclic collector's thresholds raised while the batch runs (forked workers inherit
    them), and put back after."""
    previous = gc.get_threshold()
    gc.set_threshold(*COLLECT_AFTER)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def run_batch(request: Request) -> Summary | DiffSummary:
    """Decide every input, writing rows as they come; the summary of all rows.

    Raises `Interrupted` on SIGINT/SIGTERM (or when stdout's reader left) after keeping the
    rows written so far, each one whole."""
    summary = request.summary()
    if request.diff is not None:  # a broken overlay is one error, not the same one in every row
        check_overlay(request.pack, request.overlays, request.diff, request.reasoner)
    with _collected_seldom(), _decider(request) as decide:
        results = open_results(request.out, request.paths, force=request.force,
                               resume=request.resume, run=request.run_card(),
                               on_row=summary.add)
        try:
            configure(request.pack, request.overlays, request.seed, request.include_from,
                      request.reasoner, odds=request.odds, diff=request.other)
            items = results.resumed(iter_items(request.paths, results.skip()))
            with StopSignals() as stop:
                rows = decide(items)
                with contextlib.closing(rows):
                    for row in _shown(rows, request, results):
                        stop.check()  # a row decided while the signal came is not kept
                        if request.diff is not None:
                            row = as_given(row, request.spelled)
                        with stop.writing():
                            results.write(row)
                            summary.add(row)
                with stop.writing(last=True):
                    results.finish()
        except Interrupted as stop:
            results.keep()
            stop.kept = results.where()
            raise
        except BaseException:
            results.keep()
            raise
    return summary


__all__ = ["Request", "configure", "decide_all", "decide_item", "run_batch"]
