"""What the engine decides on: observations, the player's answers, and pre-rolled dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Situation:
    """A validated, normalised snapshot, ready to become facts."""

    name: str
    board: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    answers: dict[str, Any] = field(default_factory=dict)
    dice: list[int] = field(default_factory=list)
