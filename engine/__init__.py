"""The game-agnostic engine: rule files in, decisions and their traces out."""

from typing import Any

from .decide import Engine
from .errors import DecisionError, EngineFault, RuleFileError, SnapshotError, WhybotError
from .situation import Situation
from .trace import Trace
from .walk.instead import NOTHING_INSTEAD, Instead, asked_instead

__all__ = ["NOTHING_INSTEAD", "DecisionError", "Engine", "EngineFault", "Instead",
           "RuleFileError", "Situation", "SnapshotError", "Trace", "WhybotError",
           "asked_instead", "collect_problems", "load_pack", "load_pack_folder"]

_LOADER = ("collect_problems", "load_pack", "load_pack_folder")


def __getattr__(name: str) -> Any:
    """The loader on first use: a decision on a cached pack never reads a rule file."""
    if name in _LOADER:
        from .load import loader

        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
