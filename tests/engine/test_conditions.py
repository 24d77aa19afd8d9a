"""The condition language: parsing, and the evaluator agreeing with durable_rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whybot.engine.compiler import compile_decisions, key
from whybot.engine.conditions import ConditionSyntaxError, parse
from whybot.engine.evaluate import World, holds
from whybot.engine.host import Session, rule_host
from whybot.engine.model import Procedure, Rule

NUMBERS = ("coins", "gems")
FLAGS = ("ready", "angry")


def atoms():
    comparators = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    number = st.tuples(st.sampled_from(NUMBERS), comparators,
                       st.integers(-2, 6)).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
    flag = st.sampled_from(FLAGS)
    member = st.tuples(st.sampled_from(["mood"]), st.booleans(),
                       st.lists(st.sampled_from(["calm", "angry", "sad"]), max_size=2)).map(
        lambda t: f"{t[0]} {'not in' if t[1] else 'in'} [{', '.join(repr(v) for v in t[2])}]")
    sums = st.tuples(st.sampled_from(NUMBERS), st.integers(0, 3), st.integers(-1, 8)).map(
        lambda t: f"{t[0]} + {t[1]} >= {t[2]}")
    return st.one_of(number, flag, member, sums)


conditions = st.recursive(
    atoms(),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) and ({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) or ({t[1]})"),
        inner.map(lambda c: f"not ({c})"),
    ),
    max_leaves=6,
)

boards = st.fixed_dictionaries({
    "coins": st.integers(0, 5), "gems": st.integers(0, 5), "ready": st.booleans(),
    "angry": st.booleans(), "mood": st.sampled_from(["calm", "angry", "sad"]),
})


@given(conditions)
def test_printing_a_condition_parses_back_to_the_same_tree(text):
    tree = parse(text)
    assert parse(str(tree)) == tree


@given(st.text(max_size=30))
def test_the_parser_never_fails_other_than_with_a_syntax_error(text):
    try:
        parse(text)
    except ConditionSyntaxError as exc:
        assert exc.column >= 1


@pytest.mark.parametrize(("text", "column"), [("coins >", 8), ("(ready", 7), ("a $ b", 3),
                                              ("1", 2), ("'x'", 4), ("exists (x)", 8), ("a__b", 1)])
def test_syntax_errors_point_at_the_column(text, column):
    with pytest.raises(ConditionSyntaxError) as caught:
        parse(text)
    assert caught.value.column == column


def _fires(text: str, board: dict, tokens: tuple[dict, ...] = ()) -> bool:
    """Compile `text` as a one-rule page and ask durable_rules whether it fires."""
    rule = Rule(id="r", procedure="p", kind="decision", priority=1, when=parse(text),
                when_text=text, then={"stop": "x"}, says="", cite="", salience=0, file="t",
                line=1, order=0)
    page = Procedure(name="p", title="p", source="", kind="decision", rules=[rule])
    host = rule_host()
    name = host.unique_name("agreement")
    _, definition = compile_decisions(page, name, None)
    host.register(name, definition, lambda *args: None)
    with Session(host, name) as session:
        session.assert_fact({"t": "board", **{key(n): v for n, v in board.items()}})
        for index, token in enumerate(tokens):
            session.assert_fact({"t": "e", "kind": "token", "#": index, **token})
        session.post({"t": "evaluate", "from": 1})
        return any(fired.startswith("r#") for fired, _ in session.fired)


@settings(max_examples=150, deadline=None)
@given(conditions, boards)
def test_the_evaluator_agrees_with_durable_rules(text, board):
    assert _fires(text, board) == holds(parse(text), World(board))


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 5))
def test_board_values_inside_exists_agree_with_the_evaluator(board, size):
    text = "exists token as t (size >= board.coins and board.ready or size == 2)"
    tokens = ({"size": size},)
    assert _fires(text, board, tokens) == holds(parse(text), World(board, {"token": list(tokens)}))


def test_true_and_false_are_whole_conditions():
    assert holds(parse("true"), World({})) and not holds(parse("false"), World({}))
