"""What a rule mentions, statically: the board names, entity kinds and entity fields its trees
read, in the order written (`walk/facts_read.py` reads the walk itself; these are what an outcome
reads before it acts, and what a derivation may read), and, per pack, what each judgment, derived
field and created kind is derived from (`KnownReads`, worked out once per engine).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .expressions import Aggregate, Exists
from .outcomes import Assign, Choice, Distribute, Each, Roll, Update
from .pack import Pack, Rule
from .tree_queries import all_refs, children, scopes

if TYPE_CHECKING:
    from ..decide import Engine
    from .expressions import Condition

NAME, KIND, FIELD = "name", "kind", "field"
Item = tuple[str, str]  # (NAME | KIND | FIELD, what)


def _kinds_of(node: Any) -> list[str]:
    """Entity kinds a tree quantifies over, in the order written."""
    found = [node.kind] if isinstance(node, Exists | Aggregate) else []
    for child in children(node):
        found += _kinds_of(child)
    return found


def tree_items(node: Any, aliases: Mapping[str, str]) -> list[Item]:
    """Board names, kinds and entity fields (`kind.field`) a tree reads, in the order written.
    `aliases`: the kinds of entities bound outside the tree (`selected` → play)."""
    if node is None:
        return []
    known = {**aliases, **scopes(node)}
    items: list[Item] = [(KIND, k) for k in _kinds_of(node)]
    for ref in all_refs(node):
        if ref.scope is not None:
            items.append((FIELD, f"{known.get(ref.scope, '*')}.{ref.name}"))
            continue
        items.append((NAME, ref.name))
        alias, dot, name = ref.name.partition(".")
        if dot and alias in known:  # `selected.actions`: a field of the bound entity
            items.append((FIELD, f"{known[alias]}.{name}"))
    return items


def bound_kinds(pack: Pack) -> dict[str, str]:
    """alias → kind for every entity a rule binds by `select`/`target`/`each` (`as:`)."""
    return {effect.alias: effect.kind for rule in pack.rules() for effect in rule.then.effects
            if isinstance(effect, Choice | Each)}


def outcome_reads(rule: Rule, aliases: Mapping[str, str]) -> list[Item]:
    """What a fired rule's outcome reads before it acts: the values it sets and rolls, the
    entities it chooses among (and how it filters, prefers and orders them), the entities it
    loops or spreads over, and the page names it computes (`fate.{fate}.act{act}`). Texts a
    player only reads (`say`, details) are left out: showing a value is not deciding on it."""
    then = rule.then
    items: list[Item] = []

    def read(*trees: Any, scope: dict[str, str] | None = None) -> None:
        for tree in trees:
            items.extend(tree_items(tree, {**aliases, **(scope or {})}))

    for effect in then.effects:
        if isinstance(effect, Assign):
            read(effect.value)
        elif isinstance(effect, Roll):
            read(effect.count, effect.success)
        elif isinstance(effect, Choice | Each | Distribute):
            items.append((KIND, effect.kind))
            scope = {effect.scope: effect.kind}
            read(effect.where, *(key.value for key in effect.order), scope=scope)
            if isinstance(effect, Choice):
                read(*(p.when for p in effect.prefer), scope=scope)
            if isinstance(effect, Distribute):
                read(effect.amount, effect.cap, scope=scope)
        elif isinstance(effect, Update):
            read(*(assign.value for assign in effect.fields))
    for link in (then.call, then.goto):
        if link is not None:
            read(*(part for part in link.parts if not isinstance(part, str)))
    return items




@dataclass(frozen=True)
class KnownReads:
    """What a pack's rules say about reading, worked out once per engine."""

    sources: dict[Item, list[Item]]  # judgment, derived field, created kind → what it reads
    aliases: dict[str, str]  # alias a rule binds → the entity's kind
    rules: dict[str, Rule]
    # judgment or created kind → each derivation's condition, and what its value reads
    by_rule: dict[Item, list[tuple[Condition, list[Item]]]]


def known_reads(engine: Engine) -> KnownReads:
    """Worked out when an engine is built, so the on-disk cache keeps it (for a pack of ~500
    derivations a cold `decide` would otherwise spend ~50 ms on it)."""
    aliases = bound_kinds(engine.pack)
    return KnownReads(_derivation_sources(engine.pack, aliases), aliases,
                      {rule.id: rule for rule in engine.pack.rules()},
                      _derivation_rules(engine, aliases))


def _derivation_rules(engine: Engine, aliases: Mapping[str, str],
                      ) -> dict[Item, list[tuple[Condition, list[Item]]]]:
    """Judgment or created kind → (condition, what the value reads) for each derivation: what
    a derivation reads is then read as the walk reads, on the board as it is — a judgment
    guarded by `mode == 'x'` reads nothing more when the mode is another."""
    found: dict[Item, list[tuple[Condition, list[Item]]]] = {}
    for rule in engine.pack.derivations():
        then = rule.then
        known = {**aliases, **scopes(rule.when)}
        if then.judge is not None and then.judge.alias is None:
            target, trees = (NAME, then.judge.name), [then.judge.value]
        elif then.create is not None:
            target, trees = (KIND, then.create.kind), [a.value for a in then.create.fields]
        else:
            continue
        items = [item for tree in trees for item in tree_items(tree, known)]
        found.setdefault(target, []).append((engine.conditions[rule.id], items))
    return found


def _derivation_sources(pack: Pack, aliases: Mapping[str, str]) -> dict[Item, list[Item]]:
    """Judgment, derived entity field or created kind → what its derivations read, in order."""
    found: dict[Item, list[Item]] = {}
    for rule in pack.derivations():
        then = rule.then
        known = {**aliases, **scopes(rule.when)}
        if then.judge is not None:
            alias = then.judge.alias
            target = (FIELD, f"{known.get(alias, '*')}.{then.judge.name}") if alias else \
                (NAME, then.judge.name)
            trees = [rule.when, then.judge.value]
        elif then.create is not None:
            target = (KIND, then.create.kind)
            trees = [rule.when, *(a.value for a in then.create.fields)]
        else:
            continue
        items = found.setdefault(target, [])
        items += [item for tree in trees for item in tree_items(tree, known)
                  if item not in items and item != target]
    return found


__all__ = ["FIELD", "KIND", "NAME", "Item", "KnownReads", "bound_kinds", "known_reads",
           "outcome_reads", "tree_items"]
