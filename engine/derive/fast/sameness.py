"""Sameness as a trace sees it: equal values of the same types, mappings in the same order.

Reusing a derivation, or replaying part of one, is sound only when its inputs are the same in
this strict sense (1 == True and 1 == 1.0 in Python, but not in a trace)."""

from __future__ import annotations

from operator import is_
from typing import Any

ABSENT = object()  # a name or field not given at all
# values no change in place can reach, and that `is` tells apart from every other type (a
# float is left out: NaN is not equal to itself); most of a board's and entity's values
PLAIN = frozenset({bool, int, str, type(None)})
# values `frozen` gives as they are (a float, a name absent): a key of these needs no copying
ATOMS = PLAIN | {float, type(ABSENT)}


def frozen(value: Any) -> Any:
    """A copy of a value nobody else holds, so a later change in place cannot reach it
    (its plain values are shared: an entity of plain values is copied in one call)."""
    if isinstance(value, dict):
        if PLAIN.issuperset(map(type, value.values())):
            return dict(value)
        return {k: v if type(v) in PLAIN else frozen(v) for k, v in value.items()}
    if isinstance(value, list):
        if PLAIN.issuperset(map(type, value)):
            return list(value)
        return [v if type(v) in PLAIN else frozen(v) for v in value]
    return value


def identical(one: Any, other: Any) -> bool:
    """Equal, of the same types all the way down, mappings in the same order (1 == True and
    1 == 1.0 in Python, but not in a trace). The same object is identical to itself (a
    float too: `repr` tells NaN alike)."""
    if one is other and not isinstance(one, float):  # a float: NaN is not equal to itself
        return True
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        if list(one) != list(other):
            return False
        if all(map(is_, one.values(), other.values())):
            return True  # each value the same object (most entities): no call
        return all(v is w or identical(v, w)
                   for v, w in zip(one.values(), other.values(), strict=True))
    if isinstance(one, list | tuple):
        return len(one) == len(other) and (all(map(is_, one, other)) or all(
            v is w or identical(v, w) for v, w in zip(one, other, strict=True)))
    if isinstance(one, float):
        return repr(one) == repr(other)
    return bool(one == other)
