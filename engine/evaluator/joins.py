"""Joins by an index: the entities an `exists` or aggregate need test, when its `where`
requires `field == X` with X read outside it (an earlier alias, a board value, a constant).

The index of a kind by a field is kept on the World (built on first use, so a World must not
outlive a change of its entities). The candidates are still tested against the whole `where`,
in the kind's order, and the combinations counted against the limit are those of a full scan:
an index changes how fast a rule is read, never what it means.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..language.expressions import All, Compare, Condition, Literal, Ref, Value
from ..language.tree_queries import all_refs, kinds_read, scopes

if TYPE_CHECKING:
    from .evaluate import World

Bound = Mapping[str, Mapping[str, Any]]
Wanted = Callable[["World", Bound], Any]


def candidates(kind: str, by: tuple[str, Wanted] | None,
               ) -> Callable[[World, Bound], Sequence[Any]]:
    """fn(world, bound) → the entities of `kind` worth testing: all of them, or (`by`: a field
    and the value fn of what it must equal) those whose field equals it. Counts a full scan."""
    if by is None:
        def everything(world: World, bound: Bound) -> Sequence[Any]:
            items = world.entities.get(kind, [])
            world.spend(len(items))
            return items
        return everything
    field, wanted = by

    def indexed(world: World, bound: Bound) -> Sequence[Any]:
        items = world.entities.get(kind, [])
        world.spend(len(items))
        value = wanted(world, bound)
        if value is None:
            return []  # an absent value equals nothing
        buckets = _index(world, kind, field, items)
        key = _key(value)
        if buckets is None or key is None:
            return items
        return buckets.get(key, [])
    return indexed


def equality(alias: str, where: Condition | None) -> tuple[str, Value] | None:
    """(field, X) for a conjunct `alias.field == X` of `where` that X can be computed
    for outside it (X a constant or a name not declared inside `where`), placed before any
    part that reads entities (so skipping an entity skips no counted combination)."""
    if where is None:
        return None
    inner = set(scopes(where))
    if alias in inner:
        return None  # the alias is declared again inside: its fields mean another entity
    parts = where.items if isinstance(where, All) else (where,)
    for part in parts:
        if kinds_read(part):
            return None
        if not isinstance(part, Compare) or part.op != "==":
            continue
        for own, other in ((part.left, part.right), (part.right, part.left)):
            if isinstance(own, Ref) and own.scope == alias and isinstance(other, Literal | Ref) \
                    and not any(r.scope == alias or r.scope in inner for r in all_refs(other)):
                return own.name, other
    return None


def _key(value: Any) -> tuple[int, Any] | None:
    """Index keys equal exactly when `equal` holds: numbers by value, else same type."""
    kind = type(value)
    if kind is bool:
        return 1, value
    if kind is int or kind is float:
        return 0, value
    if kind is str:
        return 2, value
    return None


def _index(world: World, kind: str, field: str, items: Sequence[Any],
           ) -> dict[tuple[int, Any], list[Any]] | None:
    """field value → the entities having it, in order; None if a value cannot be a key."""
    cached = world.index.get((kind, field))
    if cached is not None and cached[0] is items:
        return cached[1]
    buckets: dict[tuple[int, Any], list[Any]] = {}
    for entity in items:
        value = entity.get(field)
        if value is None:
            continue
        key = _key(value)
        if key is None:
            world.index[(kind, field)] = (items, None)
            return None
        buckets.setdefault(key, []).append(entity)
    world.index[(kind, field)] = (items, buckets)
    return buckets


__all__ = ["candidates", "equality"]
