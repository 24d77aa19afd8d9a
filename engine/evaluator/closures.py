"""The evaluator's trees compiled once into Python closures, so reading a rule costs calls, not
an interpretation of its tree each time.

Every function here builds, for one node, the closure that computes exactly what
`evaluate.py` says the node means (absent values fail every comparison, `//` and `%` by zero
are absent, an `and` is a search in which each `exists` binds its alias for the parts after
it). A closure is kept on its node (`_fn` attributes; they are not pickled, and are rebuilt on
first use after a pack is loaded from the disk cache).

Joins: an `exists` or aggregate whose `where` requires `field == X` takes its candidates from
an index of the kind by that field (`joins.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..language.expressions import (
    Aggregate,
    All,
    Any_,
    Arith,
    Compare,
    Condition,
    Exists,
    Extreme,
    Literal,
    Member,
    Not,
    Ref,
    Value,
)
from ..language.tree_queries import negation_normal
from .comparisons import EMPTY, against_constant, arithmetic, compare, equal, number
from .joins import candidates, equality

if TYPE_CHECKING:
    from .evaluate import World

Bound = Mapping[str, Mapping[str, Any]]
Fn = Callable[["World", Bound], Any]
Search = Callable[["World", Bound], Iterator[Any]]
def _kept(node: Any, slot: str, build: Callable[[Any], Any]) -> Any:
    fn = node.__dict__.get(slot)
    if fn is None:
        fn = build(node)
        object.__setattr__(node, slot, fn)
    return fn


def value_fn(node: Value) -> Fn:
    """fn(world, bound) → the value, or None when it is absent."""
    return _kept(node, "_fn_value", _value)


def condition_fn(node: Condition) -> Fn:
    """fn(world, bound) → whether a condition already in negation normal form holds."""
    return _kept(node, "_fn_condition", _condition)


def holds_fn(node: Condition) -> Fn:
    """fn(world, bound) → whether a condition holds, read in negation normal form."""
    return _kept(node, "_fn_holds", lambda n: condition_fn(negation_normal(n)))


def evaluation_fn(node: Value | Condition) -> Fn:
    """fn(world, bound) → a value, or whether a condition holds (read in NNF)."""
    return _kept(node, "_fn_evaluation", lambda n: value_fn(n) if isinstance(
        n, Literal | Ref | Arith | Extreme | Aggregate) else holds_fn(n))


def witnesses_fn(node: Exists) -> Search:
    """fn(world, bound) → the entities satisfying an `exists` (in NNF), in the kind's order."""
    return _kept(node, "_fn_witnesses", _witnesses)


def bindings_fn(node: Condition) -> Search:
    """fn(world, bound) → every combination of entities (alias → entity) satisfying an NNF
    condition, each a new dict."""
    return _kept(node, "_fn_bindings", _bindings)


# --- values -------------------------------------------------------------------------------


def _value(node: Value) -> Fn:
    if isinstance(node, Literal):
        constant = node.value
        return lambda world, bound: constant
    if isinstance(node, Ref):
        name, scope = node.name, node.scope
        if scope is None:
            return lambda world, bound: world.board.get(name)
        return lambda world, bound: bound.get(scope, EMPTY).get(name)
    if isinstance(node, Arith):
        left, right, op = value_fn(node.left), value_fn(node.right), node.op
        return lambda world, bound: arithmetic(op, left(world, bound), right(world, bound))
    if isinstance(node, Extreme):
        parts = [value_fn(item) for item in node.items]
        pick = max if node.op == "max" else min

        def extreme(world: World, bound: Bound) -> Any:  # of the values present
            items = [v for part in parts if number(v := part(world, bound))]
            return pick(items) if items else None
        return extreme
    if isinstance(node, Aggregate):
        return _aggregate(node)
    raise TypeError(node)


def _aggregate(node: Aggregate) -> Fn:
    """count / sum / max / min / any / all over the entities of a kind that satisfy `where`."""
    members, alias, op = _members(node), node.alias, node.op
    if op == "count":
        return lambda world, bound: len(members(world, bound))
    if op == "any":
        return lambda world, bound: bool(members(world, bound))
    if op == "all":
        test = holds_fn(node.of)  # type: ignore[arg-type]
        return lambda world, bound: all(test(world, scope) for scope in
                                        _each(bound, alias, members(world, bound)))
    of = value_fn(node.of)  # type: ignore[arg-type]
    pick = sum if op == "sum" else max if op == "max" else min

    def gathered(world: World, bound: Bound) -> Any:
        values = [v for v in (of(world, scope) for scope in
                              _each(bound, alias, members(world, bound))) if number(v)]
        return pick(values) if values or op == "sum" else None
    return gathered


def _each(bound: Bound, alias: str, entities: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """`bound` with `alias` bound to each entity in turn: one dict for all of them, changed
    in place (no dict per combination). Who reads it must not keep it past its turn."""
    scope = dict(bound)
    for entity in entities:
        scope[alias] = entity
        yield scope


def _members(node: Aggregate) -> Callable[[World, Bound], list[Any]]:
    where = holds_fn(node.where) if node.where is not None else None
    candidates, alias = _candidates(node.kind, node.alias, node.where), node.alias
    if where is None:
        return lambda world, bound: list(candidates(world, bound))
    return lambda world, bound: [scope[alias] for scope in
                                 _each(bound, alias, candidates(world, bound))
                                 if where(world, scope)]


# --- conditions ---------------------------------------------------------------------------


def _condition(node: Condition) -> Fn:
    if isinstance(node, Compare):
        direct = against_constant(node)
        if direct is not None:
            return direct
        left, right, op = value_fn(node.left), value_fn(node.right), node.op
        if op == "==":
            return lambda world, bound: equal(left(world, bound), right(world, bound))
        return lambda world, bound: compare(op, left(world, bound), right(world, bound))
    if isinstance(node, Member):
        value, options, negated = value_fn(node.value), node.options, node.negated

        def member(world: World, bound: Bound) -> bool:
            found = value(world, bound)
            if found is None:
                return False
            return any(equal(found, option) for option in options) != negated
        return member
    if isinstance(node, Not):  # only `not exists` survives negation normal form
        inner = condition_fn(node.item)
        return lambda world, bound: not inner(world, bound)
    if isinstance(node, All):
        return _all_hold(node.items)
    if isinstance(node, Any_):
        parts = [condition_fn(item) for item in node.items]
        return lambda world, bound: any(part(world, bound) for part in parts)
    if isinstance(node, Exists):
        search = witnesses_fn(node)
        return lambda world, bound: next(search(world, bound), None) is not None
    raise TypeError(node)


def _all_hold(items: tuple[Condition, ...]) -> Fn:
    """An `and` is a search: each `exists` binds its alias for the parts after it (a join)."""
    if not items:
        return lambda world, bound: True
    first = items[0]
    if len(items) == 1 and not isinstance(first, Exists):
        return condition_fn(first)
    rest = _all_hold(items[1:])
    if isinstance(first, Exists):
        search, alias = witnesses_fn(first), first.alias
        return lambda world, bound: any(rest(world, scope)
                                        for scope in _each(bound, alias, search(world, bound)))
    test = condition_fn(first)
    return lambda world, bound: test(world, bound) and rest(world, bound)


def _witnesses(node: Exists) -> Search:
    where = condition_fn(node.where) if node.where is not None else None
    candidates, alias = _candidates(node.kind, node.alias, node.where), node.alias

    def search(world: World, bound: Bound) -> Iterator[Any]:
        if where is None:
            yield from candidates(world, bound)
            return
        for scope in _each(bound, alias, candidates(world, bound)):
            if where(world, scope):
                yield scope[alias]
    return search


def _bindings(node: Condition) -> Search:
    if isinstance(node, Any_):
        parts = [bindings_fn(item) for item in node.items]

        def either(world: World, bound: Bound) -> Iterator[dict]:
            for part in parts:
                yield from part(world, bound)
        return either
    if isinstance(node, All):
        return _every_all(node.items)
    if isinstance(node, Exists):
        return _every_all((node,))
    test = condition_fn(node)

    def single(world: World, bound: Bound) -> Iterator[dict]:
        if test(world, bound):
            yield dict(bound)
    return single


def _every_all(items: tuple[Condition, ...]) -> Search:
    if not items:
        def done(world: World, bound: Bound) -> Iterator[dict]:
            yield dict(bound)
        return done
    first, rest = items[0], _every_all(items[1:])
    if isinstance(first, Exists):
        search, alias = witnesses_fn(first), first.alias

        def joined(world: World, bound: Bound) -> Iterator[dict]:
            for scope in _each(bound, alias, search(world, bound)):
                yield from rest(world, scope)  # each combination it yields is a copy
        return joined
    if isinstance(first, Any_ | All):
        inner = bindings_fn(first)

        def nested(world: World, bound: Bound) -> Iterator[dict]:
            for found in inner(world, bound):
                yield from rest(world, found)
        return nested
    test = condition_fn(first)

    def filtered(world: World, bound: Bound) -> Iterator[dict]:
        if test(world, bound):
            yield from rest(world, bound)
    return filtered


def _candidates(kind: str, alias: str, where: Condition | None,
                ) -> Callable[[World, Bound], Sequence[Any]]:
    """The entities of `kind` worth testing against `where` (`joins.py`)."""
    found = equality(alias, where)
    return candidates(kind, None if found is None else (found[0], value_fn(found[1])))
