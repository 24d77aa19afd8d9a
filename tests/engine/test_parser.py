"""The rule language: parsing to trees, printing back, and errors that point at the column."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.engine.strategies import conditions
from whybot.engine.language.expressions import (
    Aggregate,
    Arith,
    Compare,
    Exists,
    Extreme,
    Literal,
    Ref,
)
from whybot.engine.language.parser import parse, parse_setting, parse_value
from whybot.engine.language.tokens import ConditionSyntaxError
from whybot.engine.language.unparse import text

KINDS = frozenset({"token", "slot", "province"})


@given(conditions)
def test_printing_a_condition_parses_back_to_the_same_tree(written):
    tree = parse(written, KINDS)
    assert parse(str(tree), KINDS) == tree


@given(conditions)
def test_a_tree_written_once_is_written_alike_again_and_travels_without_its_text(written):
    tree = parse(written, KINDS)
    first = str(tree)
    assert str(tree) is first  # kept, not written again
    assert first == text(tree)
    copy = pickle.loads(pickle.dumps(tree))
    assert "_text" not in copy.__dict__  # a cache entry carries the tree, not its text
    assert str(copy) == first


@given(st.text(max_size=40))
def test_the_parser_never_fails_other_than_with_a_syntax_error(text):
    try:
        parse(text, KINDS)
    except ConditionSyntaxError as exc:
        assert exc.column >= 1


@pytest.mark.parametrize(("text", "column"), [("coins >", 8), ("(ready", 7), ("a $ b", 3),
                                              ("1", 2), ("'x'", 4), ("exists (x)", 8),
                                              ("a__b", 1), ("sum(token)", 1)])
def test_syntax_errors_point_at_the_column(text, column):
    with pytest.raises(ConditionSyntaxError) as caught:
        parse(text, KINDS)
    assert caught.value.column == column


def test_deep_nesting_is_a_syntax_error_not_a_recursion_error():
    with pytest.raises(ConditionSyntaxError, match="nested more than"):
        parse("(" * 500 + "ready" + ")" * 500)
    with pytest.raises(ConditionSyntaxError, match="nested more than"):
        parse("not " * 500 + "ready")


def test_arithmetic_binds_tighter_than_comparison_and_multiplication_tighter_than_sums():
    tree = parse("coins + gems * 2 >= 10 - coins // 3", KINDS)
    assert tree == Compare(Arith(Ref("coins"), "+", Arith(Ref("gems"), "*", Literal(2))), ">=",
                           Arith(Literal(10), "-", Arith(Ref("coins"), "//", Literal(3))))
    assert parse("(coins + gems) % 2 == 0", KINDS).left.op == "%"


def test_aggregates_read_their_kind_and_max_of_values_is_a_number():
    count = parse_value("count(token where size >= 2)", KINDS)
    assert isinstance(count, Aggregate) and count.op == "count" and count.kind == "token"
    assert count.where == Compare(Ref("size", "token"), ">=", Literal(2))
    total = parse_value("sum(province as p where p.mine, p.units)", KINDS)
    assert total.alias == "p" and total.of == Ref("units", "p")
    assert isinstance(parse_value("max(coins, gems + 1)", KINDS), Extreme)
    assert isinstance(parse_value("max(token, size)", KINDS), Aggregate)
    assert parse("all(province where mine, locked)", KINDS).left.op == "all"


def test_an_aggregate_alias_means_nothing_after_it_closes():
    tree = parse("count(token as t) > 0 and t.size", KINDS)
    assert tree.items[1] == Compare(Ref("t.size"), "==", Literal(True))


def test_exists_binds_its_alias_for_the_joins_that_follow():
    tree = parse("exists token as t (size > 1) and exists slot (colour == t.colour)", KINDS)
    second = tree.items[1]
    assert isinstance(second, Exists)
    assert second.where == Compare(Ref("colour", "slot"), "==", Ref("colour", "t"))


def test_a_setting_is_a_value_or_a_condition():
    assert parse_setting("coins - 1") == Arith(Ref("coins"), "-", Literal(1))
    assert parse_setting("roll >= 5") == Compare(Ref("roll"), ">=", Literal(5))


def test_one_is_not_true():
    assert parse("x == 1") != parse("x == true")
    assert hash(Literal(1)) != hash(Literal(True)) or Literal(1) != Literal(True)


@pytest.mark.parametrize("text", ["3", "coins + 1", "count(token)", "ready and 4"])
def test_a_number_is_not_a_condition(text):
    with pytest.raises(ConditionSyntaxError, match="not a condition"):
        parse(text, KINDS)


def test_explanations_write_aggregates_and_negations_as_rule_files_do():
    """Why-not lines quote conditions: an aggregate's own fields read bare, and a negated test
    reads `not X` (as written, and after negations are pushed down)."""
    from whybot.engine.language.tree_queries import negation_normal

    for written in ("not any(province where mine and not locked)",
                    "count(province where mine and board.round == 3) > 1",
                    "count(province as p where p.mine) > 1"):
        assert str(parse(written, KINDS)) == written
        assert parse(str(parse(written, KINDS)), KINDS) == parse(written, KINDS)
    assert str(negation_normal(parse("not any(token where size > 1)", KINDS))) == \
        "not any(token where size > 1)"


def test_a_choice_reads_its_candidates_fields_bare_in_explanations():
    from whybot.engine.language.outcome_parser import parse_outcome

    choice = parse_outcome({"select": {"from": "token", "where": "size > 1",
                                       "order": ["-size", "colour"]}}, KINDS).choices[0]
    assert [str(key) for key in choice.order] == ["highest size", "lowest colour"]
    assert str(choice.candidates()) == "a token with size > 1"
