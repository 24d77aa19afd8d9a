"""A plain-Python reading of conditions, beside durable_rules rather than instead of it.

It answers what the rule engine cannot say: *why* a rule did not fire (which part failed, and the
values it saw), and it is the reference evaluator the benchmark compares against. Tests check that
it agrees with durable_rules on every shipped and test snapshot.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .conditions import (
    All,
    Any_,
    Compare,
    Condition,
    Exists,
    Literal,
    Member,
    Not,
    Ref,
    Sum,
    Value,
    all_refs,
    refs,
)

_COMPARE = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


@dataclass
class World:
    """What a condition can see: board values and the entities of each kind."""

    board: Mapping[str, Any]
    entities: Mapping[str, list[Mapping[str, Any]]] = field(default_factory=dict)


def value_of(node: Value, world: World, bound: Mapping[str, Mapping[str, Any]]) -> Any:
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Ref):
        if node.scope is None:
            return world.board.get(node.name)
        return bound.get(node.scope, {}).get(node.name)
    if isinstance(node, Sum):
        left, right = value_of(node.left, world, bound), value_of(node.right, world, bound)
        if not _number(left) or not _number(right):
            return None
        return left + right if node.op == "+" else left - right
    raise TypeError(node)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _compare(op: str, left: Any, right: Any) -> bool:
    if op in ("==", "!="):
        same = (left == right and type(left) is type(right)) or (
            _number(left) and _number(right) and left == right)
        return same if op == "==" else not same
    if not (_number(left) and _number(right)) and not (
            isinstance(left, str) and isinstance(right, str)):
        return False
    return _COMPARE[op](left, right)


def holds(node: Condition, world: World, bound: Mapping[str, Mapping[str, Any]] | None = None,
          ) -> bool:
    bound = bound or {}
    if isinstance(node, Compare):
        return _compare(node.op, value_of(node.left, world, bound),
                        value_of(node.right, world, bound))
    if isinstance(node, Member):
        inside = value_of(node.value, world, bound) in node.options
        return inside != node.negated
    if isinstance(node, Not):
        return not holds(node.item, world, bound)
    if isinstance(node, All):
        return _all_hold(node.items, world, bound)
    if isinstance(node, Any_):
        return any(holds(item, world, bound) for item in node.items)
    if isinstance(node, Exists):
        return any(True for _ in witnesses(node, world, bound))
    raise TypeError(node)


def _all_hold(items: tuple[Condition, ...], world: World,
              bound: Mapping[str, Mapping[str, Any]]) -> bool:
    """An `and` is a search: each `exists` binds its alias for the parts after it (a join)."""
    if not items:
        return True
    first, rest = items[0], items[1:]
    if isinstance(first, Exists):
        return any(_all_hold(rest, world, {**bound, first.alias: entity})
                   for entity in witnesses(first, world, bound))
    return holds(first, world, bound) and _all_hold(rest, world, bound)


def witnesses(node: Exists, world: World, bound: Mapping[str, Mapping[str, Any]]):
    for entity in world.entities.get(node.kind, []):
        inner = {**bound, node.alias: entity}
        if node.where is None or holds(node.where, world, inner):
            yield entity


def describe_values(node: Condition | Value, world: World,
                    bound: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """`hand_counter = 1, initiative = false`: the board values a part of a condition read."""
    bound = bound or {}
    shown: dict[str, str] = {}
    for ref in all_refs(node):
        if ref.scope is None:
            shown.setdefault(str(ref), _show(world.board.get(ref.name)))
        elif ref.scope in bound:
            shown.setdefault(str(ref), _show(bound[ref.scope].get(ref.name)))
    return ", ".join(f"{name} = {value}" for name, value in shown.items())


def _show(value: Any) -> str:
    return str(Literal(value)) if value is not None else "unknown"


def failures(node: Condition, world: World,
             bound: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """Why `node` is false: the failing parts, each with the values it saw. Empty if it holds."""
    bound = bound or {}
    if holds(node, world, bound):
        return []
    if isinstance(node, All):
        reasons: list[str] = []
        inner = dict(bound)
        for item in node.items:
            if isinstance(item, Exists) and _unbound(item, inner):
                reasons.append(f"no {item.kind} with {item.where} for the "
                               f"{' and '.join(_unbound(item, inner))} the rule needs")
                continue
            reasons.extend(failures(item, world, inner))
            if isinstance(item, Exists):
                found = next(witnesses(item, world, inner), None)
                if found is not None:
                    inner[item.alias] = found
        return reasons or [f"no combination satisfies {node}"]
    if isinstance(node, Any_):
        parts = [reason for item in node.items for reason in failures(item, world, bound)]
        return ["none of these held: " + "; ".join(parts)]
    if isinstance(node, Exists):
        found = len(world.entities.get(node.kind, []))
        where = f" with {node.where}" if node.where is not None else ""
        return [f"no {node.kind}{where} (of {found} {node.kind} seen)"]
    if isinstance(node, Not) and isinstance(node.item, Exists):
        match = next(witnesses(node.item, world, bound))
        return [f"there is a {node.item.kind} that rules it out: {_entity(match)}"]
    values = describe_values(node, world, bound)
    return [f"{node} is false ({values})" if values else f"{node} is false"]


def _unbound(node: Exists, bound: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Aliases of earlier `exists` parts this one joins on but that found no entity."""
    if node.where is None:
        return []
    return sorted({r.scope for r in refs(node.where)
                   if r.scope not in (None, node.alias) and r.scope not in bound})


def _entity(entity: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in entity.items() if not k.startswith("_"))
