"""The fields an action carries besides its name: the one list every reader of actions uses.

The engine knows the generic ones (`goal`, `details`, `budget`); a pack declares its own in its
pack.yaml under `action_fields:` (a field's type, and where a decision shows it). The rule-file
schema, the outcome parser, the trace, the odds tally, the batch row and the CLI all read the
pack's `ActionFields`, so a field is named once.

Where a field shows (`shown`): `after` the action's name (" — value"), as a `tag` beside it
("  [value]"), or on a `line` of its own ("name: value"). The first two make the action's
headline, which is also what a batch row keeps of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

TYPES: dict[str, dict[str, Any]] = {  # a field's type → the JSON Schema of what a rule writes
    "text": {"type": "string"},
    "count": {"type": ["string", "integer"]},
}
SHOWN = ("after", "tag", "line")
DETAILS = "details"  # the generic field that reads as the action itself (no name before it)


@dataclass(frozen=True)
class ActionField:
    """One field of an action: its name, its type (`TYPES`), and where a decision shows it."""

    name: str
    type: str = "text"
    shown: str = "line"
    says: str = ""

    @property
    def in_headline(self) -> bool:
        return self.shown != "line"


GENERIC = (
    ActionField("goal", "text", "after"),
    ActionField(DETAILS, "text", "line"),
    ActionField("budget", "count", "line"),
)


@dataclass(frozen=True)
class ActionFields:
    """The generic fields and a pack's own, headline fields first (the order a trace writes
    them in)."""

    declared: tuple[ActionField, ...] = ()

    @property
    def all(self) -> tuple[ActionField, ...]:
        fields = (*GENERIC, *self.declared)
        return (*(f for f in fields if f.in_headline), *(f for f in fields if not f.in_headline))

    def __iter__(self) -> Iterator[ActionField]:
        return iter(self.all)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.all)

    @property
    def headline(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.all if f.in_headline)

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.all if not f.in_headline)

    def told_apart(self) -> tuple[str, ...]:
        """An action as the odds tell decisions apart: its name, its headline, its target,
        then the fields on their own lines."""
        return ("action", *self.headline, "target", *self.lines)

    def in_row(self) -> tuple[str, ...]:
        """An action as a batch row keeps it: its name, headline and target, and its rule."""
        return ("action", *self.headline, "target", "rule", "page")

    def schema(self) -> dict[str, dict[str, Any]]:
        """The rule-file schema's properties for these fields."""
        return {f.name: {**TYPES[f.type], **({"description": f.says} if f.says else {})}
                for f in self.all}


GENERIC_FIELDS = ActionFields()

__all__ = ["DETAILS", "GENERIC", "GENERIC_FIELDS", "SHOWN", "TYPES", "ActionField",
           "ActionFields"]
