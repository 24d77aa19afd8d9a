"""`whybot batch`: decide many snapshots, one JSON line each, then counts and rule coverage.

A bad snapshot becomes an error row and the batch goes on. With `jobs > 1` forked workers
decide in parallel (`pool.py`); each compiles its own engines once, and rows keep input order,
byte for byte the same as with one process. Where rows go, and how an interrupted run is kept
and resumed, is `results.py`; what counts as an input, `inputs.py`; stopping, `stopping.py`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whybot.engine.errors import EngineFault, WhybotError

from .common import engine_for, message, pack_for, read_situation
from .inputs import Item, count_items, iter_items
from .pool import ordered_map
from .results import Results, open_results
from .stopping import Interrupted, StopSignals
from .summary import Summary

# --- deciding one item (in this process or in a worker) -----------------------------------

_CONFIG: dict[str, Any] = {"pack": None, "overlays": (), "seed": None, "include_from": (),
                           "reasoner": "durable", "odds": False}


def configure(pack: str | None, overlays: tuple[str, ...], seed: int | None,
              include_from: tuple[Path, ...] = (), reasoner: str = "durable",
              fresh: bool = False, odds: bool = False) -> None:
    """Set what every item is decided with; in a worker, compile the engine once up front."""
    if fresh:  # a forked worker must not share engines compiled by its parent
        engine_for.cache_clear()
        pack_for.cache_clear()
    _CONFIG.update(pack=pack, overlays=overlays, seed=seed, include_from=include_from,
                   reasoner=reasoner, odds=odds)
    if pack:
        with contextlib.suppress(WhybotError):  # if it fails, every row will carry the error
            engine_for(pack, overlays, reasoner)


def _init_worker(pack: str | None, overlays: tuple[str, ...], seed: int | None,
                 include_from: tuple[Path, ...], reasoner: str, odds: bool) -> None:
    configure(pack, overlays, seed, include_from, reasoner, fresh=True, odds=odds)


def decide_item(item: Item) -> dict[str, Any]:
    """One result row; never raises (a bad snapshot or an engine fault becomes an error row)."""
    row: dict[str, Any] = {"snapshot": item.origin, "ok": False}
    try:
        engine, situation = read_situation(item.document(), _CONFIG["pack"],
                                           _CONFIG["overlays"], _CONFIG["include_from"],
                                           _CONFIG["reasoner"])
        trace = engine.decide(situation, seed=_CONFIG["seed"], explain=False)
    except WhybotError as exc:
        row["error"] = message(exc)
        return row
    except EngineFault as exc:
        row.update(error=f"engine fault: {exc}", fault=True)
        return row
    except Exception as exc:  # a bug: record it against this row and carry on
        row.update(error=f"internal error: {type(exc).__name__}: {exc}", fault=True)
        return row
    decision = trace.decision
    choices = {alias: c.get("entity") for alias, c in decision.get("choices", {}).items()}
    columns = engine.pack.presentation.get("columns", {})
    row.update(
        ok=True, name=situation.name, pack=engine.pack.name,
        result=decision.get("result", "decided"),
        **{column: choices.get(alias) for column, alias in columns.items()},
        choices=choices,
        actions=[{k: a[k] for k in ("action", "goal", "suit", "target", "rule", "page")
                  if a.get(k) is not None} for a in decision.get("actions", [])],
        fired=trace.fired(),
        derived_by=sorted({s["rule"] for j in trace.judgments.values() for s in j.by
                           if j.origin == "derived"} |
                          {s["rule"] for j in trace.entity_judgments for s in j["by"]}),
        dice=[r["total"] for r in trace.dice],
        assumed=[a["name"] for a in trace.assumed],
        disagreements=trace.disagreements,
        error=None,
    )
    if _CONFIG["odds"]:
        from .odds import odds_row

        row["odds"] = odds_row(engine, situation)
    return row


def died(item: Item, exit_code: int | None) -> dict[str, Any]:
    """The row of an item whose worker process died deciding it (a crash in C code)."""
    how = f"signal {signal.Signals(-exit_code).name}" if exit_code and exit_code < 0 \
        else f"exit status {exit_code}"
    return {"snapshot": item.origin, "ok": False, "fault": True,
            "error": f"engine fault: the worker process deciding it died ({how})"}


def decide_all(items: Iterable[Item], jobs: int) -> Iterator[dict[str, Any]]:
    """Rows in input order, from this process or from `jobs` forked workers."""
    if jobs <= 1:
        return (decide_item(item) for item in items)
    if "fork" not in multiprocessing.get_all_start_methods():
        raise WhybotError("--jobs needs the 'fork' start method (Linux or macOS)")
    config = (_CONFIG["pack"], _CONFIG["overlays"], _CONFIG["seed"], _CONFIG["include_from"],
              _CONFIG["reasoner"], _CONFIG["odds"])
    return ordered_map(decide_item, items, jobs, _init_worker, config, died)


# --- a whole batch ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What `whybot batch` was asked, from its options."""

    paths: list[Path]
    out: Path | None = None
    force: bool = False
    resume: bool = False
    jobs: int = 1
    pack: str | None = None
    overlays: tuple[str, ...] = ()
    seed: int = 0
    include_from: tuple[Path, ...] = ()
    reasoner: str = "durable"
    odds: bool = False

    def run_card(self) -> dict[str, Any]:
        """What a resumed run must share with the run it continues (rows depend on it)."""
        return {"paths": [str(p) for p in self.paths], "pack": self.pack,
                "rules": list(self.overlays), "seed": self.seed,
                "include_from": [str(p) for p in self.include_from],
                "reasoner": self.reasoner, "odds": self.odds}


def _shown(rows: Iterator[dict[str, Any]], request: Request, results: Results
           ) -> Iterator[dict[str, Any]]:
    """`rows`, with a progress bar on stderr when someone is watching."""
    if not sys.stderr.isatty():
        return rows
    from rich.console import Console
    from rich.progress import track

    total = count_items(request.paths, results.skip()) - len(results.done)
    return iter(track(rows, total=total, description="deciding",
                      console=Console(stderr=True), transient=True))


def run_batch(request: Request) -> Summary:
    """Decide every input, writing rows as they come; the summary of all rows.

    Raises `Interrupted` on SIGINT/SIGTERM (or when stdout's reader left) after keeping the
    rows written so far, each one whole."""
    summary = Summary(reasoner=request.reasoner)
    results = open_results(request.out, request.paths, force=request.force,
                           resume=request.resume, run=request.run_card(), on_row=summary.add)
    try:
        configure(request.pack, request.overlays, request.seed, request.include_from,
                  request.reasoner, odds=request.odds)
        items = results.resumed(iter_items(request.paths, results.skip()))
        with StopSignals() as stop:
            rows = decide_all(items, request.jobs)
            with contextlib.closing(rows):
                for row in _shown(rows, request, results):
                    stop.check()  # a row decided while the signal came is not kept
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
