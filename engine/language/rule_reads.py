"""What one rule reads and concludes, read off its trees once (`derive/pack_reads.py` gathers these
into the pack's one analysis, `PackReads`).

Two vocabularies, for two kinds of question:
- an `Item` — (NAME, a board name or judgment), (KIND, an entity kind), (FIELD, `kind.field`)
  — is what a walk reads, in the order written: `walk/facts_read.py` follows items down to the
  facts a decision rested on;
- a `Product` — ("judgment", name), ("field", `kind.field`), ("kind", kind) — is what a
  derivation establishes and what another derivation needs of it: strata order derivations
  by it, and the incremental rederive finds who reads what changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .expressions import TRUE, Aggregate, All, Any_, Compare, Condition, Exists, Not, Ref
from .outcomes import Assign, Choice, Distribute, Each, Roll, Update
from .pack import Pack, Rule
from .tree_queries import all_refs, board_names, children, kinds_read, negation_normal, scopes

# alias → kind of a tree, remembered here (the analysis asks it of a tree several times and
# only reads the answer; `trees.scopes` hands out a dict of its own to every caller)
_scopes = cache(scopes)

NAME, KIND, FIELD = "name", "kind", "field"
Item = tuple[str, str]  # (NAME | KIND | FIELD, what)
Product = tuple[str, str]  # ("judgment", name) | ("field", "kind.field") | ("kind", kind)


@dataclass(frozen=True)
class RuleReads:
    """What one rule (a decision line or a derivation) reads."""

    condition: Condition  # what must hold: `when`, and a candidate for each non-optional choice
    names: tuple[str, ...]  # board names the condition reads, sorted: a skipped rule's `read`
    # entity fields (by their own name) read by the condition, the choices' Prefer and order,
    # the loops' where and order, and the values set: the entity judgments a trace shows
    fields: frozenset[str]
    # what the outcome reads before it acts, in order (`walk/facts_read.py`)
    outcome: tuple[Item, ...]


@dataclass(frozen=True)
class DerivationReads:
    """What a derivation reads and concludes, counted as each question about it needs."""

    concludes: tuple[Product, ...]  # what it establishes (create before judge)
    # strata: each product its condition (as negation normal form) and values read, and
    # whether it must be final first (read under `not`, compared, aggregated, in a value)
    needs: tuple[tuple[Product, bool], ...]
    # the incremental rederive: `needs`, and every kind its `when` and judged value quantify
    # over (nested aggregates included)
    depends_on: frozenset[Product]
    # reach: the judgment, entity field or created kind it derives (judge before create), and
    # what its `when`, its judged value and its created entity's fields read, in order
    source_of: Item | None
    when_items: tuple[Item, ...]
    judged_items: tuple[Item, ...]
    created_items: tuple[Item, ...]

    @property
    def value_items(self) -> tuple[Item, ...]:
        """What the value it derives `source_of` with reads."""
        return self.judged_items if self.source_of and self.source_of[0] != KIND else \
            self.created_items


def read_rule(rule: Rule, condition: Condition, aliases: Mapping[str, str]) -> RuleReads:
    """`condition`: what must hold for the rule to apply (`compiled.rule_condition`);
    `aliases`: the kinds of the entities rules bind (`bound_kinds`)."""
    return RuleReads(condition, tuple(sorted(board_names(condition))),
                     _fields_read(rule, condition), tuple(outcome_reads(rule, aliases)))


def read_derivation(rule: Rule, aliases: Mapping[str, str]) -> DerivationReads:
    """Each view of a derivation's reads (see DerivationReads), from one rule."""
    then = rule.then
    needs = tuple(_needs(rule))
    parts = [rule.when, *([then.judge.value] if then.judge else [])]
    depends_on = {product for product, _ in needs}
    depends_on.update(("kind", kind) for part in parts for kind in kinds_read(part))
    known = {**aliases, **_scopes(rule.when)}
    source_of: Item | None = None
    if then.judge is not None:
        alias = then.judge.alias
        source_of = (FIELD, f"{known.get(alias, '*')}.{then.judge.name}") if alias else \
            (NAME, then.judge.name)
    elif then.create is not None:
        source_of = (KIND, then.create.kind)
    judged = tree_items(then.judge.value, known) if then.judge else []
    created = [item for a in (then.create.fields if then.create else ())
               for item in tree_items(a.value, known)]
    return DerivationReads(tuple(_concludes(rule)), needs, frozenset(depends_on), source_of,
                           tuple(tree_items(rule.when, known)), tuple(judged), tuple(created))


def _concludes(rule: Rule) -> list[Product]:
    then = rule.then
    if then.create is not None:
        return [("kind", then.create.kind)]
    assert then.judge is not None
    if then.judge.alias is None:
        return [("judgment", then.judge.name)]
    kind = _scopes(rule.when).get(then.judge.alias, "")
    return [("field", f"{kind}.{then.judge.name}")]


# --- items: what a walk reads, in the order written ---------------------------------------


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
    known = {**aliases, **_scopes(node)}
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


def _fields_read(rule: Rule, condition: Condition) -> frozenset[str]:
    """Entity fields by their own name: `option.strength` of a bound entity too. A choice's
    `where` counts through the condition (a non-optional choice's candidate), an optional
    one's not."""
    parts: list[object] = [condition]
    for effect in rule.then.effects:
        if isinstance(effect, Choice):
            parts += [p.when for p in effect.prefer] + [k.value for k in effect.order]
        elif isinstance(effect, Each):
            parts += [effect.where, *(k.value for k in effect.order)]
        elif isinstance(effect, Assign):
            parts.append(effect.value)
    refs = [r for part in parts if part is not None for r in all_refs(part)]
    return frozenset(r.name if r.scope is not None else r.name.rpartition(".")[2]
                     for r in refs if r.scope is not None or "." in r.name)


# --- needs: what a derivation waits for ---------------------------------------------------


def _needs(rule: Rule) -> list[tuple[Product, bool]]:
    """(product read, needs it final) for everything a derivation's condition and values read.
    A positive `J` in the condition chains in the same stratum; `not J`, `J == 3`, an
    aggregate, a value need J's derivations finished."""
    found: list[tuple[Product, bool]] = []
    kinds = _scopes(rule.when)
    _condition_needs(negation_normal(rule.when), kinds, found, final=False)
    values = []
    if rule.then.judge is not None:
        values.append(rule.then.judge.value)
    if rule.then.create is not None:
        values.extend(a.value for a in rule.then.create.fields)
    for value in values:
        kinds = {**kinds, **_scopes(value)}
        _value_needs(value, kinds, found)
    return found


def _condition_needs(node: Condition, kinds: dict[str, str],
                     found: list[tuple[Product, bool]], final: bool) -> None:
    if isinstance(node, Compare):
        positive = not final and node.op == "==" and node.right == TRUE and \
            isinstance(node.left, Ref)
        for side in (node.left, node.right):
            if isinstance(side, Ref):
                found.append((_product(side, kinds), not positive))
            else:
                _value_needs(side, kinds, found)
        return
    if isinstance(node, Exists):
        found.append((("kind", node.kind), final))
        if node.where is not None:
            _condition_needs(node.where, kinds, found, final)
        return
    if isinstance(node, Not):
        _condition_needs(node.item, kinds, found, final=True)
        return
    if isinstance(node, All | Any_):
        for item in node.items:
            _condition_needs(item, kinds, found, final)
        return
    for child in children(node):  # Member: its value
        _value_needs(child, kinds, found)


def _value_needs(node: object, kinds: dict[str, str],
                 found: list[tuple[Product, bool]]) -> None:
    """Values are computed once: everything they read must be final, the kinds of aggregates
    nested in arithmetic (`count(option) + 1`) included."""
    found.extend((("kind", kind), True) for kind in _kinds_of(node))
    known = {**kinds, **_scopes(node)}
    found.extend((_product(ref, known), True) for ref in all_refs(node))


def _product(ref: Ref, kinds: dict[str, str]) -> Product:
    if ref.scope is None:
        return ("judgment", ref.name)
    return ("field", f"{kinds.get(ref.scope, ref.scope)}.{ref.name}")


__all__ = ["FIELD", "KIND", "NAME", "DerivationReads", "Item", "Product", "RuleReads",
           "bound_kinds", "outcome_reads", "read_derivation", "read_rule", "tree_items"]
