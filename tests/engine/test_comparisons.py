"""A name compared with a constant is read in one closure (`comparisons.against_constant`): it
must say exactly what `compare` says of the two values, for a board value and an entity's
field alike, whatever types meet (absent values, booleans against numbers, ints and floats)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from whybot.engine.budget import Budget
from whybot.engine.evaluator.comparisons import compare
from whybot.engine.evaluator.evaluate import World, holds
from whybot.engine.language.parser import parse

CONSTANTS = {"3": 3, "2.5": 2.5, "0": 0, "1": 1, "true": True, "false": False, "'red'": "red"}
values = st.sampled_from([None, 0, 1, 3, 2.5, 3.0, True, False, "red", "blue", "3"])
operators = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
constants = st.sampled_from(sorted(CONSTANTS))


@settings(max_examples=300, deadline=None)
@given(values, operators, constants)
def test_a_board_value_against_a_constant_is_compared_as_compare_does(value, op, written):
    world = World({} if value is None else {"x": value}, {}, Budget(10**6))
    assert holds(parse(f"x {op} {written}", frozenset()), world) == \
        compare(op, value, CONSTANTS[written])


@settings(max_examples=300, deadline=None)
@given(values, operators, constants)
def test_an_entity_field_against_a_constant_is_compared_as_compare_does(value, op, written):
    item = {} if value is None else {"v": value}
    world = World({}, {"item": [item]}, Budget(10**6))
    condition = parse(f"exists item (v {op} {written})", frozenset({"item"}))
    assert holds(condition, world) == compare(op, value, CONSTANTS[written])
