"""Checks of a loaded pack, before any snapshot is decided: names, types, pages, judgments.

Each check yields RuleFileErrors (`rules lint` shows them all, loading stops at the first).
A typo — an unknown name, field, kind, page or enum value — gets "did you mean". Comparisons
are type-checked: booleans are booleans, `<` compares numbers, an enum is one of its values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..errors import RuleFileError, did_you_mean
from ..language.expressions import ALWAYS, Aggregate, Arith, Compare, Extreme, Literal, Member, Ref
from ..language.outcomes import (
    DIE,
    Assign,
    Choice,
    Distribute,
    Draw,
    Each,
    Roll,
    Say,
    Template,
    Update,
)
from ..language.pack import DECISION, DERIVATION, FieldSpec, Pack, Rule
from ..language.tree_queries import all_refs, children, scopes

_NUMBER = {"integer", "number"}


def _kind_of_type(spec_type: str) -> str:
    return "number" if spec_type in _NUMBER else spec_type


class _Names:
    """Every board name a pack's rules may read, with its spec where it has one."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.specs: dict[str, FieldSpec | None] = {}
        facts = pack.facts
        for table in (facts.board, facts.judgments, facts.variables):
            self.specs.update(table)
        for rule in pack.rules():
            for effect in rule.then.effects:
                kind = effect.kind if isinstance(effect, Choice | Each) else None
                alias = effect.alias if isinstance(effect, Choice | Each) else None
                if kind in facts.entities and alias:
                    self.specs[alias] = FieldSpec(alias, "boolean")
                    for name, spec in facts.entities[kind].fields.items():
                        self.specs[f"{alias}.{name}"] = spec
                if isinstance(effect, Roll):
                    self.specs.setdefault(effect.alias, FieldSpec(effect.alias, "integer"))
                if isinstance(effect, Draw):
                    self.specs.setdefault(effect.alias, FieldSpec(
                        effect.alias, "string", enum=[name for name, _ in effect.pool]))
                if isinstance(effect, Distribute) and effect.rest:
                    self.specs.setdefault(effect.rest, FieldSpec(effect.rest, "integer"))

    def known(self) -> set[str]:
        return set(self.specs)


def check_pack(pack: Pack) -> Iterator[RuleFileError]:
    """Every problem of a loaded pack, rule by rule."""
    names = _Names(pack)
    start = pack.pages.get(pack.start)
    if start is not None and start.kind != DECISION:
        yield RuleFileError(f"start page {pack.start!r} is a derivation page",
                            file=pack.files[0])
    for rule in pack.rules():
        yield from _rule_problems(rule, pack, names)
    for page in pack.pages.values():
        if page.after_action is not None and page.rules:
            first = page.rules[0]
            yield from _rule_problems(replace(first, id=f"{page.name} after_action", when=ALWAYS,
                                              then=page.after_action), pack, names)


def _fail(rule: Rule, message: str, hint: str | None = None) -> RuleFileError:
    return RuleFileError(message, file=rule.file, line=rule.line, path=f"rule {rule.id}",
                         hint=hint)


def _rule_problems(rule: Rule, pack: Pack, names: _Names) -> Iterator[RuleFileError]:
    kinds = scopes(rule.when)
    yield from _tree(rule.when, kinds, rule, pack, names, "when")
    then = rule.then
    for effect in then.effects:
        if isinstance(effect, Choice | Each | Distribute):
            if effect.kind not in pack.facts.entities:
                yield _fail(rule, f"unknown kind {effect.kind!r}",
                            did_you_mean(effect.kind, set(pack.facts.entities)))
                continue
            scoped = {**kinds, effect.scope: effect.kind}
            parts: list[Any] = [effect.where]
            if isinstance(effect, Choice):
                parts += [p.when for p in effect.prefer]
            parts += [k.value for k in effect.order]
            if isinstance(effect, Distribute):
                parts += [effect.cap, effect.amount]
                if effect.field not in pack.facts.entities[effect.kind].fields:
                    yield _fail(rule, f"distribute: {effect.kind} has no field "
                                      f"{effect.field!r}",
                                did_you_mean(effect.field,
                                             set(pack.facts.entities[effect.kind].fields)))
            for part in parts:
                if part is not None:
                    yield from _tree(part, scoped, rule, pack, names, "then")
        elif isinstance(effect, Update):
            for assign in effect.fields:
                yield from _tree(assign.value, kinds, rule, pack, names, "then.update")
        elif isinstance(effect, Roll):
            yield from _tree(effect.count, kinds, rule, pack, names, "then.roll")
            yield from _template(effect.says, kinds, rule, pack, names, "then.roll.says")
            if effect.success is not None:
                for ref in all_refs(effect.success):
                    if ref.scope == DIE and ref.name != "face":
                        yield _fail(rule, f"then.roll.success: a die has only a `face`, not "
                                          f"{ref.name!r}")
                board_part = [r for r in all_refs(effect.success) if r.scope is None]
                for ref in board_part:
                    if ref.name not in names.specs:
                        yield _fail(rule, f"then.roll.success: unknown name {ref.name!r}",
                                    did_you_mean(ref.name, names.known()))
        elif isinstance(effect, Draw):
            for name, count in effect.pool:
                yield from _tree(count, kinds, rule, pack, names, f"then.draw.from.{name}")
            yield from _template(effect.says, kinds, rule, pack, names, "then.draw.says")
        elif isinstance(effect, Say):
            yield from _template(effect.text, kinds, rule, pack, names, "then.say")
            if effect.snapshot is not None:
                yield from _template(effect.snapshot, kinds, rule, pack, names, "then.snapshot")
        elif isinstance(effect, Assign):
            if effect.name not in names.specs:
                yield _fail(rule, f"then.set names unknown variable {effect.name!r}",
                            did_you_mean(effect.name, names.known()))
            yield from _tree(effect.value, kinds, rule, pack, names, "then.set")
    if then.action is not None:
        yield from _declared(rule, then.action.name, pack)
    texts = [t for _, t in then.action.texts] + [then.action.name] if then.action else []
    for text in [*texts, *([then.stop] if then.stop else [])]:
        yield from _template(text, kinds, rule, pack, names, "then")
    for how, target in then.page_links():
        if target.static and target.text not in pack.pages:
            yield _fail(rule, f"then.{how} leads to page {target.text!r}, which no rule "
                              "file defines", did_you_mean(target.text, set(pack.pages)))
        elif target.static and pack.pages[target.text].kind != DECISION:
            yield _fail(rule, f"then.{how} leads to {target.text!r}, a derivation page")
        yield from _template(target, kinds, rule, pack, names, f"then.{how}")
    if rule.kind == DERIVATION:
        yield from _derivation_problems(rule, pack, kinds, names)


def _declared(rule: Rule, action: Template, pack: Pack) -> Iterator[RuleFileError]:
    """An `action:` names one the pack declares (a name spelled from the board, `{...}`, is
    known only when deciding)."""
    if pack.actions is not None and action.static and str(action) not in pack.actions:
        yield _fail(rule, f"then.action: {str(action)!r} is not an action the pack declares",
                    did_you_mean(str(action), pack.actions)
                    or "list it under actions: in pack.yaml, or in this file for an action "
                       "of its own")


def _derivation_problems(rule: Rule, pack: Pack, kinds: dict[str, str],
                         names: _Names) -> Iterator[RuleFileError]:
    then = rule.then
    if then.judge is not None:
        judge = then.judge
        if judge.alias is None and judge.name not in pack.facts.judgments:
            yield _fail(rule, f"judges undeclared judgment {judge.name!r}",
                        did_you_mean(judge.name, set(pack.facts.judgments))
                        or "declare it under facts.judgments in pack.yaml")
        elif judge.alias is not None:
            kind = kinds[judge.alias]
            spec = pack.facts.entities[kind].fields.get(judge.name) \
                if kind in pack.facts.entities else None
            if spec is None or not spec.derived:
                yield _fail(rule, f"judges {judge.target}, but {kind} has no derived field "
                                  f"{judge.name!r}", "declare it with `derived: true`")
        yield from _tree(judge.value, kinds, rule, pack, names, "then.value")
    if then.create is not None:
        entity = pack.facts.entities.get(then.create.kind)
        if entity is None or not entity.created:
            yield _fail(rule, f"creates {then.create.kind!r}, which is not a kind rules create",
                        "declare it under facts.entities with `created: true`")
            return
        for assign in then.create.fields:
            if assign.name not in entity.fields:
                yield _fail(rule, f"create {then.create.kind}: no field {assign.name!r}",
                            did_you_mean(assign.name, set(entity.fields)))
            yield from _tree(assign.value, kinds, rule, pack, names, "then.with")


def _template(text: Template, kinds: dict[str, str], rule: Rule, pack: Pack, names: _Names,
              where: str) -> Iterator[RuleFileError]:
    for part in text.parts:
        if not isinstance(part, str):
            yield from _tree(part, kinds, rule, pack, names, where)


# --- names and types of one tree -------------------------------------------------------------


def _tree(node: Any, kinds: dict[str, str], rule: Rule, pack: Pack, names: _Names,
          where: str) -> Iterator[RuleFileError]:
    kinds = {**kinds, **scopes(node)}
    for kind in set(kinds.values()):
        if kind not in pack.facts.entities:
            yield _fail(rule, f"{where}: unknown kind {kind!r}",
                        did_you_mean(kind, set(pack.facts.entities)))
            return
    for ref in all_refs(node):
        if _spec(ref, kinds, pack, names) is None and not ref.name.startswith("__"):
            if ref.scope is None:
                yield _fail(rule, f"{where}: unknown name {ref.name!r}",
                            did_you_mean(ref.name, names.known()))
            else:
                fields = pack.facts.entities[kinds[ref.scope]].fields
                yield _fail(rule, f"{where}: {kinds[ref.scope]} has no field {ref.name!r}",
                            did_you_mean(ref.name, set(fields)))
    yield from _types(node, kinds, rule, pack, names, where)


def _spec(ref: Ref, kinds: dict[str, str], pack: Pack, names: _Names) -> FieldSpec | None:
    if ref.scope is None:
        return names.specs.get(ref.name)
    kind = kinds.get(ref.scope)
    return pack.facts.entities[kind].fields.get(ref.name) if kind else None


def _type(value: Any, kinds: dict[str, str], pack: Pack, names: _Names) -> str | None:
    if isinstance(value, Literal):
        if value.value is None:
            return None
        return {bool: "boolean", str: "string"}.get(type(value.value), "number")
    if isinstance(value, Ref):
        spec = _spec(value, kinds, pack, names)
        return _kind_of_type(spec.type) if spec else None
    if isinstance(value, Arith | Extreme):
        return "number"
    if isinstance(value, Aggregate):
        return "boolean" if value.op in ("any", "all") else "number"
    return None


def _types(node: Any, kinds: dict[str, str], rule: Rule, pack: Pack, names: _Names,
           where: str) -> Iterator[RuleFileError]:
    if isinstance(node, Compare):
        left = _type(node.left, kinds, pack, names)
        right = _type(node.right, kinds, pack, names)
        if node.op in ("<", "<=", ">", ">=") and "number" not in (left, right) and \
                (left or right):
            yield _fail(rule, f"{where}: {node} compares {left or right}s with {node.op}; "
                              "only numbers are ordered")
        elif left and right and left != right:
            yield _fail(rule, f"{where}: {node} compares a {left} with a {right}: it can "
                              "never hold")
        for ref, other in ((node.left, node.right), (node.right, node.left)):
            yield from _enum(ref, [other], kinds, rule, pack, names, where)
    elif isinstance(node, Member):
        yield from _enum(node.value, [Literal(o) for o in node.options], kinds, rule, pack,
                         names, where)
    elif isinstance(node, Arith):
        for side in (node.left, node.right):
            kind = _type(side, kinds, pack, names)
            if kind not in (None, "number"):
                yield _fail(rule, f"{where}: {node} does arithmetic on a {kind}")
    for child in children(node):
        yield from _types(child, {**kinds, **scopes(child)}, rule, pack, names, where)


def _enum(ref: Any, others: list[Any], kinds: dict[str, str], rule: Rule, pack: Pack,
          names: _Names, where: str) -> Iterator[RuleFileError]:
    if not isinstance(ref, Ref):
        return
    spec = _spec(ref, kinds, pack, names)
    allowed = pack.allowed(spec) if spec else None
    if not allowed:
        return
    for other in others:
        if isinstance(other, Literal) and isinstance(other.value, str) and \
                other.value not in allowed:
            yield _fail(rule, f"{where}: {ref} is never {other.value!r}",
                        did_you_mean(other.value, {str(a) for a in allowed})
                        or f"its values: {', '.join(map(str, allowed))}")
