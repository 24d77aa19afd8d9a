"""Checking one value of a snapshot against its field: booleans are booleans, numbers numbers.

durable_rules compares `"5"` equal to `5` and `true` equal to `1`, so nothing loosely typed may
reach it: a value of the wrong type, out of range, or not one of an enum's values is one error
naming the field path, with "did you mean" for a near-miss of an enum value.
"""

from __future__ import annotations

import math
from typing import Any

from whybot.engine import FieldSpec, did_you_mean, excerpt

LIMIT = 10**9  # numbers beyond this are refused (durable_rules saturates at 2**63)
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false",
               "string": "text"}


class ValueProblem(ValueError):
    """A value that does not fit its field; the message says what was expected."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        self.hint = hint
        super().__init__(message)


def _shown(value: Any) -> str:
    return repr(excerpt(value, 60)) if isinstance(value, str) else excerpt(repr(value), 60)


def check_value(value: Any, spec: FieldSpec, allowed: list[Any] | None) -> Any:
    """The value, normalised (integral floats of integer fields as ints), or ValueProblem."""
    kind = spec.type
    if kind == "boolean":
        if not isinstance(value, bool):
            raise ValueProblem(f"{_shown(value)} is not true or false")
        return value
    if kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueProblem(f"{_shown(value)} is not {_TYPE_WORDS[kind]}")
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueProblem("numbers must be finite")
            if kind == "integer":
                if not value.is_integer():
                    raise ValueProblem(f"{_shown(value)} is not a whole number")
                value = int(value)
            else:
                value = round(value, 4)
                value = int(value) if value.is_integer() else value
        low = spec.minimum if spec.minimum is not None else -LIMIT
        high = spec.maximum if spec.maximum is not None else LIMIT
        if not low <= value <= high:
            raise ValueProblem(f"{value} is outside {_plain(low)}..{_plain(high)}")
    elif kind == "string" and not isinstance(value, str):
        raise ValueProblem(f"{_shown(value)} is not text")
    if allowed is not None and value not in allowed:
        shown = ", ".join(map(str, allowed[:12])) + (", ..." if len(allowed) > 12 else "")
        raise ValueProblem(f"{_shown(value)} is not one of: {shown}",
                           hint=did_you_mean(str(value), {str(a) for a in allowed}))
    return value


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)
