"""Hypothesis strategies for conditions over the toy pack's board and entities."""

from __future__ import annotations

from hypothesis import strategies as st

NUMBERS = ("coins", "gems")
FLAGS = ("ready", "angry")


def atoms():
    comparators = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    number = st.tuples(st.sampled_from(NUMBERS), comparators,
                       st.integers(-2, 6)).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
    flag = st.sampled_from(FLAGS)
    member = st.tuples(st.booleans(), st.lists(st.sampled_from(["calm", "angry", "sad"]),
                                               max_size=2)).map(
        lambda t: f"mood {'not in' if t[0] else 'in'} [{', '.join(repr(v) for v in t[1])}]")
    sums = st.tuples(st.sampled_from(NUMBERS), st.integers(0, 3), st.integers(-1, 8)).map(
        lambda t: f"{t[0]} + {t[1]} >= {t[2]}")
    products = st.tuples(st.sampled_from(NUMBERS), st.integers(1, 3), st.integers(0, 9)).map(
        lambda t: f"{t[0]} * {t[1]} < {t[2]}")
    hoisted = st.tuples(st.sampled_from(NUMBERS), st.integers(1, 3), st.integers(0, 3)).map(
        lambda t: f"{t[0]} // {t[1]} == {t[2]}")
    tokens = st.tuples(st.integers(0, 4), st.sampled_from(["red", "blue"])).map(
        lambda t: f"exists token (size >= {t[0]} and colour == '{t[1]}')")
    counted = st.integers(0, 3).map(lambda n: f"count(token where size > 1) >= {n}")
    joined = st.just("exists token as t (size >= 1) and exists slot (colour == t.colour)")
    board_inside = st.integers(0, 4).map(lambda n: f"exists token (size + {n} >= board.coins)")
    return st.one_of(number, flag, member, sums, products, hoisted, tokens, counted, joined,
                     board_inside)


def _combine(inner):
    return st.one_of(
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) and ({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) or ({t[1]})"),
        inner.map(lambda c: f"not ({c})" if "exists" not in c else c),
    )


conditions = st.recursive(atoms(), _combine, max_leaves=5)

boards = st.fixed_dictionaries({
    "coins": st.integers(0, 5), "gems": st.integers(0, 5), "ready": st.booleans(),
    "angry": st.booleans(), "mood": st.sampled_from(["calm", "angry", "sad"]),
})

token_lists = st.lists(st.fixed_dictionaries({"size": st.integers(0, 4),
                                              "colour": st.sampled_from(["red", "blue"])}),
                       max_size=3)
slot_lists = st.lists(st.fixed_dictionaries({"colour": st.sampled_from(["red", "blue"]),
                                             "open": st.booleans()}), max_size=2)
