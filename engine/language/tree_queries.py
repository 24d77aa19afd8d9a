"""Reading rule-language trees: what a condition reads (names, entity kinds, scopes,
aggregates) and its normal forms (negations pushed down, disjuncts).

Kept apart from the tree types (`expressions.py`): the loader, the checks, the compiler and the
engine's bookkeeping ask these questions of trees; the parser and the evaluator only build and
read them. The answers are remembered per tree (trees are frozen and hashable).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from .expressions import (
    Aggregate,
    All,
    Any_,
    Arith,
    Compare,
    Condition,
    Exists,
    Extreme,
    Member,
    Not,
    Ref,
)

# --- reading trees ------------------------------------------------------------------------


def children(node: Any) -> Iterator[Any]:
    """The direct sub-trees of a node (values and conditions alike)."""
    if isinstance(node, Arith | Compare):
        yield node.left
        yield node.right
    elif isinstance(node, Extreme):
        yield from node.items
    elif isinstance(node, Aggregate):
        if node.where is not None:
            yield node.where
        if node.of is not None:
            yield node.of
    elif isinstance(node, Member):
        yield node.value
    elif isinstance(node, Exists):
        if node.where is not None:
            yield node.where
    elif isinstance(node, Not):
        yield node.item
    elif isinstance(node, All | Any_):
        yield from node.items


@cache
def all_refs(node: Any) -> tuple[Ref, ...]:
    """Every name a tree mentions, in order (remembered: traces ask on every step)."""
    if isinstance(node, Ref):
        return (node,)
    return tuple(ref for child in children(node) for ref in all_refs(child))


@cache
def board_names(node: Any) -> frozenset[str]:
    """Board names a tree reads (aggregates included: they read their kind's fields)."""
    return frozenset(r.name for r in all_refs(node) if r.scope is None)


@cache
def aggregates(node: Any) -> tuple[Aggregate, ...]:
    """The outermost aggregates of a tree."""
    if isinstance(node, Aggregate):
        return (node,)
    return tuple(a for child in children(node) for a in aggregates(child))


@cache
def kinds_read(node: Any) -> frozenset[str]:
    """Entity kinds a tree quantifies over (exists and aggregates)."""
    found: set[str] = set()
    if isinstance(node, Exists | Aggregate):
        found.add(node.kind)
    for child in children(node):
        found |= kinds_read(child)
    return frozenset(found)


def scopes(node: Any) -> dict[str, str]:
    """alias → kind for every `exists` and aggregate in a tree."""
    found: dict[str, str] = {}
    if isinstance(node, Exists | Aggregate):
        found[node.alias] = node.kind
    for child in children(node):
        found.update(scopes(child))
    return found


def free_scopes(node: Any) -> set[str]:
    """Entity aliases a tree reads but does not declare (what correlates it to outside)."""
    return {r.scope for r in all_refs(node) if r.scope} - set(scopes(node))


def negated_board_names(node: Condition, negated: bool = False) -> set[str]:
    """Board names tested under a `not`: a derivation reading them waits for their rules."""
    if isinstance(node, Compare | Member):
        return set(board_names(node)) if negated else set()
    if isinstance(node, Not):
        return negated_board_names(node.item, not negated)
    if isinstance(node, All | Any_):
        return set().union(*(negated_board_names(i, negated) for i in node.items))
    if isinstance(node, Exists) and node.where is not None:
        return negated_board_names(node.where, negated)
    return set()


def depth(node: Any) -> int:
    """Nesting depth of a tree (bounded by the `depth` limit)."""
    return 1 + max((depth(child) for child in children(node)), default=0)


# --- normal forms -------------------------------------------------------------------------


@cache
def negation_normal(node: Condition, negated: bool = False) -> Condition:
    """Push every `not` down to comparisons and `exists` (`not exists` stays as Not)."""
    if isinstance(node, Not):
        return negation_normal(node.item, not negated)
    if isinstance(node, Compare | Member):
        return node.negate() if negated else node
    if isinstance(node, Exists):
        inner = negation_normal(node.where) if node.where is not None else None
        positive = Exists(node.kind, node.alias, inner)
        return Not(positive) if negated else positive
    if isinstance(node, All | Any_):
        items = tuple(negation_normal(i, negated) for i in node.items)
        return Any_(items) if isinstance(node, All) == negated else All(items)
    raise TypeError(node)


def disjuncts(node: Condition, limit: int) -> list[list[Condition]]:
    """Disjunctive normal form of an NNF condition, at most `limit` alternatives.

    A literal is a Compare, a Member, an Exists (kept whole) or a Not(Exists). Raises
    OverflowError past `limit`, before building more than that many alternatives.
    """
    if isinstance(node, Any_):
        result = [conj for item in node.items for conj in disjuncts(item, limit)]
    elif isinstance(node, All):
        result = [[]]
        for item in node.items:
            parts = disjuncts(item, limit)
            if len(result) * len(parts) > limit:
                raise OverflowError(len(result) * len(parts))
            result = [left + right for left in result for right in parts]
    else:
        result = [[node]]
    if len(result) > limit:
        raise OverflowError(len(result))
    return result
