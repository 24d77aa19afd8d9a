"""Exact odds on the `chance` test pack, where every probability is worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest

from tests.conftest import TOY_PACKS, engine_for
from whybot.engine import limits
from whybot.engine.errors import DecisionError
from whybot.engine.limits import LimitError, Limits
from whybot.engine.odds.distribution import odds
from whybot.engine.odds.leaves import Rolled, RollSpec, compact, essential
from whybot.engine.odds.replay import multiset_probability
from whybot.facts.snapshot import parse_snapshot


@pytest.fixture(scope="module")
def chance():
    return engine_for(TOY_PACKS, "chance")


def situation(engine, text: str):
    return parse_snapshot("pack: chance\n" + text, "inline.yaml", engine.pack)


def distribution(found) -> dict[str, Fraction]:
    return {o.decision.get("result", o.decision.get("error")): o.probability
            for o in found.outcomes}


@pytest.fixture()
def limited():
    """Set limits for one test, then put the previous ones back."""
    previous = limits.current()
    yield lambda **changes: limits.use(replace(Limits(), **changes))
    limits.use(previous)


def test_a_sum_of_three_dice_branches_on_56_multisets_not_216_sequences(chance):
    """3d6 ≥ 10 → high. Sums 3..9 come up 1+3+6+10+15+21+25 = 81 ways of 216, so
    P(high) = 135/216 = 5/8. One run finds the roll, then one run per multiset: C(8, 3) = 56."""
    found = odds(chance, situation(chance, "mode: sum"))
    assert distribution(found) == {"high": Fraction(5, 8), "low": Fraction(3, 8)}
    assert found.runs == 1 + 56


def test_successes_merge_so_the_roll_after_them_is_walked_once_per_count(chance):
    """3d6, a hit on 5 or 6 (p = 1/3); two hits or more → one more d6, then `hit`.
    P(hit) = 3·(1/3)²·(2/3) + (1/3)³ = 6/27 + 1/27 = 7/27. The 56 multisets come to four hit
    counts; only counts 2 and 3 roll again, so the walk makes 1 + 56 + 2·6 = 69 runs (without
    merging, every multiset with two hits or more would roll its own d6)."""
    found = odds(chance, situation(chance, "mode: hits"))
    assert distribution(found) == {"miss": Fraction(20, 27), "hit": Fraction(7, 27)}
    assert found.runs == 69
    hit = next(o for o in found.outcomes if o.decision["result"] == "hit")
    assert [sorted(step.values) for step in hit.paths[0]] == [[2, 3], [1, 2, 3, 4, 5, 6]]


def test_a_random_pick_among_three_equal_options_is_a_d3(chance):
    """Nothing tells the three tokens apart, so the dice pick: 1/3 each."""
    found = odds(chance, situation(chance, "mode: pick\ntokens: [{name: a}, {name: b}, "
                                           "{name: c}]"))
    assert sorted(o.decision["choices"]["picked"]["name"] for o in found.outcomes) == \
        ["a", "b", "c"]
    assert {o.probability for o in found.outcomes} == {Fraction(1, 3)}
    assert found.outcomes[0].paths[0][0].spec.dice == "1d3"


def test_pre_rolled_dice_leave_the_decision_certain(chance):
    found = odds(chance, situation(chance, "mode: sum\ndice: [6, 5, 1]"))
    assert found.certain and distribution(found) == {"high": 1}
    assert found.outcomes[0].paths == [()]
    assert found.runs == 1


def test_prerolled_zero_sets_the_snapshots_dice_aside(chance):
    found = odds(chance, situation(chance, "mode: sum\ndice: [6, 5, 1]"), prerolled=0)
    assert distribution(found) == {"high": Fraction(5, 8), "low": Fraction(3, 8)}
    assert found.prerolled == 0


def test_a_failure_on_some_dice_is_an_outcome_and_on_all_of_them_the_error(chance):
    """A 1 leads to a page nobody wrote: 1/6 of the time the procedure fails."""
    found = odds(chance, situation(chance, "mode: fail"))
    assert distribution(found) == {
        "fine": Fraction(5, 6),
        "the procedure leads to page 'nowhere_1', which does not exist": Fraction(1, 6)}
    with pytest.raises(DecisionError, match="nowhere_1"):
        odds(chance, situation(chance, "mode: fail\ndice: [1]"))


def test_a_level_over_the_bound_is_refused_with_a_certain_lower_count(chance, limited):
    """Four 1d6 in a row: levels of 1, 6, 36 runs; the next needs 216 more, so at least
    1 + 6 + 36 + 216 = 259 runs, over 50."""
    limited(odds_runs=50)
    with pytest.raises(LimitError, match=r"at least 259 runs .* odds_runs = 50 .*--samples"):
        odds(chance, situation(chance, "mode: chain\ncount: 4"))


def test_a_hopeless_walk_is_refused_early_from_an_estimate(chance):
    """Eight 1d6 in a row: 1 + 6 + … + 6⁸ = 2,015,539 runs; random descents estimate it."""
    with pytest.raises(LimitError, match=r"about 2,015,539 runs .*estimated from 16 random"):
        odds(chance, situation(chance, "mode: chain\ncount: 8"))


def test_too_many_multisets_in_one_roll_are_refused_before_any_is_run(chance, limited):
    """20d6 has C(25, 20) = 53,130 multisets."""
    limited(odds_runs=1000)
    with pytest.raises(LimitError, match="at least 53,131 runs"):
        odds(chance, situation(chance, "mode: sum\ncount: 20"))


def test_the_time_limit_refuses_too(chance, limited):
    limited(odds_seconds=0)
    with pytest.raises(LimitError, match="did not finish in 0 s"):
        odds(chance, situation(chance, "mode: sum"))


def test_samples_are_labelled_reproducible_and_near_the_exact_odds(chance):
    hits = situation(chance, "mode: hits")
    first = odds(chance, hits, samples=400, seed=3)
    assert first.method == "samples" and first.samples == 400 and first.seed == 3
    assert distribution(first) == distribution(odds(chance, hits, samples=400, seed=3))
    assert first.total() == 1
    hit = next(o for o in first.outcomes if o.decision["result"] == "hit")
    assert abs(float(hit.probability) - 7 / 27) < 4 * first.stderr(hit)


def test_samples_over_the_run_limit_are_refused(chance, limited):
    limited(odds_runs=10)
    with pytest.raises(LimitError, match="11 samples"):
        odds(chance, situation(chance, "mode: sum"), samples=11)


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (4, 3), (2, 8)])
def test_multiset_probabilities_sum_to_one(count, sides):
    faces = combinations_with_replacement(range(1, sides + 1), count)
    assert sum(multiset_probability(f, sides) for f in faces) == 1


def test_paths_equal_but_for_one_roll_merge_into_one():
    a, b = RollSpec("1d6", "first", ""), RollSpec("1d4", "second", "")
    paths = [(Rolled(a, frozenset([x])), Rolled(b, frozenset([y])))
             for x in (1, 2) for y in (3, 4)] + [(Rolled(a, frozenset([5])),)]
    assert compact(paths) == [(Rolled(a, frozenset([1, 2])), Rolled(b, frozenset([3, 4]))),
                              (Rolled(a, frozenset([5])),)]


def test_a_roll_that_may_show_anything_is_left_out_and_the_rest_merge():
    d8, d6 = RollSpec("1d8", "action", ""), RollSpec("1d6", "check", "")
    paths = [(Rolled(d8, frozenset([1])), Rolled(d6, frozenset(range(1, 7)))),
             (Rolled(d8, frozenset([3])),)]
    assert essential(paths) == [(Rolled(d8, frozenset([1, 3])),)]
    assert essential([(Rolled(d6, frozenset(range(1, 7))),)]) == [()]
