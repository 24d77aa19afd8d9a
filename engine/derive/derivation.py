"""What one derivation run knows: judgments so far, their support, entities and their fields.

Both reasoners — durable_rules (`forward_chaining.py`) and the plain reference (`reference.py`) —
feed the firings they find into a `Derivation`, which applies the pack's semantics once: an answer
given in the snapshot overrides its derivation; the first value established is kept (a
different value from another rule is noted, never silently swapped); at the end of the stratum
where a judgment or entity field is final, what no rule established takes its default.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .. import budget
from ..evaluator.evaluate import World, evaluate
from ..language.expressions import TRUE
from ..language.pack import EID, EntitySpec, Pack, Rule
from ..limits import current as limits
from ..trace import Judgment
from .strata import Defaults, Strata

if TYPE_CHECKING:
    from .fast.incremental import Log

GIVEN = "#given"  # the derived fields a snapshot gave for this entity
UNSET = object()  # no value known


@dataclass(slots=True)
class Change:
    """What a firing or a default changed, for the reasoner to tell its rule engine."""

    what: str  # "judgment" | "entity" | "created"
    name: str = ""  # the judgment, the entity field, or the created kind
    value: Any = None
    entity: dict[str, Any] | None = None


def firing_order(rank: int, bound: Mapping[str, Mapping[str, Any]]) -> tuple:
    """The order conclusions are drawn in within one round, whichever reasoner found them:
    the rule's place, then the ids of the entities it matched (so created entities get the
    same ids from durable_rules and from the plain reference)."""
    return rank, tuple(sorted(entity[EID] for entity in bound.values()))


def copy_entities(entities: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """A copy a run may change: entity dicts hold plain values, so one level is enough."""
    return {kind: [dict(e) for e in items] for kind, items in entities.items()}


def entity_support(entity: Mapping[str, Any], pack: Pack, kind: str) -> dict[str, Any]:
    spec = pack.facts.entities.get(kind)
    shown = {"kind": kind}
    for name in spec.naming_fields if spec else ():
        if name in entity:
            shown[name] = entity[name]
    return shown


@dataclass
class Derivation:
    """One run's state; reasoners call `conclude` per firing and `finish` per stratum."""

    pack: Pack
    strata: Strata
    board: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    given: dict[str, Any]
    values: dict[str, Any] = field(default_factory=dict)
    support: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    overridden: dict[str, list[str]] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    field_support: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)
    fired: set[tuple[str, tuple[int, ...]]] = field(default_factory=set)
    by_eid: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    created_defaults: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    log: Log | None = None  # every firing, for a later run to replay (incremental.py)
    # False: a batch row's run, which needs the outcome and the rules behind each judgment,
    # not the facts each firing matched (its supports name their rules, with no `facts`)
    record: bool = True
    # the derivations this run asks (`walk_subset.py`), None: all; what only others
    # conclude takes no default either (nothing reads it)
    only: frozenset[str] | None = None

    def __post_init__(self) -> None:
        self.eids = itertools.count(1 + max((e[EID] for items in self.entities.values()
                                             for e in items), default=0))
        for kind, items in self.entities.items():
            for entity in items:
                self.by_eid[entity[EID]] = (kind, entity)
        self.seen = {**self.board, **self.given, **self.values}  # what conditions read
        self.judged: Any = UNSET
        self.defaults: dict[int, Defaults] | None = None  # strata.defaults(only), when needed

    def copy(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             ) -> Derivation:
        """This run's result on `board` and `entities` (the walk changes entities). What the
        run concluded — values, supports, conflicts — is shared: a finished run's are never
        changed (no firing is concluded on a copy, and the trace copies a support it adds
        notes to), so copying them is left to whoever would."""
        return replace(self, board=board, entities=entities, by_eid={})

    # --- what a condition sees ---------------------------------------------------------------

    def world(self) -> World:
        return World(self.seen, self.entities, budget.current())

    def _value(self, name: str, value: Any) -> None:
        self.values[name] = value
        self.seen[name] = value

    def initial(self, told: Container[str] | None = None) -> list[Change]:
        """Judgments nobody derives take their answer or their default before stratum 0;
        the changes of those in `told` (None: all), which a reasoner's facts hold."""
        changes = []
        given = self.given
        for name, default in self.strata.underived:
            if name in given:
                value = given[name]
            else:
                self._value(name, default)
                value = default
            if told is None or name in told:
                changes.append(Change("judgment", name, value))
        return changes

    # --- one firing ----------------------------------------------------------------------------

    def conclude(self, rule: Rule, bound: dict[str, dict[str, Any]],
                 matched: list[dict[str, Any]], value: Any = UNSET,
                 eids: tuple[int, ...] | None = None) -> list[Change]:
        """Apply one firing of `rule` with its entities bound by alias. `value`: what the rule
        judges, when a replay knows it already (incremental.py); the value judged is left in
        `judged` (UNSET if none was). `eids`: the bound entities' ids, sorted, if known
        (`firing_order`)."""
        self.judged = UNSET
        if eids is None:
            eids = tuple(sorted(e[EID] for e in bound.values()))
        key = (rule.id, eids)
        if key in self.fired:
            return []
        self.fired.add(key)
        support = {"rule": rule.id, "cite": rule.cite, "facts": matched}
        then = rule.then
        if then.create is not None:
            return self._create(rule, then.create.kind, then.create.fields, self.world(), bound)
        judge = then.judge
        assert judge is not None
        if value is UNSET:
            value = True if judge.value == TRUE else evaluate(judge.value, self.world(), bound)
        self.judged = value
        if judge.alias is None:
            return self._judgment(judge.name, value, support)
        return self._field(bound[judge.alias], judge.name, value, support)

    def _judgment(self, name: str, value: Any, support: dict[str, Any]) -> list[Change]:
        if name in self.given:
            self.overridden.setdefault(name, []).append(support["rule"])
            return []
        if name in self.values:
            if self.values[name] == value:
                self.support[name].append(support)
            else:
                self.conflicts.append(f"{support['rule']} judged {name} = {value}, but "
                                      f"{self.support[name][0]['rule']} had already judged "
                                      f"it {self.values[name]}: the first is kept")
            return []
        self._value(name, value)
        self.support[name] = [support]
        return [Change("judgment", name, value)]

    def _field(self, entity: dict[str, Any], name: str, value: Any,
               support: dict[str, Any]) -> list[Change]:
        key = (entity[EID], name)
        if name in entity.get(GIVEN, ()):
            self.field_support.setdefault(key, []).append({**support, "overridden": True})
            return []
        if name in entity:
            if entity[name] == value:
                self.field_support[key].append(support)
            else:
                self.conflicts.append(f"{support['rule']} judged {name} = {value} for "
                                      f"entity #{entity[EID]}, but it was already {entity[name]}")
            return []
        entity[name] = value
        self.field_support[key] = [support]
        return [Change("entity", name, entity=entity)]

    def _create(self, rule: Rule, kind: str, fields: tuple, world: World,
                bound: dict[str, dict[str, Any]]) -> list[Change]:
        entity: dict[str, Any] = {EID: next(self.eids)}
        for assign in fields:
            entity[assign.name] = evaluate(assign.value, world, bound)
        defaults = self.created_defaults.get(kind)
        if defaults is None:
            defaults = self.created_defaults[kind] = _defaults(self.pack.facts.entities[kind])
        for name, default in defaults:
            if name not in entity:
                entity[name] = default
        self.entities.setdefault(kind, []).append(entity)
        self.by_eid[entity[EID]] = (kind, entity)
        limits().check("entities", len(self.by_eid), f"entities created by rule {rule.id}")
        self.field_support[(entity[EID], "#created")] = [{"rule": rule.id, "cite": rule.cite}]
        return [Change("created", kind, entity=entity)]

    # --- the end of a stratum ------------------------------------------------------------------

    def finish(self, stratum: int, told: Container[tuple[str, str]] = (),
               judgments_told: Container[str] | None = None) -> list[Change]:
        """Defaults for what became final in this stratum and no rule established: the
        changes of the judgments in `judgments_told` (None: all) and of the entity fields in
        `told` (what a reasoner's facts hold; an entity field takes its default on thousands
        of entities a run)."""
        changes: list[Change] = []
        if self.defaults is None:  # looked up once a run: `only` is a large set
            self.defaults = self.strata.defaults(self.only)
        defaults = self.defaults[stratum]
        values, given, seen = self.values, self.given, self.seen
        for name, default in defaults.judgments:
            if name not in values and name not in given:
                values[name] = seen[name] = default  # _value, inlined: hundreds a run
                if judgments_told is None or name in judgments_told:
                    changes.append(Change("judgment", name, default))
        entities = self.entities
        for name, kind, default in defaults.fields:  # each field once: lacking it is final
            tell = (kind, name) in told
            for entity in entities.get(kind, ()):
                if name not in entity:
                    entity[name] = default
                    if tell:
                        changes.append(Change("entity", name, entity=entity))
        return changes

    # --- the result ----------------------------------------------------------------------------

    def judgments(self) -> dict[str, Judgment]:
        """Every declared judgment with its value and origin: given, derived, or default."""
        return {name: self.judgment(name) for name in self.strata.judgments}

    def judgment(self, name: str) -> Judgment:
        """One declared judgment, as `judgments()` has it."""
        question, otherwise = self.strata.judgments[name]
        if name in self.given:
            notes = [{"rule": r, "note": "overridden by the answer"}
                     for r in self.overridden.get(name, [])]
            return Judgment(name, question, self.given[name], "given", notes)
        if self.support.get(name):
            return Judgment(name, question, self.values[name], "derived", self.support[name])
        return Judgment(name, question, self.values.get(name), otherwise)

    def judgment_values(self) -> dict[str, Any]:
        """Every declared judgment's value, as `judgments()` has them (without building them:
        a rederive reads the values and the few that changed)."""
        given, values = self.given, self.values
        return {name: given[name] if name in given else values.get(name)
                for name in self.strata.judgments}


def _defaults(spec: EntitySpec) -> list[tuple[str, Any]]:
    """The fields a created entity takes its default for, unless the rule sets them."""
    return [(name, field.default) for name, field in spec.fields.items()
            if not field.derived and field.has_default]
