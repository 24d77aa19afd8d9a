"""The game-agnostic engine: rule files in, decisions and their traces out."""

from .decide import Engine
from .errors import DecisionError, EngineFault, RuleFileError, SnapshotError, WhybotError
from .loader import collect_problems, load_pack, load_pack_folder
from .situation import Situation
from .trace import Trace

__all__ = ["DecisionError", "Engine", "EngineFault", "RuleFileError", "Situation",
           "SnapshotError", "Trace", "WhybotError", "collect_problems", "load_pack",
           "load_pack_folder"]
