"""The engine's vocabulary: rules, pages and knowledge packs, as loaded from YAML.

A pack holds its fact schema (what a snapshot may say), its pages (decision procedures, each
rule considered in order) and its derivations (judgments forward-chained from observations).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .action_fields import GENERIC_FIELDS, ActionFields
from .expressions import Condition
from .outcomes import Outcome

if TYPE_CHECKING:
    from ..load.page_templates import Template

EID = "#"  # an entity's id in whybot's own dicts (never a field a rule can name)

DECISION = "decision"
DERIVATION = "derivation"


@dataclass
class Rule:
    """One line of a procedure: a question (`when`), what follows (`then`), and its citation."""

    id: str
    page: str
    kind: str
    when: Condition
    when_text: str
    then: Outcome
    says: str
    cite: str
    layer: int
    file: str
    line: int
    position: float
    priority: float | None = None
    replaces: str | None = None

    @property
    def layer_name(self) -> str:
        return "base" if self.layer == 0 else f"salience {self.layer}"

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Page:
    """A page of the bot's rulebook; its rules in the order they are considered."""

    name: str
    title: str
    source: str
    kind: str
    rules: list[Rule] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    repeat_while: Condition | None = None
    repeat_text: str = ""
    after_action: Outcome | None = None  # effects applied after every action of the page

    def ordered(self) -> list[Rule]:
        """Higher layers first (optional modules, house rules), then the seed's own order."""
        return sorted(self.rules, key=lambda r: (-r.layer, r.position))


@dataclass
class FieldSpec:
    """A value a snapshot may hold: its type, what the player reads it as, its default."""

    name: str
    type: str
    says: str = ""
    enum: list[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    required: bool = False
    derived: bool = False
    assumed: bool = True
    pages: str | None = None  # "fate.{}.": also valid, every X with a page "fate.X.…"
    refers: tuple[tuple[str, str], ...] = ()  # (kind, field): a value names one of these
    unique: bool = False  # no two entities of the kind share a value
    required_when: Condition | None = None  # required when this board condition holds
    required_text: str = ""

    @property
    def has_default(self) -> bool:
        return self.default is not None


@dataclass
class EntitySpec:
    """A kind of thing the snapshot lists (cards, options, provinces) or rules create."""

    kind: str
    key: str | None
    says: str
    fields: dict[str, FieldSpec]
    label: tuple[str, ...] = ()  # the fields that name one (`label:`, one field or a list)

    @property
    def created(self) -> bool:
        """Entities no snapshot lists: derivation rules create them (`create:`)."""
        return self.key is None

    @property
    def naming_fields(self) -> tuple[str, ...]:
        """The fields that name an entity in a trace: `label`, else the first field (an
        entity one field cannot tell from its others needs several). Read per firing: no copy
        of the fields is made."""
        if self.label:
            return self.label
        first = next(iter(self.fields), None)
        return (first,) if first is not None else ()

    @property
    def naming_field(self) -> str | None:
        """The one field a table keeps entities by (a kind it keeps has a one-field label)."""
        return next(iter(self.naming_fields), None)

    def name_of(self, entity: Mapping[str, Any]) -> str | None:
        """An entity's name in a trace: its naming fields' values, those it has, in order."""
        values = [str(entity[name]) for name in self.naming_fields
                  if entity.get(name) not in (None, "")]
        return " ".join(values) or None

    def derived_fields(self) -> list[str]:
        return [name for name, spec in self.fields.items() if spec.derived]


@dataclass
class FactSchema:
    board: dict[str, FieldSpec]
    entities: dict[str, EntitySpec]
    judgments: dict[str, FieldSpec]
    variables: dict[str, FieldSpec]

    def board_names(self) -> set[str]:
        return set(self.board) | set(self.judgments) | set(self.variables)

    def spec(self, name: str) -> FieldSpec | None:
        return self.board.get(name) or self.judgments.get(name) or self.variables.get(name)


@dataclass
class Pack:
    """A knowledge pack: its pages, its derivations, its fact schema and its data."""

    name: str
    title: str
    start: str
    root: str
    facts: FactSchema
    pages: dict[str, Page]
    presentation: dict[str, Any] = field(default_factory=dict)
    coverage: dict[str, Any] = field(default_factory=dict)
    check: dict[str, Any] = field(default_factory=dict)  # `rules check` findings excused
    disabled: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # house-rule folders' files, not rules
    actions: set[str] | None = None  # what `action:` may name (None: the pack declares none)
    action_fields: ActionFields = GENERIC_FIELDS  # what an action carries besides its name
    templates: dict[str, Template] = field(default_factory=dict)  # page templates (pack.yaml)
    preferences: dict[str, dict[str, Any]] = field(default_factory=dict)  # named Prefer lines

    def rules(self) -> list[Rule]:
        return [r for p in self.pages.values() for r in p.ordered()]

    def rule(self, rule_id: str) -> Rule | None:
        """The rule of that id (ids are unique in a pack: no page order needed to find one)."""
        return next((r for p in self.pages.values() for r in p.rules if r.id == rule_id), None)

    def derivations(self) -> list[Rule]:
        return [r for p in self.pages.values() if p.kind == DERIVATION for r in p.ordered()]

    def decision_pages(self) -> list[Page]:
        return [p for p in self.pages.values() if p.kind == DECISION]

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.facts.entities)

    def entity_label(self, kind: str, entity: Mapping[str, Any]) -> str:
        """"option Bargain: the old road": its kind and name (else its id `#3`)."""
        spec = self.facts.entities.get(kind)
        name = spec.name_of(entity) if spec else None
        return f"{kind} {name}" if name else f"{kind} #{entity.get(EID)}"

    def allowed(self, spec: FieldSpec) -> list[Any] | None:
        """The values a field may take: its enum, plus the X of every page `pages` names."""
        if spec.pages is None:
            return spec.enum
        head, _, tail = spec.pages.partition("{}")
        named = sorted({p[len(head):].split(tail)[0] for p in self.pages
                        if p.startswith(head) and tail in p[len(head):]})
        return [*(spec.enum or []), *(n for n in named if n not in (spec.enum or []))]
