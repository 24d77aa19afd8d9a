"""Estimated odds: the decision run with the unrolled dice drawn at random, `samples` times.

For when the exact walk is over its bound. Each sample is an ordinary decision whose dice, after
the snapshot's pre-rolled ones, come from a seed drawn from `seed`: the same seed gives the same
estimate. The estimate is labelled as one wherever it is shown, with its standard error.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..limits import LimitError
from ..limits import current as limits
from ..walk.dice import Dice
from .leaves import Leaf
from .replay import Runner


def sample(runner: Runner, prefix: list[int], samples: int, seed: int) -> list[Leaf]:
    """One leaf per sample, each weighing 1/samples (without its dice: a random sample of
    paths would describe nothing)."""
    bound = limits().odds_runs
    if samples > bound:
        raise LimitError(f"{samples:,} samples are over the limit odds_runs = {bound:,}",
                         hint="raise it with --limit odds_runs=N")
    seeds = random.Random(seed)
    leaves = []
    for done in range(samples):
        run = runner(Dice(seeds.getrandbits(64), list(prefix)), samples - done)
        assert run.decision is not None  # ordinary dice never run out
        leaves.append(Leaf(Fraction(1, samples), (), run.decision))
    return leaves


__all__ = ["sample"]
