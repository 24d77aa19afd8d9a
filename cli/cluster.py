"""`whybot batch --cluster`: the same batch, decided by the workers of a Dask cluster.

`connect` reaches the scheduler (or starts a `LocalCluster` for `--cluster local`) and checks,
before any row is written, that it has workers and that each runs the same whybot as this
machine. `Cluster.rows` compiles the engines here, ships them once, and streams the inputs
through `inflight.py`, which yields the rows in input order. Rule files and included files are
read here only (`remote.py`), so a worker needs whybot and none of this machine's files.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

from whybot.engine import (
    Engine,
    EngineFault,
    RuleFileError,
    WhybotError,
    current_limits,
    excerpt,
    shipped_variants,
)

from . import scheduler
from .common import engine_for, pack_names, variant_home, with_variant
from .inflight import stream
from .inputs import Item
from .remote import Settings, Table, engines_blob, fingerprint, keep
from .rows import Outcome, Row

TIMEOUT = scheduler.TIMEOUT  # seconds to wait for the scheduler, and for a worker
GRACE = 60.0  # seconds mid-batch without workers (a nanny restarting its worker) before giving up
_INSTALL = "pip install 'whybot[cluster]'"
_KEPT = "the rows so far are kept: with --out, continue with --resume"


@contextlib.contextmanager
def connect(address: str, jobs: int | None) -> Iterator[Cluster]:
    """The cluster at `address` (`local`: a LocalCluster of `jobs` workers, by default one per
    CPU), checked to have workers that run this whybot; closed (and stopped, if started here)
    on leaving."""
    if address != "local" and jobs is not None:
        raise WhybotError(f"--jobs sets the number of workers on this machine; the cluster at "
                          f"{address} decides with the workers it has",
                          hint="drop --jobs, and start more workers there with `dask worker "
                               f"{address}`; or use --cluster local --jobs N")
    distributed = _distributed()
    timeout = scheduler.timeout()
    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet())
        target: Any = address
        if address == "local":
            target = stack.enter_context(_local_cluster(distributed, jobs))
        else:
            scheduler.check_address(distributed, address)
            scheduler.hello(distributed, address, timeout)
        try:
            client = stack.enter_context(distributed.Client(target, timeout=timeout,
                                                            set_as_default=False))
        except Exception as exc:  # OSError: it did not answer in time
            why = f"within {timeout:g} s" if isinstance(exc, OSError) \
                else f"({excerpt(str(exc) or type(exc).__name__, 160)})"
            raise scheduler.unreachable(address, why) from None
        cluster = Cluster(client, address, timeout)
        cluster.check_workers()
        yield cluster


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise WhybotError("--cluster needs Dask, which is not installed",
                          hint=f"install the cluster extra: {_INSTALL}") from None
    return distributed


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own log lines (a lost connection, a dead worker, with tracebacks) are not for
    whybot's users: what matters reaches them as a row or as one error line. Nor is its
    warning that a task is large: the engines' blob (every variant's, both sides of a --diff)
    is large by design, and sent once."""
    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] == "distributed"]
    loggers = {logger: logger.level for logger in map(logging.getLogger, names)}
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
            yield
    finally:
        for logger, level in loggers.items():
            logger.setLevel(level)


@contextlib.contextmanager
def _local_cluster(distributed: Any, workers: int | None) -> Iterator[Any]:
    """Single-threaded worker processes on this machine. A worker that dies fails its tasks at
    once (allowed-failures 0): `rows` then finds the snapshot to blame without killing more.
    Each worker ignores Ctrl-C (`remote.dask_setup`): this process alone stops, and closes
    them."""
    import dask

    count = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                        else os.cpu_count() or 1)
    preload = [*dask.config.get("distributed.worker.preload"), "whybot.cli.remote"]
    try:
        local = distributed.LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                         dashboard_address=":0", silence_logs=logging.CRITICAL,
                                         preload=preload,
                                         scheduler_kwargs={"allowed_failures": 0})
    except Exception as exc:
        raise WhybotError(f"cannot start a local Dask cluster: {excerpt(str(exc), 160)}"
                          ) from None
    with local:
        yield local


class Cluster:
    """A connected Dask client: its workers checked, and watched while a batch waits."""

    def __init__(self, client: Any, address: str, timeout: float) -> None:
        import distributed

        self.client = client
        self.address = address
        self.timeout = timeout
        self.KilledWorker = distributed.KilledWorker
        self._threads = (0, 0.0)  # worker threads, and when they were last counted
        self._alone_since: float | None = None  # since when the cluster has had no workers

    def check_workers(self) -> None:
        """Wait for a worker, then refuse to start if the scheduler (which unpickles the
        tasks) or any worker runs another whybot, or none."""
        try:
            self.client.wait_for_workers(1, timeout=self.timeout)
        except TimeoutError:
            raise WhybotError(f"the Dask scheduler at {self.address} has no workers",
                              hint=f"start some with `dask worker {self.address}`") from None
        mine = fingerprint()
        try:
            theirs = self.client.run_on_scheduler(fingerprint, callback_timeout=self.timeout)
        except TimeoutError:
            raise self._silent("the Dask scheduler") from None
        except Exception as exc:  # it cannot unpickle whybot's function
            theirs = exc
        _same(f"the Dask scheduler at {self.address}", theirs, mine)
        try:
            answers = self.client.run(fingerprint, on_error="return",
                                      callback_timeout=self.timeout)
        except TimeoutError:
            raise self._silent("a Dask worker of the scheduler") from None
        for worker, theirs in sorted(answers.items()):
            _same(f"the Dask worker {worker}", theirs, mine)

    def _silent(self, who: str) -> WhybotError:
        return WhybotError(f"{who} at {self.address} did not answer within {self.timeout:g} s",
                           hint=scheduler.LONGER)

    def rows(self, items: Iterator[Item], *, pack: str | None, overlays: tuple[str, ...],
             seed: int, include_from: tuple[Path, ...], reasoner: str,
             odds: bool = False, diff: tuple[str, ...] | None = None) -> Iterator[Row]:
        """The row of every item, in input order, decided on the cluster (`diff`: the overlays
        of a --diff's other side)."""
        sides = (overlays,) if diff is None else (overlays, diff)
        blob = engines_blob(tuple(_engines(pack, folders, reasoner) for folders in sides))
        settings = Settings(hashlib.sha256(blob).hexdigest(), pack, seed, current_limits(),
                            odds)
        return stream(self, items, self.client.submit(keep, blob, pure=False), settings,
                      include_from)

    def result(self, future: Any) -> list[Outcome | None]:
        """The answers of a task, once it is done; KilledWorker passes through, any other
        failure ends the batch with one line (the rows so far are kept)."""
        while not future.done():
            try:
                future.exception(timeout=1)
            except CancelledError:
                break
            except TimeoutError:
                self.watch()
        try:
            return future.result()
        except self.KilledWorker:
            raise
        except Exception as exc:
            if future.status == "cancelled":
                raise WhybotError(f"lost the Dask scheduler at {self.address}",
                                  hint=_KEPT) from None
            raise WhybotError(f"a Dask worker failed to decide: {type(exc).__name__}: "
                              f"{excerpt(str(exc), 160)}",
                              hint=f"does every worker run the same whybot? {_KEPT}") from None

    def watch(self) -> None:
        """Called while waiting: refuse to wait forever on a cluster that has had no workers
        for `GRACE` seconds (or the timeout, if longer)."""
        grace = max(self.timeout, GRACE)
        if self.worker_threads(fresh=True):
            self._alone_since = None
        elif self._alone_since is None:
            self._alone_since = time.monotonic()
        elif time.monotonic() - self._alone_since > grace:
            raise WhybotError(f"the Dask cluster at {self.address} has had no workers for "
                              f"{grace:g} s",
                              hint=f"start some with `dask worker {self.address}`; {_KEPT}")

    def worker_threads(self, fresh: bool = False) -> int:
        """The cluster's worker threads (0 if none), counted again every few seconds since
        workers come and go."""
        count, when = self._threads
        if fresh or time.monotonic() - when > 2:
            try:
                count = sum(self.client.nthreads().values())
            except Exception:  # the scheduler is away: `result` finds out
                count = 0
            self._threads = (count, time.monotonic())
        return count


def _same(who: str, theirs: dict[str, Any] | BaseException, mine: dict[str, Any]) -> None:
    """Refuse a machine whose whybot `fingerprint` is not this one's."""
    if isinstance(theirs, BaseException):
        raise WhybotError(f"{who} cannot run whybot: {excerpt(str(theirs), 120)}",
                          hint=f"install whybot {mine['whybot']} on the scheduler and every "
                               f"worker: pip install 'whybot[cluster]=={mine['whybot']}'")
    differs = [key for key in mine if theirs.get(key) != mine[key]]
    if differs:
        key = differs[0]
        raise WhybotError(f"{who} has {key} {theirs.get(key)}, this machine {mine[key]}",
                          hint="install the same whybot (and Python) on the scheduler and "
                               "every worker as here: rows must not depend on where they are "
                               "decided")


def _engines(pack: str | None, overlays: tuple[str, ...], reasoner: str) -> Table:
    """The engine of every pack a snapshot may name (or the `--pack`), with the house rules,
    and with each variant it ships laid under them, or the error loading one raised: workers
    decide with these, never with files of their own."""
    table = Table()
    for name in [pack] if pack else pack_names():
        table.engines[name, ""] = _engine(name, overlays, reasoner)
        try:
            home = variant_home(name)
        except RuleFileError as exc:
            table.shipped[name] = exc
            continue
        table.shipped[name] = (home.name, shipped_variants(home))
        for variant in shipped_variants(home):
            try:
                keyed = with_variant(name, variant, overlays)
            except RuleFileError as exc:  # another variant is laid over every snapshot
                table.refused[name, variant] = exc
                continue
            table.engines[name, variant] = _engine(name, keyed, reasoner)
    return table


def _engine(name: str, overlays: tuple[str, ...], reasoner: str) -> Engine | Exception:
    try:
        return engine_for(name, overlays, reasoner)
    except (WhybotError, EngineFault) as exc:
        return exc


__all__ = ["GRACE", "TIMEOUT", "Cluster", "connect"]
