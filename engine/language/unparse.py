"""Trees written back as rule-language text (the parser's inverse), for traces and messages.

A trace or an error quotes a condition as a rule file would write it: bare fields inside an
entity's own scope, `board.NAME` for a board value there, `true`/`false`/`none` for constants.
"""

from __future__ import annotations

import re
from typing import Any

from .expressions import (
    FALSE,
    INTERNAL,
    TRUE,
    Aggregate,
    All,
    Any_,
    Arith,
    Compare,
    Exists,
    Extreme,
    Literal,
    Member,
    Not,
    Ref,
)


def show(value: Any) -> str:
    """A value as the rule language writes it."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, str) else str(value)


def text(node: Any, inside: bool = False) -> str:
    """A tree as the rule language writes it; `inside` an entity's scope, a board value is
    written `board.NAME` so that the text parses back to the same tree."""
    if isinstance(node, Literal):
        return show(node.value)
    if isinstance(node, Ref):
        if node.scope is not None and node.scope.startswith(INTERNAL):
            return node.name  # a choice's or loop's own candidate: its fields read bare
        if node.scope is not None:
            return f"{node.scope}.{node.name}"
        return f"board.{node.name}" if inside else node.name
    if isinstance(node, Arith):
        return f"{_group(node.left, inside)} {node.op} {_group(node.right, inside)}"
    if isinstance(node, Extreme):
        return f"{node.op}({', '.join(text(i, inside) for i in node.items)})"
    if isinstance(node, Aggregate):
        head = node.kind if node.alias == node.kind else f"{node.kind} as {node.alias}"
        where = f" where {_own(node.where, node)}" if node.where is not None else ""
        of = f", {_own(node.of, node)}" if node.of is not None else ""
        return f"{node.op}({head}{where}{of})"
    if isinstance(node, Compare):
        if node.op == "==" and node.right == TRUE:
            return text(node.left, inside)
        if (node.op, node.right) in (("==", FALSE), ("!=", TRUE)):
            return f"not {text(node.left, inside)}"
        if node.op == "!=" and node.right == FALSE:
            return text(node.left, inside)
        return f"{text(node.left, inside)} {node.op} {text(node.right, inside)}"
    if isinstance(node, Member):
        shown = ", ".join(show(o) for o in node.options)
        return f"{text(node.value, inside)} {'not in' if node.negated else 'in'} [{shown}]"
    if isinstance(node, Exists):
        if node.alias.startswith(INTERNAL):  # a choice's own scope: its fields read bare
            inner = text(node.where, True).replace(f"{node.alias}.", "") if node.where else ""
            return f"a {node.kind}" + (f" with {inner}" if inner else "")
        head = node.kind if node.alias == node.kind else f"{node.kind} as {node.alias}"
        inner = f" ({text(node.where, True)})" if node.where is not None else ""
        return f"exists {head}{inner}"
    if isinstance(node, Not):
        return f"not {_wrap(node.item, inside)}"
    if isinstance(node, All | Any_):
        joiner = " and " if isinstance(node, All) else " or "
        return joiner.join(_wrap(i, inside) for i in node.items)
    raise TypeError(node)


def _own(node: Any, aggregate: Aggregate) -> str:
    """A part of an aggregate whose alias is its kind: its own fields read bare, as written
    (`count(province where mine)`, not `province.mine`)."""
    written = text(node, True)
    if aggregate.alias != aggregate.kind:
        return written
    return re.sub(rf"(?<![\w.]){re.escape(aggregate.alias)}\.", "", written)


def _group(value: Any, inside: bool) -> str:
    return f"({text(value, inside)})" if isinstance(value, Arith) else text(value, inside)


def _wrap(item: Any, inside: bool) -> str:
    return f"({text(item, inside)})" if isinstance(item, All | Any_) else text(item, inside)
