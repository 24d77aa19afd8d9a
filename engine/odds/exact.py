"""Exact odds: every way the dice can fall, in rational arithmetic, level by level.

Each level rolls one more die roll on every path still open. A roll branches on every multiset
of its missing faces, not every ordered sequence (it hands the procedure only its total or its
count of successes, so the order cannot matter): 3d6 is 56 branches, not 216, each with its
multinomial probability as a `Fraction`. Siblings whose roll came to the same value (total,
successes or pick) reach the same state, so the sub-walk after them is explored once, their
probabilities summed; each merge is checked (the merged runs must ask for the same next roll,
or reach the same decision at the finest grain) and a mismatch is an EngineFault.

Before each level, the runs made plus one per multiset still to try is a certain lower bound on
the work; over the limit `odds_runs`, the walk refuses with it. When a level is large, a few
random descents (Knuth's estimator, seeded, so the same snapshot gets the same answer) estimate
the whole walk first, so a hopeless one is refused in seconds rather than after the limit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement

from ..errors import EngineFault
from ..limits import LimitError
from ..limits import current as limits
from .leaves import Leaf, Path
from .replay import SAMPLES_HINT, NeedRoll, Run, Runner, ScriptedDice, multiset_probability, rolled

PROBES = 16  # random descents behind an estimate
PROBE_FROM = 100  # runs a level must need before the walk is estimated
MARGIN = 4  # an estimate refuses only this far over the limit


@dataclass
class _Node:
    """A way the dice can fall so far: the faces to replay, its probability, its path, and the
    roll it needs next."""

    faces: tuple[int, ...]
    probability: Fraction
    path: Path
    need: NeedRoll


def exact(runner: Runner, prefix: list[int]) -> list[Leaf]:
    """Every outcome of the dice after `prefix`, as leaves with exact probabilities."""
    leaves: list[Leaf] = []
    frontier: list[_Node] = []
    _place(tuple(prefix), Fraction(1), (), runner(ScriptedDice(prerolled=list(prefix))),
           leaves, frontier)
    estimated = False
    while frontier:
        pending = sum(node.need.branches() for node in frontier)
        bound = limits().odds_runs
        if runner.runs + pending > bound:
            raise LimitError(f"the exact odds need at least {runner.runs + pending:,} runs of "
                             f"the procedure, over the limit odds_runs = {bound:,} "
                             f"({len(leaves):,} outcomes found, {pending:,} rolls to try next)",
                             hint=SAMPLES_HINT.format("odds_runs"))
        if pending >= PROBE_FROM and not estimated:
            estimated = True
            about = runner.runs + _estimate(frontier, runner)
            if about > MARGIN * bound:
                raise LimitError(f"the exact odds need about {about:,} runs of the procedure "
                                 f"(estimated from {PROBES} random paths of the dice), over "
                                 f"the limit odds_runs = {bound:,}",
                                 hint=SAMPLES_HINT.format("odds_runs"))
        deeper: list[_Node] = []
        for node in frontier:
            pending -= node.need.branches()
            _expand(node, runner, leaves, deeper, pending)
        frontier = deeper
    return leaves


def _expand(node: _Node, runner: Runner, leaves: list[Leaf], deeper: list[_Node],
            pending: int) -> None:
    """Run every multiset of the roll `node` needs; siblings with equal values merge."""
    need = node.need
    merged: dict[int, tuple[Fraction, tuple[int, ...], Run]] = {}
    for faces in combinations_with_replacement(range(1, need.sides + 1), need.missing):
        replay = (*node.faces, *faces)
        run = _replay(runner, replay, need, pending)
        value = run.rolls[need.index].total
        probability = multiset_probability(faces, need.sides)
        if value not in merged:
            merged[value] = (probability, replay, run)
            continue
        first_probability, first_replay, first_run = merged[value]
        if first_run.exact != run.exact:
            raise EngineFault(f"two rolls of the same value led apart ({need}, value {value}): "
                              f"faces {first_replay} and {replay}")
        merged[value] = (first_probability + probability, first_replay, first_run)
    for probability, replay, run in merged.values():
        _place(replay, node.probability * probability,
               (*node.path, rolled(run.rolls[need.index])), run, leaves, deeper)


def _replay(runner: Runner, faces: tuple[int, ...], need: NeedRoll, pending: int) -> Run:
    """A run with these faces, which must roll again the roll that asked for them."""
    run = runner(ScriptedDice(prerolled=list(faces)), pending)
    if len(run.rolls) <= need.index:
        raise EngineFault(f"the decision did not replay the same way: {need} was not rolled "
                          "again")
    return run


def _place(faces: tuple[int, ...], probability: Fraction, path: Path, run: Run,
           leaves: list[Leaf], frontier: list[_Node]) -> None:
    if run.need is not None:
        frontier.append(_Node(faces, probability, path, run.need))
    else:
        assert run.decision is not None
        leaves.append(Leaf(probability, path, run.decision))


def _estimate(frontier: list[_Node], runner: Runner) -> int:
    """About how many more runs the walk needs: the mean, over random descents from random
    open paths, of the runs each level would take if every node were like the one met there.
    A roll's branches merge into at most as many as it has values (a sum of n dice: n·(s−1)+1;
    successes: n+1; a draw: the names in its pool), which is what a level is weighed by."""
    chance = random.Random(0)
    total = 0
    for _ in range(PROBES):
        node = chance.choice(frontier)
        weight, faces, need = len(frontier), node.faces, node.need
        while True:
            total += weight * need.branches()
            picked = sorted(chance.sample(range(need.sides + need.missing - 1), need.missing))
            faces = (*faces, *(at - i + 1 for i, at in enumerate(picked)))
            run = _replay(runner, faces, need, 0)
            if run.need is None:
                break
            made = run.rolls[need.index]
            values = len(made.labels) if made.labels else need.missing + 1 if made.counting \
                else need.missing * (need.sides - 1) + 1
            weight *= min(need.branches(), values)
            need = run.need
    return total // PROBES


__all__ = ["exact"]
