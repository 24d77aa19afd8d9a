"""The engine's vocabulary: rules, procedures (pages) and knowledge packs, as loaded from YAML."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .conditions import Condition

DECISION = "decision"
DERIVATION = "derivation"
COMPUTED = "(computed)"


@dataclass
class Rule:
    """One line of a procedure: a question (`when`), what follows (`then`), and its citation."""

    id: str
    procedure: str
    kind: str
    priority: float
    when: Condition
    when_text: str
    then: dict[str, Any]
    says: str
    cite: str
    salience: int
    file: str
    line: int
    order: int
    replaces: str | None = None

    @property
    def layer(self) -> str:
        return "base" if self.salience == 0 else f"salience {self.salience}"


@dataclass
class Procedure:
    """A page of the bot's rulebook; its rules in the order they are considered."""

    name: str
    title: str
    source: str
    kind: str
    rules: list[Rule] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def ordered(self) -> list[Rule]:
        """Higher salience first (Fates, house rules), then the seed's own order."""
        return sorted(self.rules, key=lambda r: (-r.salience, r.priority, r.order))


@dataclass
class FieldSpec:
    """A value a snapshot may hold: its JSON type and what the player reads it as."""

    name: str
    type: str
    says: str = ""
    enum: list[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    required: bool = False
    computed: bool = False


@dataclass
class EntitySpec:
    """A kind of thing the snapshot lists (cards, ambitions, options): one fact each."""

    kind: str
    key: str
    says: str
    fields: dict[str, FieldSpec]
    label: str = ""

    @property
    def naming_field(self) -> str | None:
        """The field that names an entity in a trace: `label`, else the first field."""
        return self.label or next(iter(self.fields), None)

    @property
    def computed(self) -> bool:
        return self.key == COMPUTED


@dataclass
class FactSchema:
    board: dict[str, FieldSpec]
    entities: dict[str, EntitySpec]
    judgments: dict[str, str]
    variables: dict[str, FieldSpec]
    computed: list[str]

    def board_names(self) -> set[str]:
        return set(self.board) | set(self.judgments) | set(self.variables)


@dataclass
class Pack:
    """A knowledge pack: its pages, its derivations, its fact schema and its data."""

    name: str
    title: str
    start: str
    root: str
    facts: FactSchema
    data: dict[str, Any]
    settings: dict[str, Any]
    procedures: dict[str, Procedure]
    functions: dict[str, Any]
    disabled: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def rules(self) -> list[Rule]:
        return [r for p in self.procedures.values() for r in p.ordered()]

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules() if r.id == rule_id), None)

    def derivations(self) -> list[Rule]:
        return [r for p in self.procedures.values() if p.kind == DERIVATION for r in p.ordered()]

    def pages(self) -> list[Procedure]:
        return [p for p in self.procedures.values() if p.kind == DECISION]
