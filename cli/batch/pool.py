"""Deciding in forked worker processes: results in input order, and a stop that is always clean.

Not multiprocessing.Pool: its workers share the locks of two queues, so a worker killed while
holding one leaves `Pool.terminate` waiting forever, and its workers print BrokenPipe tracebacks
when the parent goes away. Here each worker has a pipe of its own and at most one chunk of items
at a time. Workers ignore SIGINT and SIGTERM (Ctrl-C reaches the whole process group): the parent
alone decides to stop, and then kills them. A worker whose parent is gone, even by SIGKILL, leaves
quietly: its pipe reads EOF, and on Linux the kernel also kills it (PR_SET_PDEATHSIG), should it
be stuck deciding an item. A worker that dies (a crash inside C code) costs only the item it was
deciding: that item's result is `on_death(item, exit code)`, the rest of its chunk goes to a
fresh worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from .stopping import STOP_SIGNALS

Item = TypeVar("Item")
Result = TypeVar("Result")


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with(parent: int) -> None:
    """Linux: have the kernel kill this process when `parent` goes, so that a worker stuck in C
    code on an item does not outlive it (elsewhere, the closed pipe alone ends the worker).
    The kernel watches the thread that forked: iterate `ordered_map` in a thread that outlives
    it (the batch uses the main thread)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it went before the kernel was told
        os._exit(0)


def _serve(parent: int, conn: Connection, others: list[Connection],
           function: Callable[[Any], Any], initializer: Callable[..., None],
           initargs: tuple[Any, ...]) -> None:
    """A worker: decide each item it is sent, answer (index, result), until told to stop."""
    _die_with(parent)
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    for other in others:  # the parent's ends of the pipes, its own too, inherited by fork: while
        other.close()  # one stays open here, `recv` never sees EOF once the parent has gone
    try:
        initializer(*initargs)
        while (work := conn.recv()) is not None:
            for index, item in work:
                conn.send((index, function(item)))
    except (EOFError, OSError):
        pass  # the parent has gone, or stopped listening: nothing is left to do


class _Worker:
    """One forked process, its pipe, and the (index, item) pairs it has not answered yet."""

    def __init__(self, context: Any, others: list[Connection], function: Callable[[Any], Any],
                 initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve, daemon=True,
            args=(os.getpid(), child, [*others, self.conn], function, initializer, initargs))
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:  # no signal may reach the child before it has set its own dispositions
            self.process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        child.close()
        self.pending: deque[tuple[int, Any]] = deque()

    def stop(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def ordered_map(function: Callable[[Item], Result], items: Iterable[Item], jobs: int,
                initializer: Callable[..., None], initargs: tuple[Any, ...],
                on_death: Callable[[Item, int | None], Result],
                chunk: int = 8) -> Iterator[Result]:
    """`map(function, items)` over `jobs` forked workers, yielding results in input order.

    At most `4 * jobs * chunk` items are between reading and yielding, whatever their order of
    completion. Closing the generator (or an exception in the caller) kills the workers."""
    context = multiprocessing.get_context("fork")
    source = enumerate(items)
    retry: deque[tuple[int, Item]] = deque()
    done: dict[int, Result] = {}
    taken = yielded = 0
    window = 4 * jobs * chunk
    workers: list[_Worker] = []

    def start() -> _Worker:
        worker = _Worker(context, [w.conn for w in workers], function, initializer, initargs)
        workers.append(worker)
        return worker

    def feed(worker: _Worker) -> None:
        nonlocal taken
        work = []
        while len(work) < chunk and retry:
            work.append(retry.popleft())
        while len(work) < chunk and taken - yielded < window:
            pair = next(source, None)
            if pair is None:
                break
            work.append(pair)
            taken += 1
        if work:
            worker.pending.extend(work)
            with contextlib.suppress(OSError):  # it died while idle: `wait` sees its pipe close
                worker.conn.send(work)

    try:
        for _ in range(jobs):
            start()
        while True:
            for worker in workers:
                if not worker.pending:
                    feed(worker)
            busy = {w.conn: w for w in workers if w.pending}
            if not busy:
                break
            for conn in wait(list(busy)):
                worker = busy[conn]
                try:
                    index, result = conn.recv()
                except (EOFError, OSError):  # the worker died: blame its current item only
                    worker.stop()
                    workers.remove(worker)
                    index, item = worker.pending.popleft()
                    done[index] = on_death(item, worker.process.exitcode)
                    retry.extendleft(reversed(worker.pending))
                    start()
                    continue
                worker.pending.popleft()
                done[index] = result
            while yielded in done:
                yield done.pop(yielded)
                yielded += 1
    finally:
        for worker in workers:
            worker.stop()


__all__ = ["ordered_map"]
