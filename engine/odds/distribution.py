"""The odds of a decision where it depends on dice the snapshot has not pre-rolled.

`odds()` gives the distribution of the bot's decisions: exact (`exact.py`: every way the dice
can fall, rational arithmetic) or, when asked, estimated from samples (`sampling.py`). Which
decisions count as the same, and the dice that lead to each, is `leaves.py`; how a decision is
run again with given dice, `replay.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .exact import exact
from .leaves import Outcome, key_of, tally
from .replay import Runner
from .sampling import sample

if TYPE_CHECKING:
    from ..decide import Engine
    from ..situation import Situation


@dataclass
class Odds:
    """A distribution of decisions: exact, or estimated from samples."""

    method: str  # "exact" or "samples"
    by: str
    outcomes: list[Outcome]
    runs: int
    prerolled: int  # how many of the snapshot's dice were used as given
    samples: int = 0
    seed: int | None = None

    @property
    def certain(self) -> bool:
        """One decision whatever the dice (or no die left to roll)."""
        return self.method == "exact" and len(self.outcomes) == 1

    def total(self) -> Fraction:
        return sum((o.probability for o in self.outcomes), Fraction(0))

    def stderr(self, outcome: Outcome) -> float:
        """The standard error of a sampled probability (0 for an exact one)."""
        if self.method == "exact":
            return 0.0
        p = float(outcome.probability)
        return math.sqrt(p * (1 - p) / self.samples)


def odds(engine: Engine, situation: Situation, by: str = "actions",
         prerolled: int | None = None, samples: int | None = None, seed: int = 0) -> Odds:
    """The distribution of the decision for `situation`, exact unless `samples` is given.

    `prerolled`: use only the first N of the snapshot's dice (default: all of them) and
    enumerate the rest. A failure that every way of the dice leads to is raised as the error
    `decide` gives; one that only some lead to is an outcome like any other."""
    given = list(situation.dice if prerolled is None else situation.dice[:prerolled])
    runner = Runner(engine, situation, by)
    leaves = exact(runner, given) if samples is None else sample(runner, given, samples, seed)
    outcomes = tally(leaves)
    if samples is None and len(outcomes) == 1 and "error" in outcomes[0].decision:
        raise runner.errors[key_of(outcomes[0].decision)]
    return Odds("exact" if samples is None else "samples", by, outcomes, runner.runs,
                len(given), samples or 0, None if samples is None else seed)


__all__ = ["Odds", "odds"]
