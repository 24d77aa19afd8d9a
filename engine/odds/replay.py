"""Running a decision again and again with dice that are given, until a roll wants more.

The odds drive the real engine, so they follow exactly the path `decide` would: a run takes
the faces known so far (the snapshot's pre-rolled dice, then those being enumerated) and, when
they run out, the roll asking for more raises `NeedRoll` instead of drawing. A random pick among
k equal options is rolled as a d(k), so it asks the same way. Runs are not resumed (a rule
session cannot be copied): each is a whole decision without explanations, counted, with the
time, against the limits `odds_runs` and `odds_seconds`.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import WhybotError
from ..limits import LimitError
from ..limits import current as limits
from ..walk.dice import Dice, Roll
from .leaves import Rolled, RollSpec, decision_of, key_of

if TYPE_CHECKING:
    from ..decide import Engine
    from ..situation import Situation

SAMPLES_HINT = ("estimate them with `whybot odds --samples N`, or raise the limit with "
                "--limit {}=N")


class NeedRoll(Exception):
    """A roll wants faces nobody gave: `missing` d`sides` for roll number `index`."""

    def __init__(self, index: int, missing: int, sides: int, purpose: str) -> None:
        super().__init__(f"roll #{index + 1} needs {missing}d{sides} more ({purpose})")
        self.index, self.missing, self.sides, self.purpose = index, missing, sides, purpose

    def branches(self) -> int:
        """How many multisets the missing faces can show: one run each."""
        return math.comb(self.sides + self.missing - 1, self.missing)


class ScriptedDice(Dice):
    """Dice whose faces are all given; past the last one, a roll raises NeedRoll."""

    _count = _start = 0

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        self._count, self._start = count, self._next
        return super().roll(count, sides, purpose)

    def _face(self, sides: int, purpose: str) -> tuple[int, str]:
        if self._next >= len(self.prerolled):
            raise NeedRoll(len(self.rolls), self._count - (self._next - self._start), sides,
                           purpose)
        return super()._face(sides, purpose)


def multiset_probability(faces: tuple[int, ...], sides: int) -> Fraction:
    """P(a roll of len(faces) d`sides` shows exactly these faces, in any order)."""
    ways = math.factorial(len(faces))
    for repeats in Counter(faces).values():
        ways //= math.factorial(repeats)
    return Fraction(ways, sides ** len(faces))


def rolled(roll: Roll) -> Rolled:
    """A roll as a step of a path: what it was and the value it handed the procedure."""
    return Rolled(RollSpec(roll.dice, roll.purpose, roll.counting, roll.labels),
                  frozenset([roll.total]))


@dataclass
class Run:
    """What one run came to: a roll it needs, or a decision (an error is one too)."""

    rolls: list[Roll]
    need: NeedRoll | None = None
    decision: dict[str, Any] | None = None
    exact: str = ""  # the finest key, or the roll asked for: what merged runs must share


class Runner:
    """Runs the decision with given dice, counting runs and time against the limits."""

    def __init__(self, engine: Engine, situation: Situation, by: str) -> None:
        self.engine, self.situation, self.by = engine, situation, by
        self.runs = 0
        self.started = time.monotonic()
        self.errors: dict[str, WhybotError] = {}

    def __call__(self, dice: Dice, pending: int = 0) -> Run:
        """One run; `pending`: how many more are known to be needed (for the refusal)."""
        seconds = limits().odds_seconds
        if time.monotonic() - self.started > seconds:
            raise LimitError(f"the odds did not finish in {seconds:,} s ({self.runs:,} runs "
                             f"made, at least {pending:,} more to go)",
                             hint=SAMPLES_HINT.format("odds_seconds"))
        self.runs += 1
        try:
            trace = self.engine.decide(self.situation, dice=dice, explain=False)
        except NeedRoll as need:
            return Run(dice.rolls, need=need, exact=str(need))
        except WhybotError as error:  # where the dice fall this way, the procedure fails
            told = {"error": error.message}
            self.errors.setdefault(key_of(told), error)
            return Run(dice.rolls, decision=told, exact=key_of(told))
        return Run(dice.rolls, decision=decision_of(trace.decision, self.by),
                   exact=key_of(decision_of(trace.decision, "table")))


__all__ = ["SAMPLES_HINT", "NeedRoll", "Run", "Runner", "ScriptedDice", "multiset_probability",
           "rolled"]
