"""What a rule mentions, statically: the board names, entity kinds and entity fields its trees
read, in the order written (`reach.py` reads the walk itself; these are what an outcome reads
before it acts, and what a derivation may read).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .expressions import Aggregate, Exists
from .model import Pack, Rule
from .outcomes import Assign, Choice, Distribute, Each, Roll, Update
from .trees import all_refs, children, scopes

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


__all__ = ["FIELD", "KIND", "NAME", "Item", "bound_kinds", "outcome_reads", "tree_items"]
