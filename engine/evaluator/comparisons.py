"""durable_rules' comparisons and arithmetic, as the evaluator reads them: an absent value
fails every comparison, numbers compare by value (never with booleans), anything else only
with a value of its own type, and `//` or `%` by zero is absent.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..language.expressions import Compare, Literal, Ref

if TYPE_CHECKING:
    from .closures import Bound, Fn
    from .evaluate import World

EMPTY: Mapping[str, Any] = {}  # what an alias not bound reads: no field at all
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "//": operator.floordiv, "%": operator.mod}


def number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def equal(left: Any, right: Any) -> bool:
    """durable_rules' `==`: false when a side is absent; numbers by value, else same type."""
    if left is None or right is None:
        return False
    if type(left) is type(right):
        return bool(left == right)
    return number(left) and number(right) and left == right


def compare(op: str, left: Any, right: Any) -> bool:
    """durable_rules' comparison: false whenever a side is absent; numbers by value."""
    if op == "==":
        return equal(left, right)
    if op == "!=":
        return left is not None and right is not None and not equal(left, right)
    return number(left) and number(right) and _ORDER[op](left, right)


def arithmetic(op: str, left: Any, right: Any) -> Any:
    if not number(left) or not number(right):
        return None
    if op in ("//", "%") and right == 0:
        return None
    return _ARITH[op](left, right)


def against_constant(node: Compare) -> Fn | None:
    """`name OP constant` (a board value, or an entity's field) in one closure: the same
    comparison as `compare`, without a call for each side (pages test hundreds a decision)."""
    left, right, op = node.left, node.right, node.op
    if not isinstance(left, Ref) or not isinstance(right, Literal) or right.value is None:
        return None
    name, scope, constant = left.name, left.scope, right.value
    if op == "==":
        kind, numeric = type(constant), number(constant)

        def same(value: Any) -> bool:  # `equal`, the constant known not to be absent
            if type(value) is kind:
                return bool(value == constant)
            return numeric and number(value) and value == constant
        if scope is None:
            return lambda world, bound: same(world.board.get(name))
        return lambda world, bound: same(bound.get(scope, EMPTY).get(name))
    if op not in _ORDER or not number(constant):
        return None
    order = _ORDER[op]
    if scope is None:
        def board(world: World, bound: Bound) -> bool:
            value: Any = world.board.get(name)
            return number(value) and order(value, constant)
        return board

    def field(world: World, bound: Bound) -> bool:
        value: Any = bound.get(scope, EMPTY).get(name)
        return number(value) and order(value, constant)
    return field
