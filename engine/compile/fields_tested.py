"""The entity fields a compiled rule's patterns test or join on: all that an entity's fact must
hold for the rule to match (`Compiled.fields_from` sends a fact only those)."""

from __future__ import annotations

from typing import Any

_OWN = frozenset({"t", "kind", "eid", "id", "sid", "k"})  # what whybot puts on every fact


def pattern_fields(patterns: list[dict[str, Any]], names: dict[str, str],
                   ) -> set[tuple[str, str]]:
    """(kind, field) for every entity field a rule's patterns test or join on: all that an
    entity's fact must hold for the rule to match as the condition says (`names`: code →
    field)."""
    kinds: dict[str, str] = {}
    read: list[tuple[str, str]] = []
    for pattern in patterns:
        (alias, test), = pattern.items()
        for name, operand in _leaves(test):
            if name == "kind" and not isinstance(operand, dict):
                kinds.setdefault(alias, operand)
            read.append((alias, name))
            read.extend(_operand_fields(operand, alias))
    return {(kinds[alias], names.get(name, name)) for alias, name in read
            if alias in kinds and name not in _OWN}


def _leaves(test: dict[str, Any]) -> list[tuple[str, Any]]:
    (name, value), = test.items()
    if name in ("$and", "$or"):
        return [leaf for item in value for leaf in _leaves(item)]
    if name.startswith("$"):
        (name, value), = value.items()
    return [(name, value)]


def _operand_fields(operand: Any, alias: str) -> list[tuple[str, str]]:
    """(alias, field) an operand reads: `{"$m": f}` its own fact, `{"x_p": f}` another's."""
    if not isinstance(operand, dict):
        return []
    (key, value), = operand.items()
    if key in ("$add", "$sub", "$mul"):
        return _operand_fields(value["$l"], alias) + _operand_fields(value["$r"], alias)
    return [(alias if key == "$m" else key, value)]
