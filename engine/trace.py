"""The trace: the product. Data first (plain dicts, JSON-ready); rendering lives in the CLI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Judgment:
    """A judgment's value and where it came from: derived, given, or assumed."""

    name: str
    question: str
    value: Any
    origin: str
    by: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data = {"name": self.name, "question": self.question, "value": self.value,
                "origin": self.origin}
        if self.by:
            data["by"] = self.by
        return data


@dataclass
class Step:
    """One visit to a page: the rule that fired (or none) and why each earlier rule did not."""

    page: str
    title: str
    depth: int
    rule: str | None = None
    says: str = ""
    cite: str = ""
    layer: str = ""
    matched: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"page": self.page, "title": self.title, "depth": self.depth,
                                "rule": self.rule}
        for name in ("says", "cite", "layer", "matched", "outcome", "skipped", "notes"):
            value = getattr(self, name)
            if value:
                data[name] = value
        return data


@dataclass
class Trace:
    snapshot: str
    pack: str
    variant: str = ""
    steps: list[Step] = field(default_factory=list)
    judgments: dict[str, Judgment] = field(default_factory=dict)
    dice: list[dict[str, Any]] = field(default_factory=list)
    dice_notes: list[str] = field(default_factory=list)
    decision: dict[str, Any] = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    assumed: list[dict[str, Any]] = field(default_factory=list)
    field_support: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)
    entity_judgments: list[dict[str, Any]] = field(default_factory=list)
    # the board and entities the last derivation read (after a `rederive`, the board then)
    derived_from: tuple[dict[str, Any], dict[str, list[dict[str, Any]]]] | None = None
    derived_answers: dict[str, Any] | None = None  # the answers that last derivation took

    def fired(self) -> list[str]:
        return [s.rule for s in self.steps if s.rule]

    def considered(self) -> set[str]:
        """Every rule read on the path: those that fired and those skipped above them."""
        return set(self.fired()) | {s["rule"] for step in self.steps for s in step.skipped}

    def as_dict(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "pack": self.pack,
            **({"variant": self.variant} if self.variant else {}),
            "decision": self.decision,
            "path": [s.as_dict() for s in self.steps],
            "judgments": {n: j.as_dict() for n, j in self.judgments.items()},
            "entity_judgments": self.entity_judgments,
            "dice": self.dice,
            "dice_notes": self.dice_notes,
            "assumed": self.assumed,
            "conflicts": self.conflicts,
            "disagreements": self.disagreements,
        }
