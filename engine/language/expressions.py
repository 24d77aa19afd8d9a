"""The tree of the rule language: values (names, numbers, arithmetic, aggregates) and conditions.

Trees are frozen and hashable, so analyses of them (names read, normal forms) are remembered.
The parser (`parser.py`) builds them, `unparse.py` writes them back as text and
`tree_queries.py` reads them (names read, normal forms); the compiler
turns conditions into durable_rules patterns; the evaluator (`evaluator/evaluate.py`) reads them
plainly to explain and to cross-check.

Absent values: a name with no value (an unset choice, an unknown fact) makes every comparison
false, `==` and `!=` alike — exactly what durable_rules does with a missing property. Negations
are pushed down to comparisons first (`negation_normal`), so `not (x == 1)` means `x != 1`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

COMPARATORS = ("==", "!=", "<=", ">=", "<", ">")
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
ARITHMETIC = ("+", "-", "*", "//", "%")
AGGREGATES = ("count", "sum", "max", "min", "any", "all")
INTERNAL = ("select_", "target_", "each_", "spread_")  # aliases the engine gives choices


def _state(self: Any) -> dict[str, Any]:
    """Pickled without what is remembered: the hash (string hashes differ between
    processes) and the compiled closures (`evaluator/closures.py`: rebuilt on first use)."""
    return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


def _written(self: Any) -> str:
    """A node as the rule language writes it (`unparse.py`, which reads these classes),
    written once: a trace quotes the same conditions in every decision."""
    found = self.__dict__.get("_text")
    if found is None:
        from .unparse import text

        found = text(self)
        object.__setattr__(self, "_text", found)
    return found


def _cached_hash(self: Any) -> int:
    """Trees are hashed on every cache lookup: compute a node's hash once."""
    cached = self.__dict__.get("_hash")
    if cached is None:
        cached = hash((type(self).__name__, *(getattr(self, f.name) for f in fields(self))))
        object.__setattr__(self, "_hash", cached)
    return cached


# --- values -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Literal:
    """A constant. Equal only to a constant of the same type: `1` is not `true`."""

    __getstate__ = _state
    __str__ = _written

    value: Any

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Literal) and _typed(self.value) == _typed(other.value)

    def __hash__(self) -> int:
        return hash(_typed(self.value))


def _typed(value: Any) -> tuple[str, Any]:
    kind = "number" if isinstance(value, int | float) and not isinstance(value, bool) else \
        type(value).__name__
    return kind, value


@dataclass(frozen=True)
class Ref:
    """A name: `scope` None is a board value; else the alias of an entity in scope."""

    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    name: str
    scope: str | None = None


@dataclass(frozen=True)
class Arith:
    """`left OP right` for + - * // % over numbers (// rounds down, as the seeds do)."""

    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    left: Value
    op: str
    right: Value


@dataclass(frozen=True)
class Extreme:
    """`max(a, b, ...)` / `min(a, b, ...)` of the values present (an absent one is left out:
    `max(target.cost, 1)` is 1 when nothing is targeted)."""

    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    op: str
    items: tuple[Value, ...]


@dataclass(frozen=True)
class Aggregate:
    """`count(KIND as A where C)`, `sum(KIND where C, EXPR)`, max/min/any/all likewise.

    Durable_rules has no aggregates: the evaluator computes them and the engine hands the
    result to the rule engine as a value (see `hoisted`)."""

    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    op: str
    kind: str
    alias: str
    where: Condition | None
    of: Value | Condition | None


Value = Literal | Ref | Arith | Extreme | Aggregate


# --- conditions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Compare:
    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    left: Value
    op: str
    right: Value

    def negate(self) -> Compare:
        return Compare(self.left, NEGATED[self.op], self.right)


@dataclass(frozen=True, eq=False)
class Member:
    __getstate__ = _state
    __str__ = _written

    value: Value
    options: tuple[Any, ...]
    negated: bool = False

    def _key(self) -> tuple:
        return self.value, tuple(_typed(o) for o in self.options), self.negated

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Member) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def negate(self) -> Member:
        return Member(self.value, self.options, not self.negated)


@dataclass(frozen=True)
class Exists:
    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    kind: str
    alias: str
    where: Condition | None


@dataclass(frozen=True)
class Not:
    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    item: Condition


@dataclass(frozen=True)
class All:
    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    items: tuple[Condition, ...]


@dataclass(frozen=True)
class Any_:
    __hash__ = _cached_hash
    __getstate__ = _state
    __str__ = _written

    items: tuple[Condition, ...]


Condition = Compare | Member | Exists | Not | All | Any_
TRUE = Literal(True)
FALSE = Literal(False)
ALWAYS = Compare(TRUE, "==", TRUE)
