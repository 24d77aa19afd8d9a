"""A schema-guided search for situations on a page: boards and entity lists built from the
domains of the names the page's rules read (`domains.py`), tested with the plain evaluator.

A probe is either drawn at random from each name's candidate values, or aimed at given rules:
one alternative of each rule's condition (its disjunctive normal form) is picked and its
comparisons with constants are met, an `exists` by an entity made to match, a `not exists` by
an empty list. The search is seeded by the page's name, so a run finds the same witnesses.
What the search finds is only a candidate: `confirm.py` decides it with the rule engine.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..compile.rulesets import rule_condition
from ..evaluator.evaluate import World, holds
from ..language.expressions import Compare, Condition, Exists, Literal, Member, Not, Ref
from ..language.pack import Pack, Page, Rule
from ..language.tree_queries import all_refs, board_names, disjuncts, negation_normal, scopes
from .domains import Domains
from .paths import Arrival
from .proofs import ALTERNATIVES

ENTITIES = (0, 1, 2)  # how many entities of a kind a random probe lists


@dataclass
class Probe:
    """A situation on one page: every board name it sets (observations, judgments, turn
    values) and the entities of each kind it lists."""

    page: str
    board: dict[str, Any] = field(default_factory=dict)
    entities: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def world(self) -> World:
        return World(self.board, self.entities)


class PageSearch:
    """What the rules of one page read, and probes over it."""

    def __init__(self, pack: Pack, domains: Domains, page: Page,
                 arriving: list[Arrival] | None = None) -> None:
        self.pack = pack
        self.domains = domains
        self.page = page
        self.rules = page.ordered()
        self.conditions = {rule.id: rule_condition(rule) for rule in self.rules}
        self.arriving = arriving or []  # one of these holds as a decision comes here
        read = [*self.conditions.values(), *(a.condition for a in self.arriving
                                             if a.scope is None)]
        required = {spec.name for spec in pack.facts.board.values()
                    if spec.required or spec.required_when is not None}
        required |= {f"{a.alias}.{ref.name}" for a in self.arriving if a.scope is not None
                     for ref in all_refs(a.condition) if ref.scope == a.scope}
        self.names = sorted(required.union(*map(board_names, read)))
        self.fields: dict[str, set[str]] = {}
        for condition in read:
            kinds = scopes(condition)
            for ref in all_refs(condition):
                if ref.scope in kinds:
                    self.fields.setdefault(kinds[ref.scope], set()).add(ref.name)
            for kind in kinds.values():
                self.fields.setdefault(kind, set())
        self.random = random.Random(zlib.crc32(page.name.encode()))
        self.creators: dict[str, list[Rule]] = {}
        for rule in pack.derivations():
            if rule.then.create is not None:
                self.creators.setdefault(rule.then.create.kind, []).append(rule)

    def applying(self, probe: Probe) -> list[Rule]:
        """The page's rules whose conditions hold in the probe, in the order considered."""
        world = probe.world()
        return [rule for rule in self.rules if holds(self.conditions[rule.id], world)]

    def arrives(self, probe: Probe) -> bool:
        """Whether a decision can come to the page in the probe's situation."""
        world = probe.world()
        return not self.arriving or any(arrival.holds(world) for arrival in self.arriving)

    def probes(self, tries: int, aims: list[Rule] | None = None) -> Iterator[Probe]:
        """`tries` probes, each aimed at one way in (if the page has `arriving` conditions),
        then at every rule of `aims` (at once) if given, else half at no rule (random), half
        at a random rule (near its edges)."""
        for index in range(tries):
            probe = self._random()
            targets = aims if aims is not None else \
                [] if index % 2 == 0 or not self.rules else [self.random.choice(self.rules)]
            arrival = self.random.choice(self.arriving) if self.arriving else None
            if arrival is not None and arrival.scope is None:
                self._aim(probe, arrival.condition, {})
            for rule in targets:
                self._aim(probe, self.conditions[rule.id], {})
            yield probe

    def _random(self) -> Probe:
        probe = Probe(self.page.name)
        for name in self.names:
            domain = self.domains.board(name)
            if domain is not None:
                probe.board[name] = self.random.choice(domain.candidates())
        for kind in self.fields:
            probe.entities[kind] = [self._entity(kind) for _ in
                                    range(self.random.choice(ENTITIES))]
        return probe

    def _entity(self, kind: str) -> dict[str, Any]:
        entity: dict[str, Any] = {}
        spec = self.pack.facts.entities.get(kind)
        names = set(self.fields.get(kind, ())) | {n for n, f in (spec.fields.items() if spec
                                                                   else ()) if f.required}
        for name in sorted(names):
            domain = self.domains.field(kind, name)
            if domain is not None:
                entity[name] = self.random.choice(domain.candidates())
        return entity

    def _aim(self, probe: Probe, condition: Condition, entity: dict[str, Any],
             scope: tuple[str, str] | None = None) -> None:
        """Meet one alternative of `condition` (as far as its comparisons with constants go);
        inside an `exists`, `scope` is (alias, kind) and `entity` the one being made."""
        try:
            alternatives = disjuncts(negation_normal(condition), ALTERNATIVES)
        except OverflowError:
            return
        for part in self.random.choice(alternatives):
            if isinstance(part, Exists):
                made = self._entity(part.kind)
                if part.where is not None:
                    self._aim(probe, part.where, made, (part.alias, part.kind))
                probe.entities.setdefault(part.kind, []).append(made)
                self._source(probe, part.kind, made)
            elif isinstance(part, Not) and isinstance(part.item, Exists):
                probe.entities[part.item.kind] = []
            elif isinstance(part, Compare | Member):
                self._meet(probe, part, entity, scope)

    def _source(self, probe: Probe, kind: str, made: dict[str, Any]) -> None:
        """An entity no snapshot lists (derivations create it) is made by listing what it is
        created from: one derivation that creates the kind is aimed at, and the entity its
        condition binds gets the fields the created one copies from it (`with: {suit:
        c.suit}`). The plain evaluator reads `made`; the rule engine derives its own."""
        creators = self.creators.get(kind)
        if not creators:
            return
        rule = self.random.choice(creators)
        before = {k: len(v) for k, v in probe.entities.items()}
        self._aim(probe, rule_condition(rule), {})
        sources = scopes(rule.when)
        assert rule.then.create is not None
        for assign in rule.then.create.fields:
            value = assign.value
            if isinstance(value, Ref) and value.scope in sources and assign.name in made:
                items = probe.entities.get(sources[value.scope], [])
                if len(items) > before.get(sources[value.scope], 0):
                    items[before.get(sources[value.scope], 0)][value.name] = made[assign.name]

    def _meet(self, probe: Probe, part: Compare | Member, entity: dict[str, Any],
              scope: tuple[str, str] | None) -> None:
        """Give the name a comparison reads a candidate value that satisfies it, if any."""
        ref = part.value if isinstance(part, Member) else \
            part.left if isinstance(part.right, Literal) else part.right
        if not isinstance(ref, Ref):
            return
        if ref.scope is None:
            domain, target = self.domains.board(ref.name), probe.board
        elif scope is not None and ref.scope == scope[0]:
            domain, target = self.domains.field(scope[1], ref.name), entity
        else:
            return
        if domain is None:
            return
        fitting = [v for v in domain.candidates()
                   if holds(part, World({ref.name: v}), {ref.scope: {ref.name: v}}
                            if ref.scope else None)]
        if fitting:
            target[ref.name] = self.random.choice(fitting)
