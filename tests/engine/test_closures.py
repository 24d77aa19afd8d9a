"""The compiled evaluator: joins looked up by index find what a full scan finds, in the same
order, count the same combinations, and keep the rule language's equality (1 is 1.0, true is
not 1); compiled closures never travel with a pickled tree."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from whybot.engine.budget import Budget
from whybot.engine.evaluator.evaluate import World, every_binding, holds, value_of, witnesses
from whybot.engine.language.parser import parse, parse_value

KINDS = frozenset({"token", "slot"})
JOIN = "exists slot as s (open) and exists token as t (colour == s.colour and size >= 1)"


def _scan(slots: list[dict], tokens: list[dict]) -> list[tuple[int, int]]:
    """What the join means, written out as nested loops over the lists."""
    return [(i, j) for i, s in enumerate(slots) if s.get("open") is True
            for j, t in enumerate(tokens)
            if t.get("colour") is not None and t.get("colour") == s.get("colour")
            and type(t.get("size")) is int and t["size"] >= 1]


colours = st.sampled_from(["red", "blue", None])
slot_lists = st.lists(st.fixed_dictionaries({"colour": colours, "open": st.booleans()}),
                      max_size=4)
token_lists = st.lists(st.fixed_dictionaries({"colour": colours, "size": st.integers(0, 3)}),
                       max_size=6)


@settings(max_examples=200, deadline=None)
@given(slot_lists, token_lists)
def test_an_indexed_join_finds_every_combination_a_scan_finds_in_order(slots, tokens):
    world = World({}, {"slot": slots, "token": tokens}, Budget(10**6))
    found = [(_position(slots, b["s"]),
              _position(tokens, b["t"])) for b in every_binding(parse(JOIN, KINDS), world)]
    assert found == _scan(slots, tokens)
    assert holds(parse(JOIN, KINDS), World({}, {"slot": slots, "token": tokens})) == \
        bool(found)


def _position(items: list[dict], entity: dict) -> int:
    return next(i for i, item in enumerate(items) if item is entity)


def test_an_indexed_join_counts_the_combinations_of_a_full_scan():
    slots = [{"colour": "red", "open": True}, {"colour": "blue", "open": True}]
    tokens = [{"colour": c, "size": 1} for c in ("red", "blue", "green", "red")]
    world = World({}, {"slot": slots, "token": tokens}, Budget(10**6))
    list(every_binding(parse(JOIN, KINDS), world))
    assert world.budget.spent == len(slots) + len(slots) * len(tokens)


def test_equality_in_an_index_is_the_rule_languages():
    tokens = [{"size": 1}, {"size": 1.0}, {"size": True}, {"size": "1"}, {"size": None}, {}]
    world = World({"want": 1}, {"token": tokens})
    found = list(witnesses(parse("exists token as t (size == board.want)", KINDS), world))
    assert found == tokens[:2]
    world = World({"want": True}, {"token": tokens})
    assert list(witnesses(parse("exists token as t (size == board.want)", KINDS),
                          world)) == [tokens[2]]
    world = World({}, {"token": tokens})  # an absent value equals nothing
    assert list(witnesses(parse("exists token as t (size == board.want)", KINDS), world)) == []


def test_a_value_that_cannot_be_a_key_falls_back_to_a_scan():
    tokens = [{"size": [1]}, {"size": 1}]
    world = World({"want": 1}, {"token": tokens})
    found = list(witnesses(parse("exists token as t (size == board.want)", KINDS), world))
    assert found == [tokens[1]]


def test_aggregates_over_an_index_count_what_they_should():
    tokens = [{"colour": "red", "size": 2}, {"colour": "blue", "size": 5},
              {"colour": "red", "size": 3}]
    world = World({"c": "red"}, {"token": tokens})
    assert value_of(parse_value("sum(token where colour == board.c, size)", KINDS), world,
                    {}) == 5
    assert value_of(parse_value("count(token where colour == board.c)", KINDS), world, {}) == 2
    assert value_of(parse_value("max(token where colour == 'green', size)", KINDS), world,
                    {}) is None


def test_a_tree_pickles_without_its_closures_and_compiles_again():
    condition = parse(JOIN, KINDS)
    world = World({}, {"slot": [{"colour": "red", "open": True}],
                       "token": [{"colour": "red", "size": 1}]})
    assert holds(condition, world)
    copy = pickle.loads(pickle.dumps(condition))
    assert not any(k.startswith("_fn") for k in copy.__dict__)
    assert copy == condition and holds(copy, world)
