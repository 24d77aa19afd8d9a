"""The odds of the shipped examples: they sum to exactly 1 whatever the dice already rolled, and
they agree with the plainest enumeration there is (every ordered face, one die at a time)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.conftest import KNOWLEDGE, ROOT, engine_for, example_overlays
from whybot.engine import limits
from whybot.engine.errors import WhybotError
from whybot.engine.limits import LimitError, Limits
from whybot.engine.odds.distribution import odds
from whybot.engine.odds.leaves import decision_of, key_of
from whybot.engine.odds.replay import NeedRoll, ScriptedDice
from whybot.engine.walk.dice import Dice
from whybot.facts.snapshot import load_snapshot

FOLDER = ROOT / "facts" / "examples"
EXAMPLES = sorted(p for p in FOLDER.rglob("*.yaml") if p.name != "map.yaml")


def example(path: Path):
    """The engine (with the example's house rules) and the situation of an example."""
    engine = engine_for(KNOWLEDGE, path.relative_to(FOLDER).parts[0],  # its pack
                        example_overlays(path))
    return engine, load_snapshot(path, engine.pack)


def told(run) -> str:
    """The finest key of what a decision came to (a failure is an outcome too)."""
    try:
        return key_of(decision_of(run().decision, "table"))
    except WhybotError as error:
        return key_of({"error": error.message})


def ordered(engine, situation, faces: tuple[int, ...] = ()) -> dict[str, Fraction]:
    """The reference: every ordered sequence of faces after the snapshot's, one die at a time,
    each 1/sides."""
    dice = ScriptedDice(prerolled=[*situation.dice, *faces])
    try:
        key = told(lambda: engine.decide(situation, dice=dice, explain=False))
    except NeedRoll as need:
        found: dict[str, Fraction] = defaultdict(Fraction)
        for face in range(1, need.sides + 1):
            for key, p in ordered(engine, situation, (*faces, face)).items():
                found[key] += p / need.sides
        return dict(found)
    return {key: Fraction(1)}


def exact_by_table(engine, situation) -> dict[str, Fraction]:
    return {key_of(o.decision): o.probability
            for o in odds(engine, situation, by="table").outcomes}


SMALL = [("arcs/demo.yaml", 0), ("arcs/construction_starport.yaml", 0),
         ("sparta_athens/raid_tied_siege.yaml", 0),
         ("sparta_athens/deployment_tied_before_disadvantaged.yaml", 0),
         ("sparta_athens/new_mobilisation_no_force.yaml", 0),
         ("yellow_scarves/invasion_won.yaml", 0),
         ("yellow_scarves/turn_round1_invade.yaml", 1)]


@pytest.mark.parametrize(("name", "kept"), SMALL, ids=[n for n, _ in SMALL])
def test_the_exact_odds_agree_with_every_ordered_sequence_of_faces(name: str, kept: int):
    """Multisets, multinomial weights and merged siblings give what the plain enumeration of
    every face in order gives, decision by decision, at the finest grain."""
    engine, situation = example(FOLDER / name)
    situation = replace(situation, dice=situation.dice[:kept])
    assert exact_by_table(engine, situation) == ordered(engine, situation)


@contextmanager
def runs_at_most(runs: int) -> Iterator[None]:
    previous = limits.current()
    limits.use(Limits(odds_runs=runs))
    try:
        yield
    finally:
        limits.use(previous)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXAMPLES), st.integers(0, 2**32), st.integers(0, 2))
def test_the_odds_of_every_decision_sum_to_exactly_one(path: Path, seed: int, unrolled: int):
    """Roll the example's dice from a seed, keep all but the last `unrolled` rolls as the
    snapshot's pre-rolled dice, and enumerate the rest: the probabilities are positive, sum
    to exactly 1, and the seeded decision is among the outcomes. (Within 100 runs, to keep
    the suite quick: a walk refused over that bound proves nothing either way. Some never
    end: a roll-off that re-rolls its ties has no last level.)"""
    engine, situation = example(path)
    dice = Dice(seed)
    seeded = told(lambda: engine.decide(situation, dice=dice, explain=False))
    kept = dice.rolls[:max(len(dice.rolls) - unrolled, 0)]
    situation = replace(situation, dice=[face for roll in kept for face in roll.faces])
    with runs_at_most(100):
        try:
            found = odds(engine, situation, by="table")
        except LimitError:
            reject()
    assert sum(o.probability for o in found.outcomes) == 1
    assert all(o.probability > 0 for o in found.outcomes)
    assert seeded in {key_of(o.decision) for o in found.outcomes}
