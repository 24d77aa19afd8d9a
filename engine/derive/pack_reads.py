"""What a pack's rules read: one analysis (`PackReads`), worked out when an engine is built
and kept with it, so the on-disk compiled-pack cache carries it and a cached decision never
works it out again.

Each question about reading takes its own view, counted as that question needs:
- strata (`DerivationReads.needs`): what a derivation waits for, and whether finished;
- the incremental rederive (`readers`, from `DerivationReads.depends_on`): who reads what
  changed, kinds quantified over included;
- reusing the last derivation (`derived_from`): every board name and kind any derivation
  can depend on, created kinds and kinds with derived fields included;
- reach and the questionnaire (`sources`, `by_rule`, `RuleReads.outcome`): what a judgment,
  derived field or created kind comes down to, in the order written;
- a trace (`RuleReads.names`, `RuleReads.fields`, `judgment_fields`, `fields_behind`,
  `shown_fields`): what a skipped rule read, which entity judgments to show;
- a decision's assumptions without a walk's reading (`judgment_inputs`, `field_inputs`):
  the board names behind a judgment (its `when` only) or an entity field (`when` and value).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..compile.rulesets import rule_condition
from ..language.expressions import Condition
from ..language.pack import Pack
from ..language.rule_reads import (
    FIELD,
    KIND,
    NAME,
    DerivationReads,
    Item,
    Product,
    RuleReads,
    bound_kinds,
    read_derivation,
    read_rule,
)
from ..language.tree_queries import all_refs, board_names, kinds_read


@dataclass(frozen=True)
class DerivedFrom:
    """What derivations can depend on: board names, and entity kinds they quantify over,
    derive fields of, or create (a rederive whose inputs are the same there reuses)."""

    names: frozenset[str]
    kinds: frozenset[str]


@dataclass(frozen=True)
class PackReads:
    """What every rule of a pack reads and concludes, and what follows for the pack."""

    rules: dict[str, RuleReads]  # every rule, by id
    derivations: dict[str, DerivationReads]  # every derivation, by id
    aliases: dict[str, str]  # alias a rule binds → the entity's kind
    # judgment, derived field or created kind → what its derivations read, in order
    sources: dict[Item, list[Item]]
    # judgment or created kind → each derivation's condition, and what its value reads: what
    # a derivation reads is then read as the walk reads, on the board as it is (a judgment
    # guarded by `mode == 'x'` reads nothing more when the mode is another)
    by_rule: dict[Item, list[tuple[Condition, list[Item]]]]
    readers: dict[Product, frozenset[str]]  # product → the derivations depending on it
    derived_from: DerivedFrom
    # judgment → every board name its derivations' `when` reads, through other judgments too;
    # judgment → the entity fields those read (`any(option, option.favorable)`)
    judgment_inputs: dict[str, set[str]]
    judgment_fields: dict[str, set[str]]
    # entity field → every board name its derivations read, through other derived fields and
    # judgments too (a field named alike on two kinds shares one entry); entity field → the
    # other entity fields behind it (a Principle's `favorable` → its tests)
    field_inputs: dict[str, set[str]]
    fields_behind: dict[str, set[str]]
    # derived entity fields nothing reads: they show a player the arithmetic (a battle's
    # 'fresh ships vs defenders'), so every trace lists them
    shown_fields: frozenset[str]


def pack_reads(pack: Pack) -> PackReads:
    """The analysis, worked out once per pack (an engine keeps it)."""
    aliases = bound_kinds(pack)
    rules = {rule.id: read_rule(rule, rule_condition(rule), aliases) for rule in pack.rules()}
    derivations = {rule.id: read_derivation(rule, aliases) for rule in pack.derivations()}
    sources, by_rule = _sources(rules, derivations)
    readers: dict[Product, set[str]] = {}
    for rule_id, read in derivations.items():
        for product in read.depends_on:
            readers.setdefault(product, set()).add(rule_id)
    judgment_inputs, judgment_fields = _inputs_of_judgments(pack)
    field_inputs, fields_behind = _inputs_of_fields(pack, judgment_inputs)
    read_fields = set().union(*(r.fields for r in rules.values()), *judgment_fields.values(),
                              *(behind - {name} for name, behind in fields_behind.items()))
    derived = {name for spec in pack.facts.entities.values()
               for name, field in spec.fields.items() if field.derived}
    return PackReads(rules, derivations, aliases, sources, by_rule,
                     {product: frozenset(ids) for product, ids in readers.items()},
                     _derived_from(pack), judgment_inputs, judgment_fields, field_inputs,
                     fields_behind, frozenset(derived - read_fields))


def _sources(rules: Mapping[str, RuleReads], derivations: Mapping[str, DerivationReads],
             ) -> tuple[dict[Item, list[Item]], dict[Item, list[tuple[Condition, list[Item]]]]]:
    """`PackReads.sources` and `.by_rule`, derivation by derivation in the pack's order (what
    an earlier derivation of the same target read is not listed again)."""
    sources: dict[Item, list[Item]] = {}
    by_rule: dict[Item, list[tuple[Condition, list[Item]]]] = {}
    for rule_id, read in derivations.items():
        target = read.source_of
        if target is None:
            continue
        items = sources.setdefault(target, [])
        items += [item for item in read.when_items + read.value_items
                  if item not in items and item != target]
        if target[0] == NAME:  # a board judgment, else the kind it creates, if any
            by_rule.setdefault(target, []).append((rules[rule_id].condition,
                                                   list(read.judged_items)))
        elif read.concludes[0][0] == "kind":
            by_rule.setdefault((KIND, read.concludes[0][1]), []).append(
                (rules[rule_id].condition, list(read.created_items)))
    return sources, by_rule


def _derived_from(pack: Pack) -> DerivedFrom:
    """Every derivation's board names and kinds, in its `when`, its judged value and its
    created entity's fields; and every kind rules create or derive fields of."""
    names: set[str] = set()
    kinds = {kind for kind, spec in pack.facts.entities.items()
             if spec.created or spec.derived_fields()}
    for rule in pack.derivations():
        parts: list[object] = [rule.when]
        if rule.then.judge is not None:
            parts.append(rule.then.judge.value)
        if rule.then.create is not None:
            kinds.add(rule.then.create.kind)
            parts.extend(assign.value for assign in rule.then.create.fields)
        for part in parts:
            names.update(board_names(part))
            kinds.update(kinds_read(part))
    return DerivedFrom(frozenset(names), frozenset(kinds))


def _entity_fields(*parts: object) -> set[str]:
    """The entity fields (by their own name) these trees read on a bound entity."""
    return {r.name for part in parts for r in all_refs(part) if r.scope is not None}


def _inputs_of_judgments(pack: Pack) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    direct: dict[str, set[str]] = {}
    fields: dict[str, set[str]] = {}
    for rule in pack.derivations():
        judge = rule.then.judge
        if judge is not None and judge.alias is None:
            direct.setdefault(judge.name, set()).update(board_names(rule.when))
            fields.setdefault(judge.name, set()).update(_entity_fields(rule.when))
    closed: dict[str, set[str]] = {}
    entity_fields: dict[str, set[str]] = {}
    for name in direct:
        seen: set[str] = set()
        work = [name]
        while work:
            for read in direct.get(work.pop(), set()):
                if read not in seen:
                    seen.add(read)
                    work.append(read)
        closed[name] = seen
        entity_fields[name] = fields[name].union(*(fields.get(n, set()) for n in seen))
    return closed, entity_fields


def _inputs_of_fields(pack: Pack, judgment_inputs: Mapping[str, set[str]],
                      ) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    direct: dict[str, set[str]] = {}
    fields: dict[str, set[str]] = {}
    for rule in pack.derivations():
        judge = rule.then.judge
        if judge is None or judge.alias is None:
            continue
        parts = (rule.when, judge.value)
        direct.setdefault(judge.name, set()).update(*(board_names(p) for p in parts))
        fields.setdefault(judge.name, set()).update(_entity_fields(*parts))
    closed: dict[str, set[str]] = {}
    behind: dict[str, set[str]] = {}
    for name in direct:
        seen, work, found = {name}, [name], set()
        while work:
            field = work.pop()
            found |= direct.get(field, set())
            for judgment in direct.get(field, set()):
                found |= judgment_inputs.get(judgment, set())
            for other in fields.get(field, set()) - seen:
                seen.add(other)
                work.append(other)
        closed[name] = found
        behind[name] = seen
    return closed, behind


def rules_reached(start: Iterable[Product], rules_of: Mapping[Product, Iterable[str]],
                  products_of: Callable[[str], Iterable[Product]]) -> set[str]:
    """The derivations reached from `start`: each product's derivations (`rules_of`: its
    readers, to follow a change forward; its producers, to close a read backward), then the
    products each of those gives (`products_of`), until nothing new is reached."""
    found: set[str] = set()
    seen = set(start)
    work = list(seen)
    while work:
        for rule_id in rules_of.get(work.pop(), ()):
            if rule_id in found:
                continue
            found.add(rule_id)
            for product in products_of(rule_id):
                if product not in seen:
                    seen.add(product)
                    work.append(product)
    return found


__all__ = ["FIELD", "KIND", "NAME", "DerivedFrom", "PackReads", "pack_reads", "rules_reached"]
