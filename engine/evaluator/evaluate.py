"""A plain-Python reading of the rule language, beside durable_rules rather than instead of it.

It answers what the rule engine cannot say: *why* a rule did not fire (which part failed, and
the values it saw); it computes what durable_rules has no words for (aggregates, arithmetic in
`set:`); and it is the reference evaluator the benchmark and the agreement tests compare the
engine against. It reads conditions in negation normal form and treats an absent value the way
durable_rules treats a missing property (every comparison with it is false), so both agree.
Each tree is compiled once into closures (`closures.py`); explaining a failure reads the tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..budget import Budget
from ..language.expressions import INTERNAL, Aggregate, All, Any_, Condition, Exists, Not, Value
from ..language.tree_queries import aggregates, all_refs, negation_normal
from ..language.unparse import show
from .closures import (
    bindings_fn,
    condition_fn,
    evaluation_fn,
    holds_fn,
    value_fn,
    witnesses_fn,
)
from .comparisons import arithmetic, compare, number

Bound = Mapping[str, Mapping[str, Any]]
NEAR_MISSES = 8  # entities a near-miss list names before "… and N more"


class World:
    """What a condition can see: board values and the entities of each kind. A view for one
    moment: joins index its entities on first use, so entities must not change while it is
    in use (take a new World after an outcome). With a `budget`, every entity a condition
    tests is counted against it (`budget.py`)."""

    __slots__ = ("board", "budget", "entities", "index")

    def __init__(self, board: Mapping[str, Any],
                 entities: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
                 budget: Budget | None = None) -> None:
        self.board = board
        self.entities = entities if entities is not None else {}
        self.budget = budget
        self.index: dict[tuple[str, str], Any] = {}

    def spend(self, count: int) -> None:
        """Count entity combinations examined; past the limit, stop (a join explosion)."""
        if self.budget is not None:
            self.budget.spend(count, "testing conditions entity by entity")


def value_of(node: Value, world: World, bound: Bound) -> Any:
    """A value, or None when it is absent (an unknown name, arithmetic on one, x // 0)."""
    return value_fn(node)(world, bound)


def evaluate(node: Value | Condition, world: World, bound: Bound | None = None) -> Any:
    """A value, or whether a condition holds (the right side of `set:`, a hoisted test)."""
    return evaluation_fn(node)(world, bound or {})


def aggregate(node: Aggregate, world: World, bound: Bound) -> Any:
    """count / sum / max / min / any / all over the entities of a kind that satisfy `where`."""
    return value_fn(node)(world, bound)


def holds(node: Condition, world: World, bound: Bound | None = None) -> bool:
    """Whether a condition holds, read in negation normal form as the engine reads it."""
    return holds_fn(node)(world, bound or {})


def _holds(node: Condition, world: World, bound: Bound) -> bool:
    return condition_fn(node)(world, bound)


def _witnesses(node: Exists, world: World, bound: Bound) -> Iterator[Mapping]:
    return witnesses_fn(node)(world, bound)


def witnesses(node: Exists, world: World, bound: Bound | None = None) -> Iterator[Mapping]:
    """The entities that satisfy an `exists` (read in negation normal form)."""
    normal = negation_normal(node)
    if isinstance(normal, Exists):
        yield from _witnesses(normal, world, bound or {})


def bindings(node: Condition, world: World) -> dict[str, Mapping]:
    """One combination of entities that satisfies a condition: alias → entity (for traces)."""
    return next(every_binding(node, world), {})


# --- explaining a failure -----------------------------------------------------------------


def describe_values(node: Any, world: World, bound: Bound | None = None) -> str:
    """`hand_counter = 1, initiative = false`: the values a part of a condition read."""
    bound = bound or {}
    shown: dict[str, str] = {}
    for ref in all_refs(node):
        if ref.scope is None:
            shown.setdefault(str(ref), _shown(world.board.get(ref.name)))
        elif ref.scope in bound:
            shown.setdefault(str(ref), _shown(bound[ref.scope].get(ref.name)))
    for part in aggregates(node):
        shown.setdefault(str(part), _shown(aggregate(part, world, bound)))
    return ", ".join(f"{name} = {value}" for name, value in shown.items())


def _shown(value: Any) -> str:
    return show(value) if value is not None else "unknown"


def failures(node: Condition, world: World, bound: Bound | None = None) -> list[str]:
    """Why `node` is false: the failing parts, each with the values it saw. Empty if it holds."""
    return _failures(negation_normal(node), world, dict(bound or {}))


def failures_and_misses(node: Condition, world: World, name_of: Callable[[str, Mapping], str],
                        ) -> tuple[list[str], list[str]]:
    """`failures`, and for each `exists` among them that found no entity: each entity of its
    kind with the first part of the `where` it fails (one rules it out) — what a player checks
    the table against, where the failure says only "no option with … (of 2 option seen)"."""
    misses = _Misses(name_of)
    return _failures(negation_normal(node), world, {}, misses), misses.found


class _Misses:
    """Near misses noted while a failure is explained (`failures_and_misses`)."""

    def __init__(self, name_of: Callable[[str, Mapping], str]) -> None:
        self.name_of = name_of
        self.found: list[str] = []

    def note(self, node: Exists, world: World, bound: dict) -> None:
        assert node.where is not None  # only an `exists` with a `where` has near misses
        entities = world.entities.get(node.kind, [])
        for entity in entities[:NEAR_MISSES]:
            first = _failures(node.where, world, {**bound, node.alias: entity})[0]
            self.found.append(f"{self.name_of(node.kind, entity)}: {first}")
        if len(entities) > NEAR_MISSES:
            self.found.append(f"… and {len(entities) - NEAR_MISSES} more {node.kind}")


def _failures(node: Condition, world: World, bound: dict, misses: _Misses | None = None,
              ) -> list[str]:
    if _holds(node, world, bound):
        return []
    if isinstance(node, All):
        reasons: list[str] = []
        inner = dict(bound)
        for item in node.items:
            if isinstance(item, Exists) and _unbound(item, inner):
                reasons.append(f"no {item.kind} with {item.where} for the "
                               f"{' and '.join(_unbound(item, inner))} the rule needs")
                continue
            reasons.extend(_failures(item, world, inner, misses))
            if isinstance(item, Exists):
                found = next(_witnesses(item, world, inner), None)
                if found is not None:
                    inner[item.alias] = found
        return reasons or [f"no combination satisfies {node}"]
    if isinstance(node, Any_):
        parts = [reason for item in node.items
                 for reason in _failures(item, world, bound, misses)]
        return ["none of these held: " + "; ".join(parts)]
    if isinstance(node, Exists):
        if misses is not None and node.where is not None:
            misses.note(node, world, bound)
        seen = len(world.entities.get(node.kind, []))
        where = str(node).partition(" with ")[2] if node.alias.startswith(INTERNAL) else \
            str(node.where) if node.where is not None else ""
        return [f"no {node.kind}{' with ' + where if where else ''} (of {seen} {node.kind} "
                "seen)"]
    if isinstance(node, Not) and isinstance(node.item, Exists):
        match = next(_witnesses(node.item, world, bound))
        return [f"there is a {node.item.kind} that rules it out: {entity_text(match)}"]
    values = describe_values(node, world, bound)
    return [f"{node} is false ({values})" if values else f"{node} is false"]


def _unbound(node: Exists, bound: Bound) -> list[str]:
    """Aliases of earlier `exists` parts this one joins on, but that found no entity."""
    if node.where is None:
        return []
    return sorted({r.scope for r in all_refs(node.where)
                   if r.scope not in (None, node.alias) and r.scope not in bound})


def entity_text(entity: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_shown(v)}" for k, v in entity.items() if not k.startswith("#"))


def every_binding(node: Condition, world: World) -> Iterator[dict[str, Mapping]]:
    """Every combination of entities that satisfies a condition (alias → entity)."""
    return bindings_fn(negation_normal(node))(world, {})


__all__ = ["World", "aggregate", "arithmetic", "bindings", "compare",
           "describe_values", "entity_text", "evaluate", "every_binding", "failures",
           "failures_and_misses", "holds", "number", "value_of", "witnesses"]
