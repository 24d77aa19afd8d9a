"""Stopping a batch on Ctrl-C or SIGTERM at a row boundary, keeping what was written.

Inside `StopSignals`, the first SIGINT or SIGTERM raises `Interrupted` in the main thread at
once, unless a row is being written (`writing()`): then right after it, so a results file always
ends with a whole row. A second signal ends the process the way that signal normally does: the
way out of a decision stuck inside C code, where Python never runs a handler's exception.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """The user (SIGINT) or the system (SIGTERM) asked the batch to stop.

    A BaseException, like KeyboardInterrupt, so that no `except Exception` on the way (a row's
    own error handling) can swallow it."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.kept = ""  # where the rows written so far are, said when the batch stops
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process the signal ended."""
        return 128 + self.signum


class StopSignals:
    """Turns SIGINT and SIGTERM into `Interrupted` while the batch runs (main thread only)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._writing = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            self._previous = {s: signal.signal(s, self._handle) for s in STOP_SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:  # asked twice: stop now, as the signal normally would
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        self.signum = signum
        if not self._writing:
            raise Interrupted(signum)

    def check(self) -> None:
        """Raise `Interrupted` if a signal came (e.g. while a decision swallowed it)."""
        if self.signum is not None:
            raise Interrupted(self.signum)

    @contextmanager
    def writing(self, last: bool = False) -> Iterator[None]:
        """Hold a signal back until the row being written is whole, then stop; after the
        `last` write (the batch is complete) a signal that came meanwhile changes nothing."""
        self._writing = True
        try:
            yield
        finally:
            self._writing = False
        if not last:
            self.check()


__all__ = ["STOP_SIGNALS", "Interrupted", "StopSignals"]
