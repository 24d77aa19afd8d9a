"""The entity fields a compiled rule's patterns test or join on: all that an entity's fact must
hold for the rule to match (`Compiled.fields_from` sends a fact only those), and the values
of each that no test can hold on, which a fact leaves out (`FieldTests`)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any

_OWN = frozenset({"t", "kind", "eid", "id", "sid", "k"})  # what whybot puts on every fact
# The values most fields hold (false, 0, none): each is left out of a fact where every test of
# its field fails on it, as every test fails on a field a fact does not hold. False stands for
# 0 as well: durable_rules compares booleans as the numbers 1 and 0, as Python does.
OMITTABLE = (False, "none", "")
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "$eq": operator.eq, "$neq": operator.ne, "$lt": operator.lt, "$lte": operator.le,
    "$gt": operator.gt, "$gte": operator.ge}

Leaf = tuple[str, str, str, Any]  # alias, operator, field (its code), operand
# the fields a kind's facts hold (`Compiled.fields`): name, code, the values left out
FactFields = tuple[tuple[str, str, tuple[Any, ...]], ...]


def pattern_fields(patterns: list[dict[str, Any]], names: dict[str, str],
                   ) -> set[tuple[str, str]]:
    """(kind, field) for every entity field a rule's patterns test or join on: all that an
    entity's fact must hold for the rule to match as the condition says (`names`: code →
    field)."""
    kinds, leaves = _pattern_leaves(patterns)
    read: list[tuple[str, str]] = []
    for alias, _, name, operand in leaves:
        read.append((alias, name))
        read.extend(_operand_fields(operand, alias))
    return {(kinds[alias], names.get(name, name)) for alias, name in read
            if alias in kinds and name not in _OWN}


class FieldTests:
    """Every test of each entity field in a compiled set of rules: a value of a field that
    each test of it compares false with (a literal's type where Python cannot order it
    counts as true) matches exactly what the field's absence matches, since whybot's
    patterns negate nothing: a fact leaves it out, and is the smaller to encode, match and
    send back (`asserted.content`). A field compared with another field, or computed on,
    is always held."""

    def __init__(self) -> None:
        self.literals: dict[tuple[str, str], list[tuple[str, Any]]] = {}
        self.joined: set[tuple[str, str]] = set()

    def add(self, patterns: list[dict[str, Any]], names: dict[str, str]) -> None:
        """The tests of one rule's patterns (`names`: code → field)."""
        kinds, leaves = _pattern_leaves(patterns)
        for alias, op, name, operand in leaves:
            if isinstance(operand, dict):
                self.joined.update((kinds[other], names.get(read, read))
                                   for other, read in [(alias, name),
                                                       *_operand_fields(operand, alias)]
                                   if other in kinds and read not in _OWN)
            elif alias in kinds and name not in _OWN:
                self.literals.setdefault((kinds[alias], names.get(name, name)), []).append(
                    (op, operand))

    def omitted(self, kind: str, name: str) -> tuple[Any, ...]:
        """The values of `OMITTABLE` a fact of `kind` leaves field `name` out at."""
        if (kind, name) in self.joined:
            return ()
        tests = self.literals.get((kind, name), [])
        return tuple(value for value in OMITTABLE
                     if all(_fails(op, value, literal) for op, literal in tests))


def changed_by_default(fields: Mapping[str, FactFields],
                       defaults: Iterable[tuple[str, str, Any]]) -> frozenset[tuple[str, str]]:
    """(kind, field) whose default (`defaults`: field, kind, default) changes a fact when
    given: a field facts hold, unless its default is one they leave out (none, or a value
    every test of the field fails on)."""
    omitted = {(kind, name): values for kind, held in fields.items()
               for name, _, values in held}
    return frozenset((kind, name) for name, kind, default in defaults
                     if (kind, name) in omitted and default is not None
                     and default not in omitted[kind, name])


def same_as(fields: FactFields, known: list[FactFields]) -> FactFields:
    """An equal tuple made before, if any: a fact made of it is then known to hold what is
    read now without narrowing it (`EntityFacts.update` compares by identity)."""
    return next((same for same in known if same == fields), fields)


def _fails(op: str, value: Any, literal: Any) -> bool:
    if not isinstance(literal, (bool, int, float, str)):
        return False  # null, a list: not compared here
    try:
        return not _COMPARE[op](value, literal)
    except TypeError:  # a string ordered against a number: durable_rules' answer varies
        return False


def _pattern_leaves(patterns: list[dict[str, Any]]) -> tuple[dict[str, str], list[Leaf]]:
    """The kind each alias is of, and every leaf test of the patterns."""
    kinds: dict[str, str] = {}
    leaves: list[Leaf] = []
    for pattern in patterns:
        (alias, test), = pattern.items()
        for op, name, operand in _leaves(test):
            if name == "kind" and not isinstance(operand, dict):
                kinds.setdefault(alias, operand)
            leaves.append((alias, op, name, operand))
    return kinds, leaves


def _leaves(test: dict[str, Any]) -> list[tuple[str, str, Any]]:
    (name, value), = test.items()
    if name in ("$and", "$or"):
        return [leaf for item in value for leaf in _leaves(item)]
    op = "$eq"
    if name.startswith("$"):
        op = name
        (name, value), = value.items()
    return [(op, name, value)]


def _operand_fields(operand: Any, alias: str) -> list[tuple[str, str]]:
    """(alias, field) an operand reads: `{"$m": f}` its own fact, `{"x_p": f}` another's."""
    if not isinstance(operand, dict):
        return []
    (key, value), = operand.items()
    if key in ("$add", "$sub", "$mul"):
        return _operand_fields(value["$l"], alias) + _operand_fields(value["$r"], alias)
    return [(alias if key == "$m" else key, value)]
