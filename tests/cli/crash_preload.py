"""A Dask worker preload for the cluster tests: a snapshot whose name starts with "poison"
ends the worker process with SIGSEGV, as a crash inside durable_rules' C code would.

A preload runs in every worker process Dask starts, restarted ones included (Dask may load it
more than once in a process, hence the guard)."""

from __future__ import annotations

import os
import signal

from whybot.engine.decide import Engine

if not hasattr(Engine, "uncrashed_decide"):
    Engine.uncrashed_decide = Engine.decide  # type: ignore[attr-defined]

    def _crashing(self, situation, *args, **kwargs):
        if situation.name.startswith("poison"):
            os.kill(os.getpid(), signal.SIGSEGV)
        return self.uncrashed_decide(situation, *args, **kwargs)

    Engine.decide = _crashing  # type: ignore[method-assign]
