"""The engine's dice: seeded, or taken in order from the snapshot's pre-rolled dice.

Every roll (and every random pick among still-equal options) is logged with what it decided,
so a trace can show it and a table can reproduce it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .errors import DecisionError

_DICE = re.compile(r"^(\d*)d(\d+)$")


@dataclass
class Roll:
    dice: str
    faces: list[int]
    total: int
    source: str
    purpose: str

    def as_dict(self) -> dict[str, object]:
        return {"dice": self.dice, "faces": self.faces, "total": self.total,
                "source": self.source, "for": self.purpose}


@dataclass
class Dice:
    """Pre-rolled faces are used first, then the seeded generator (if a seed was given)."""

    seed: int | None = None
    prerolled: list[int] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed) if self.seed is not None else random.Random()
        self._next = 0

    def _face(self, sides: int, purpose: str) -> tuple[int, str]:
        if self._next < len(self.prerolled):
            face = self.prerolled[self._next]
            self._next += 1
            if not 1 <= face <= sides:
                raise DecisionError(f"pre-rolled die #{self._next} is {face}, but this roll "
                                    f"({purpose}) needs a d{sides}", path="$.dice")
            return face, f"pre-rolled #{self._next}"
        source = f"seed {self.seed}" if self.seed is not None else "unseeded"
        return self._random.randint(1, sides), source

    def roll(self, dice: str, purpose: str) -> Roll:
        match = _DICE.match(dice)
        if not match:
            raise DecisionError(f"not a dice expression: {dice!r}")
        count, sides = int(match.group(1) or 1), int(match.group(2))
        faces, sources = [], []
        for _ in range(count):
            face, source = self._face(sides, purpose)
            faces.append(face)
            sources.append(source)
        roll = Roll(dice, faces, sum(faces), ", ".join(dict.fromkeys(sources)), purpose)
        self.rolls.append(roll)
        return roll

    def pick(self, count: int, purpose: str) -> int:
        """Index of a random pick among `count` equal options, rolled as a d<count>."""
        if count == 1:
            return 0
        return self.roll(f"d{count}", purpose).total - 1
