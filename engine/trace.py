"""The trace: the product. Typed data first; `as_dict()` gives the JSON `whybot why --json`
prints (its schema: docs/trace.schema.json); rendering lives in the CLI.

A trace holds the decision (what was chosen, each action, what to say), the path of steps
(each page read: the rule that fired, the values it matched, why each rule above it did not
apply), the judgments and where each came from, the dice, and the facts assumed. The values
a rule matched, an outcome's effects and an entity's fields are the pack's own data, and stay
mappings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .walk.dice import Roll

Entity = dict[str, Any]  # an entity as shown: the pack's fields (`option`: action, target, ...)


@dataclass(frozen=True, slots=True)
class WhyNot:
    """A rule above the one that fired: why it did not apply (`why`: each failing condition
    with the values it saw; empty without explain) and the board names its condition reads."""

    rule: str
    says: str
    why: list[str]
    read: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "says": self.says, "why": self.why, "read": self.read}


@dataclass(frozen=True, slots=True)
class Chosen:
    """An entity a rule chose (`select:` the card, `target:` what an action aims at)."""

    entity: Entity
    by: str  # the rule that chose it
    page: str

    def as_dict(self) -> dict[str, Any]:
        return {"entity": self.entity, "by": self.by, "page": self.page}


@dataclass(slots=True)
class Action:
    """One action the bot takes: its name, the pack's action fields it fills (`goal`,
    `details`, ...: `engine/language/action_fields.py`), the rule and page that took it with
    the seed's words, the Prefer lines guiding it, its target, and the facts it was taken
    because of. Not frozen: at the table, the player may name a target the walk left open."""

    action: str
    fields: dict[str, str]
    rule: str
    page: str
    says: str
    cite: str
    prefer: list[str] = field(default_factory=list)
    target: Entity | None = None
    because: list[Entity] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, **self.fields, "rule": self.rule,
                                "page": self.page, "says": self.says, "cite": self.cite}
        if self.prefer:
            data["prefer"] = self.prefer
        if self.target is not None:
            data["target"] = self.target
        if self.because:
            data["because"] = self.because
        return data


@dataclass(frozen=True, slots=True)
class Said:
    """An instruction to the table (`say:`), and the rule and page that gave it."""

    say: str
    page: str
    rule: str
    snapshot: str | None = None  # the same, as the fields a snapshot gives (`snapshot:`)

    def as_dict(self) -> dict[str, Any]:
        data = {"say": self.say, "page": self.page, "rule": self.rule}
        if self.snapshot is not None:
            data["snapshot"] = self.snapshot
        return data


@dataclass(slots=True)
class Decision:
    """What the bot does: `result` ("decided", or why the turn stopped), the entities chosen
    by alias, the actions, what to say, and both in the order they happened (`steps`)."""

    result: str = "decided"
    choices: dict[str, Chosen] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    say: list[str] = field(default_factory=list)
    steps: list[Action | Said] = field(default_factory=list)

    def entities(self) -> dict[str, Entity]:
        """Each chosen entity by its alias."""
        return {alias: chosen.entity for alias, chosen in self.choices.items()}

    def as_dict(self) -> dict[str, Any]:
        return {"result": self.result,
                "choices": {alias: c.as_dict() for alias, c in self.choices.items()},
                "actions": [a.as_dict() for a in self.actions], "say": self.say,
                "steps": [{"action": s.as_dict()} if isinstance(s, Action) else s.as_dict()
                          for s in self.steps]}


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
    skipped: list[WhyNot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"page": self.page, "title": self.title, "depth": self.depth,
                                "rule": self.rule}
        for name in ("says", "cite", "layer", "matched", "outcome"):
            value = getattr(self, name)
            if value:
                data[name] = value
        if self.skipped:
            data["skipped"] = [s.as_dict() for s in self.skipped]
        if self.notes:
            data["notes"] = self.notes
        return data


@dataclass
class Trace:
    snapshot: str
    pack: str
    variant: str = ""
    steps: list[Step] = field(default_factory=list)
    judgments: dict[str, Judgment] = field(default_factory=dict)
    dice: list[Roll] = field(default_factory=list)
    dice_notes: list[str] = field(default_factory=list)
    decision: Decision = field(default_factory=Decision)
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
        return set(self.fired()) | {s.rule for step in self.steps for s in step.skipped}

    def derived_by(self) -> list[str]:
        """The rules that derived a judgment or an entity field this decision reads."""
        return sorted({s["rule"] for j in self.judgments.values() for s in j.by
                       if j.origin == "derived"} |
                      {s["rule"] for j in self.entity_judgments for s in j["by"]})

    def as_dict(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "pack": self.pack,
            **({"variant": self.variant} if self.variant else {}),
            "decision": self.decision.as_dict(),
            "path": [s.as_dict() for s in self.steps],
            "judgments": {n: j.as_dict() for n, j in self.judgments.items()},
            "entity_judgments": self.entity_judgments,
            "dice": [r.as_dict() for r in self.dice],
            "dice_notes": self.dice_notes,
            "assumed": self.assumed,
            "conflicts": self.conflicts,
            "disagreements": self.disagreements,
        }
