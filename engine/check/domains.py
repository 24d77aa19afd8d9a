"""What each name a condition reads may hold, read off the pack's fact schema.

A board value, judgment or turn variable has its field; `selected.suit` is a field of the kind
a rule binds as `selected`; `c.suit` inside `exists card as c (...)` a field of `card`. Each
domain knows its type, its enum or range, and the values worth trying: the schema's bounds and
default, and each constant the pack's conditions compare the name with, with its neighbours
(the edges of every interval a condition can draw).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..language.expressions import Compare, Literal, Member, Ref
from ..language.pack import FieldSpec, Pack
from ..language.rule_reads import bound_kinds
from ..language.tree_queries import children

Key = tuple[str, str]  # (kind, field) for an entity field; ("", name) for a board name
BOARD = ""


@dataclass
class Domain:
    """The values a name may take, and the ones worth trying."""

    name: str
    type: str
    enum: list[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    refers: bool = False  # may also name a listed entity (of an open set of names)
    constants: set[Any] = field(default_factory=set)

    @property
    def finite(self) -> list[Any] | None:
        """Every value a finite domain allows (an enum, or true and false)."""
        if self.refers:
            return None
        if self.enum is not None:
            return list(self.enum)
        return [True, False] if self.type == "boolean" else None

    def allows(self, value: Any) -> bool:
        if self.finite is not None:
            return value in self.finite
        if self.type in ("integer", "number") and isinstance(value, int | float):
            return (self.minimum is None or value >= self.minimum) and \
                (self.maximum is None or value <= self.maximum)
        return True

    def bounds(self) -> str:
        """The schema's limits, in words: `0..40`, `one of: a, b`."""
        if self.finite is not None:
            return "one of: " + ", ".join(str(v) for v in self.finite)
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        return f"{low}..{high}"

    def candidates(self) -> list[Any]:
        """Values to try: the finite values, else bounds, default and compared constants
        with their neighbours, each one the schema allows (a name of a listed entity: only
        the values it may take with no entity listed)."""
        if self.refers:
            return [v for v in (self.default, *(self.enum or [])) if v is not None] or [None]
        if self.finite is not None:
            return self.finite
        found: list[Any] = []
        if self.type in ("integer", "number"):
            step = 1 if self.type == "integer" else 0.5
            for value in (self.minimum, self.maximum, self.default, 0, 1, 2):
                if value is not None:
                    found.append(value)
            for value in sorted(c for c in self.constants if isinstance(c, int | float)):
                found += [value - step, value, value + step]
        else:
            found = [v for v in (self.default, *sorted(map(str, self.constants)), "other")
                     if v is not None]
        unique = list(dict.fromkeys(v for v in found if self.allows(v)))
        return unique or [self.default]


def _domain(name: str, spec: FieldSpec, pack: Pack) -> Domain:
    return Domain(name, spec.type, pack.allowed(spec), spec.minimum, spec.maximum,
                  spec.default, bool(spec.refers))


class Domains:
    """The domain of every name the pack's conditions read, built once per pack."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.aliases = bound_kinds(pack)
        self.known: dict[Key, Domain] = {}
        constants: dict[str, set[Any]] = defaultdict(set)
        for rule in pack.rules():
            for ref, value in _compared(rule.when):
                constants[ref.name].add(value)
            for choice in rule.then.choices:
                if choice.where is not None:
                    for ref, value in _compared(choice.where):
                        constants[ref.name].add(value)
        self.constants = constants

    def board(self, name: str) -> Domain | None:
        """A board name: a value, judgment or variable, or a field of a bound entity, or
        an alias itself (`selected`: is something selected?)."""
        key = (BOARD, name)
        if key not in self.known:
            found: Domain | None = None
            spec = self.pack.facts.spec(name)
            alias, dot, rest = name.partition(".")
            if spec is not None:
                found = _domain(name, spec, self.pack)
            elif dot and alias in self.aliases:
                entity = self.pack.facts.entities.get(self.aliases[alias])
                if entity is not None and rest in entity.fields:
                    found = _domain(name, entity.fields[rest], self.pack)
            elif name in self.aliases:
                found = Domain(name, "boolean", default=False)
            if found is not None:
                found.constants = self.constants.get(name, set()) | \
                    self.constants.get(rest, set())
            self.known[key] = found  # type: ignore[assignment]
        return self.known[key]

    def field(self, kind: str, name: str) -> Domain | None:
        """A field of an entity of `kind`."""
        key = (kind, name)
        if key not in self.known:
            entity = self.pack.facts.entities.get(kind)
            spec = entity.fields.get(name) if entity is not None else None
            found = _domain(f"{kind}.{name}", spec, self.pack) if spec is not None else None
            if found is not None:
                found.constants = self.constants.get(name, set())
            self.known[key] = found  # type: ignore[assignment]
        return self.known[key]


def _compared(node: Any) -> Iterator[tuple[Ref, Any]]:
    """(name, constant) for each comparison of a name with a constant in a tree."""
    if isinstance(node, Compare):
        for ref, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(ref, Ref) and isinstance(other, Literal):
                yield ref, other.value
    elif isinstance(node, Member) and isinstance(node.value, Ref):
        for option in node.options:
            yield node.value, option
    for child in children(node):
        yield from _compared(child)
