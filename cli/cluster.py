"""`whybot batch --cluster`: the same batch, decided by the workers of a Dask cluster.

`connect` reaches the scheduler (or starts a `LocalCluster` for `--cluster local`) and checks,
before any row is written, that it has workers and that each runs the same whybot as this
machine. `Cluster.rows` then streams: this process reads the inputs and sends them in chunks of
`CHUNK` snapshots, at most two chunks per worker thread in flight, and yields the rows in input
order. Rule files and included files are read here only (`remote.py`), so a worker needs whybot
and none of this machine's files.

A worker that dies (a crash in C code ends its process) fails the chunks it held. Those are
decided again one snapshot at a time with nothing else of the batch in flight, so a snapshot
whose task still loses its worker is the one to blame: its row says so and the batch goes on,
as with `--jobs`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import queue
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whybot.engine import Engine, limits
from whybot.engine.errors import EngineFault, SnapshotError, WhybotError
from whybot.engine.sources import excerpt, read_bytes
from whybot.facts.includes import with_includes

from .common import engine_for, pack_names
from .inputs import Item
from .remote import FileText, Resolved, Settings, Unit, decide_units, fingerprint, keep
from .rows import Outcome, Row, died, rendered

CHUNK = 32  # snapshots per task: enough to make a task's overhead small, few to redo if it dies
TIMEOUT = "WHYBOT_CLUSTER_TIMEOUT"  # seconds to wait for the scheduler, and for a worker
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
    timeout = _timeout()
    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet())
        target: Any = address
        if address == "local":
            target = stack.enter_context(_local_cluster(distributed, jobs))
        else:
            _check_address(distributed, address)
        try:
            client = stack.enter_context(distributed.Client(target, timeout=timeout,
                                                            set_as_default=False))
        except Exception as exc:  # OSError: it did not answer in time
            why = f"within {timeout:g} s" if isinstance(exc, OSError) \
                else f"({excerpt(str(exc) or type(exc).__name__, 160)})"
            raise WhybotError(f"cannot reach the Dask scheduler at {address} {why}",
                              hint="is `dask scheduler` running there, and this its address? "
                                   f"{TIMEOUT}=SECONDS waits longer") from None
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


def _timeout() -> float:
    raw = os.environ.get(TIMEOUT, "5")
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0
    if not seconds > 0:
        raise WhybotError(f"{TIMEOUT} takes a number of seconds, not {excerpt(raw, 40)!r}")
    return seconds


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own log lines (a lost connection, a dead worker, with tracebacks) are not for
    whybot's users: what matters reaches them as a row or as one error line."""
    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] == "distributed"]
    loggers = {logger: logger.level for logger in map(logging.getLogger, names)}
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in loggers.items():
            logger.setLevel(level)


def _check_address(distributed: Any, address: str) -> None:
    """Refuse what is not a scheduler address before a Client tries it (a Client given one
    fails, then hangs for seconds when it is collected)."""
    try:
        distributed.comm.get_address_host_port(address)
    except ValueError as exc:
        raise WhybotError(f"--cluster: {excerpt(address, 80)!r} is not a scheduler address "
                          f"({excerpt(str(exc), 120)})",
                          hint="give tcp://HOST:PORT, as `dask scheduler` prints it, or "
                               "local") from None


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


@dataclass
class _Chunk:
    """Consecutive inputs: what is sent for each (None: its row is known without sending, an
    unreadable file), the rows known so far, and the positions the task in flight decides."""

    units: list[Unit | None]
    rows: list[Row | None]
    sent: list[int] = field(default_factory=list)

    def sent_units(self) -> list[Unit]:
        return [unit for unit in (self.units[p] for p in self.sent) if unit is not None]

    def complete(self) -> bool:
        return all(row is not None for row in self.rows)


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
            theirs = self.client.run_on_scheduler(fingerprint)
        except Exception as exc:  # it cannot unpickle whybot's function
            theirs = exc
        _same(f"the Dask scheduler at {self.address}", theirs, mine)
        for worker, theirs in sorted(self.client.run(fingerprint, on_error="return").items()):
            _same(f"the Dask worker {worker}", theirs, mine)

    def rows(self, items: Iterator[Item], *, pack: str | None, overlays: tuple[str, ...],
             seed: int, include_from: tuple[Path, ...], reasoner: str,
             odds: bool = False) -> Iterator[Row]:
        """The row of every item, in input order, decided on the cluster."""
        blob = pickle.dumps(_engines(pack, overlays, reasoner), pickle.HIGHEST_PROTOCOL)
        settings = Settings(hashlib.sha256(blob).hexdigest(), pack, seed, limits.current(),
                            odds)
        batch = _Batch(self, self.client.submit(keep, blob, pure=False), settings, include_from)
        window: deque[_Chunk] = deque()
        try:
            while True:
                while not batch.suspects and len(window) < 2 * max(self.worker_threads(), 1) \
                        and (chunk := _read_chunk(items)) is not None:
                    window.append(chunk)
                    batch.send(chunk, [p for p, row in enumerate(chunk.rows) if row is None])
                if not window:
                    return
                if window[0].complete():
                    yield from window.popleft().rows  # type: ignore[misc]  # all known
                else:
                    batch.settle()
        finally:
            batch.cancel()

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


class _Batch:
    """The tasks of one batch in flight, and their answers as they come back, in any order.

    A task that lost its worker makes its chunk a suspect: nothing more is sent until every
    other task is back, then each of its snapshots is decided alone, so that one that loses its
    worker again is the one to blame."""

    def __init__(self, cluster: Cluster, shipped: Any, settings: Settings,
                 include_from: tuple[Path, ...]) -> None:
        self.cluster = cluster
        self.shipped = shipped
        self.settings = settings
        self.include_from = include_from
        self.flying: dict[Any, tuple[Any, _Chunk]] = {}
        self.done: queue.Queue[Any] = queue.Queue()
        self.suspects: list[_Chunk] = []
        self.held: list[tuple[_Chunk, list[int]]] = []  # sends held back while suspects wait

    def _submit(self, units: list[Unit]) -> Any:
        return self.cluster.client.submit(decide_units, self.shipped, self.settings, units,
                                          pure=False)

    def send(self, chunk: _Chunk, positions: list[int]) -> None:
        if not positions:
            return
        if self.suspects:
            self.held.append((chunk, positions))
            return
        chunk.sent = positions
        future = self._submit(chunk.sent_units())
        self.flying[future.key] = (future, chunk)
        future.add_done_callback(self.done.put)

    def settle(self) -> None:
        """Take the answers of the next task back (blaming suspects once none is in flight)."""
        if self.flying:
            while True:
                try:
                    key = self.done.get(timeout=1).key
                    break
                except queue.Empty:
                    self.cluster.watch()
            future, chunk = self.flying.pop(key)
            try:
                self._record(chunk, self.cluster.result(future))
            except self.cluster.KilledWorker:
                self.suspects.append(chunk)
        if self.suspects and not self.flying:
            self._blame()

    def _blame(self) -> None:
        while self.suspects:
            chunk = self.suspects.pop(0)
            self._record(chunk, [self._alone(unit) for unit in chunk.sent_units()])
        held, self.held = self.held, []
        for chunk, positions in held:
            self.send(chunk, positions)

    def _alone(self, unit: Unit) -> Outcome | None:
        try:
            answer, = self.cluster.result(self._submit([unit]))
        except self.cluster.KilledWorker:
            return died(unit.origin, "a Dask worker, each time Dask ran it")
        return answer

    def _record(self, chunk: _Chunk, answers: list[Outcome | None]) -> None:
        """Keep the answers as rows; send again those whose included files were merged here."""
        again = []
        for position, unit, answer in zip(chunk.sent, chunk.sent_units(), answers,
                                          strict=True):
            if answer is not None:
                chunk.rows[position] = rendered(unit.origin, answer)
                continue
            try:
                merged = with_includes(unit.document(), self.include_from)
            except WhybotError as exc:
                chunk.rows[position] = rendered(unit.origin, exc)
                continue
            chunk.units[position] = Resolved(unit.origin, merged)
            again.append(position)
        self.send(chunk, again)

    def cancel(self) -> None:
        with contextlib.suppress(Exception):  # a client that lost its scheduler
            self.cluster.client.cancel([f for f, _ in self.flying.values()] + [self.shipped],
                                       force=True)


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


def _engines(pack: str | None, overlays: tuple[str, ...], reasoner: str,
             ) -> dict[str, Engine | Exception]:
    """The engine of every pack a snapshot may name (or the `--pack`), with the house rules,
    or the error loading it raised: workers decide with these, never with files of their
    own."""
    table: dict[str, Engine | Exception] = {}
    for name in [pack] if pack else pack_names():
        try:
            table[name] = engine_for(name, overlays, reasoner)
        except (WhybotError, EngineFault) as exc:
            table[name] = exc
    return table


def _read_chunk(items: Iterator[Item]) -> _Chunk | None:
    """The next `CHUNK` items as units to send; an unreadable file is its error row at once."""
    chunk = _Chunk([], [])
    for item in items:
        unit = _unit(item)
        chunk.units.append(None if isinstance(unit, dict) else unit)
        chunk.rows.append(unit if isinstance(unit, dict) else None)
        if len(chunk.units) == CHUNK:
            break
    return chunk if chunk.units else None


def _unit(item: Item) -> Unit | Row:
    if item.line is not None:  # a JSONL line: its bytes are in the item already
        return item
    try:
        return FileText(item.origin, str(Path(item.path)), read_bytes(Path(item.path),
                                                                        SnapshotError))
    except WhybotError as exc:
        return rendered(item.origin, exc)


__all__ = ["CHUNK", "GRACE", "TIMEOUT", "Cluster", "connect"]
