"""The engine's dice: taken in order from the snapshot's pre-rolled dice, then seeded.

Every roll (and every random pick among still-equal options) is logged with what it decided,
so a trace can show it and a table can reproduce it. Pre-rolled dice left unused, or rolls
made after they ran out, are reported: they would otherwise line up with the wrong rolls.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import DecisionError
from ..limits import current as limits


@dataclass
class Roll:
    dice: str
    faces: list[int]
    total: int
    source: str
    purpose: str

    counting: str = ""  # "face >= 4": `total` counts the dice that satisfy it
    labels: tuple[str, ...] = ()  # a draw: `total` is the place of the drawn one among these

    def count(self, hits: int, condition: str) -> None:
        """Make this a success roll: its total is the number of dice satisfying `condition`."""
        self.total = hits
        self.counting = condition

    def draw(self, pool: list[tuple[str, int]]) -> str:
        """Make this a draw from `pool` (name, how many; the die counts them in that order):
        its total becomes the place of the name drawn among the names with any in the pool,
        so that every draw of one name hands the procedure the same value."""
        present = [(name, count) for name, count in pool if count > 0]
        self.labels = tuple(name for name, _ in present)
        self.counting = "drawn from " + ", ".join(f"{count} {name}" for name, count in present)
        face, upto = self.faces[0], 0
        for place, (name, count) in enumerate(present, 1):
            upto += count
            if face <= upto:
                self.total = place
                return name
        raise AssertionError(f"face {face} is past the pool of {upto}")

    @property
    def drawn(self) -> str:
        return self.labels[self.total - 1] if self.labels else ""

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"dice": self.dice, "faces": self.faces, "total": self.total,
                                   "source": self.source, "for": self.purpose}
        if self.labels:
            data.update(drawn=self.drawn, pool=self.counting)
        elif self.counting:
            data["successes"] = self.counting
        return data


@dataclass
class Dice:
    """Pre-rolled faces are used first, then the seeded generator (if a seed was given)."""

    seed: int | None = None
    prerolled: list[int] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    # told of every roll (engine/walk/facts_read.py notes when)
    on_roll: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self._next = 0
        self.beyond = 0  # dice rolled after the pre-rolled ones ran out

    def _face(self, sides: int, purpose: str) -> tuple[int, str]:
        if self._next < len(self.prerolled):
            face = self.prerolled[self._next]
            self._next += 1
            if not 1 <= face <= sides:
                raise DecisionError(f"pre-rolled die #{self._next} is {face}, but this roll "
                                    f"({purpose}) needs a d{sides}", path="$.dice")
            return face, f"pre-rolled #{self._next}"
        if self.prerolled:
            self.beyond += 1
        source = f"seed {self.seed}" if self.seed is not None else "unseeded"
        return self._random.randint(1, sides), source

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        if self.on_roll is not None:
            self.on_roll()
        if not 1 <= sides <= limits().dice_sides:
            raise DecisionError(f"a die needs 1 to {limits().dice_sides} sides, not {sides} "
                                f"({purpose})", hint="the limit dice_sides")
        if not 0 <= count <= limits().dice_count:
            raise DecisionError(f"a roll takes 0 to {limits().dice_count} dice, not {count} "
                                f"({purpose})", hint="the limit dice_count")
        faces, sources = [], []
        for _ in range(count):
            face, source = self._face(sides, purpose)
            faces.append(face)
            sources.append(source)
        roll = Roll(f"{count}d{sides}", faces, sum(faces), ", ".join(dict.fromkeys(sources))
                    or "no dice", purpose)
        self.rolls.append(roll)
        return roll

    def pick(self, count: int, purpose: str) -> int:
        """Index of a random pick among `count` equal options, rolled as a d<count>."""
        if count == 1:
            return 0
        return self.roll(1, count, purpose).total - 1

    def notes(self) -> list[str]:
        """What the table should know about the pre-rolled dice."""
        notes = []
        unused = self.prerolled[self._next:]
        if unused:
            notes.append(f"{len(unused)} pre-rolled dice were not used: {unused} — the "
                         "procedure rolled fewer dice than the snapshot gave")
        if self.beyond:
            source = f"seed {self.seed}" if self.seed is not None else "unseeded"
            notes.append(f"the pre-rolled dice ran out: {self.beyond} more rolled ({source})")
        return notes
