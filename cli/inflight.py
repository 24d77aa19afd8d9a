"""`whybot batch --cluster`: the chunks of a batch in flight on a Dask cluster, and its rows
in input order.

`stream` reads the inputs here and sends them in chunks of `CHUNK` snapshots, at most two chunks
per worker thread in flight; answers come back in any order and a chunk's rows are given once
every chunk before it is written. A snapshot that includes files comes back unanswered: its
files are merged here (only this machine can read them) and it is sent again.

A worker that dies (a crash in C code ends its process) fails the chunks it held. Those are
decided again one snapshot at a time with nothing else of the batch in flight, so a snapshot
whose task still loses its worker is the one to blame: its row says so and the batch goes on,
as with `--jobs`.
"""

from __future__ import annotations

import contextlib
import queue
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whybot.engine import SnapshotError, WhybotError, read_bytes
from whybot.facts.includes import with_includes
from whybot.facts.snapshot import snapshot_variant

from .inputs import Item
from .remote import FileText, Resolved, Settings, Unit, decide_units
from .rows import Outcome, Row, died, rendered

if TYPE_CHECKING:
    from .cluster import Cluster

CHUNK = 32  # snapshots per task: enough to make a task's overhead small, few to redo if it dies


def stream(cluster: Cluster, items: Iterator[Item], shipped: Any, settings: Settings,
           include_from: tuple[Path, ...]) -> Iterator[Row]:
    """The row of every item, in input order, decided on the cluster with the engines
    `shipped` (a future holding their blob)."""
    flight = InFlight(cluster, shipped, settings, include_from)
    window: deque[Chunk] = deque()
    try:
        while True:
            while not flight.suspects and len(window) < 2 * max(cluster.worker_threads(), 1) \
                    and (chunk := read_chunk(items)) is not None:
                window.append(chunk)
                flight.send(chunk, [p for p, row in enumerate(chunk.rows) if row is None])
            if not window:
                return
            if window[0].complete():
                yield from window.popleft().rows  # type: ignore[misc]  # all known
            else:
                flight.settle()
    finally:
        flight.cancel()


@dataclass
class Chunk:
    """Consecutive inputs: what is sent for each (None: its row is known without sending, an
    unreadable file), the rows known so far, and the positions the task in flight decides."""

    units: list[Unit | None]
    rows: list[Row | None]
    sent: list[int] = field(default_factory=list)

    def sent_units(self) -> list[Unit]:
        return [unit for unit in (self.units[p] for p in self.sent) if unit is not None]

    def complete(self) -> bool:
        return all(row is not None for row in self.rows)


class InFlight:
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
        self.flying: dict[Any, tuple[Any, Chunk]] = {}
        self.done: queue.Queue[Any] = queue.Queue()
        self.suspects: list[Chunk] = []
        self.held: list[tuple[Chunk, list[int]]] = []  # sends held back while suspects wait

    def _submit(self, units: list[Unit]) -> Any:
        return self.cluster.client.submit(decide_units, self.shipped, self.settings, units,
                                          pure=False)

    def send(self, chunk: Chunk, positions: list[int]) -> None:
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

    def _record(self, chunk: Chunk, answers: list[Outcome | None]) -> None:
        """Keep the answers as rows; send again those whose included files were merged here."""
        again = []
        for position, unit, answer in zip(chunk.sent, chunk.sent_units(), answers,
                                          strict=True):
            if answer is not None:
                chunk.rows[position] = rendered(unit.origin, answer)
                continue
            try:
                document = unit.document()
                merged = Resolved(unit.origin, with_includes(document, self.include_from),
                                  snapshot_variant(document))
            except WhybotError as exc:
                chunk.rows[position] = rendered(unit.origin, exc)
                continue
            chunk.units[position] = merged
            again.append(position)
        self.send(chunk, again)

    def cancel(self) -> None:
        with contextlib.suppress(Exception):  # a client that lost its scheduler
            self.cluster.client.cancel([f for f, _ in self.flying.values()] + [self.shipped],
                                       force=True)


def read_chunk(items: Iterator[Item]) -> Chunk | None:
    """The next `CHUNK` items as units to send; an unreadable file is its error row at once."""
    chunk = Chunk([], [])
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


__all__ = ["CHUNK", "Chunk", "InFlight", "read_chunk", "stream"]
