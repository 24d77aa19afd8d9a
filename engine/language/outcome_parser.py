"""Parsing an outcome (`then:` of a rule) once, at load, into the typed objects of `outcomes.py`.

Every value, condition and template is parsed here, so a malformed outcome is an error naming
its path inside `then` before any snapshot is decided."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..text import PathKey
from .action_fields import GENERIC_FIELDS, ActionFields
from .expressions import TRUE, Compare, Condition, Exists, Literal, Value
from .outcomes import (
    DIE,
    Action,
    Assign,
    Choice,
    Create,
    Distribute,
    Draw,
    Each,
    Effect,
    Judge,
    OrderKey,
    Outcome,
    Preference,
    Rederive,
    Remove,
    Roll,
    Say,
    Template,
    Update,
    scope_alias,
)
from .parser import parse, parse_setting, parse_value
from .tokens import ConditionSyntaxError
from .unparse import show

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_DICE = re.compile(r"^\s*(?:(\d+)|\{([^{}]+)\})?d(\d+)\s*$")


class OutcomeError(ValueError):
    """A malformed outcome, with the path inside `then` where it was found."""

    def __init__(self, message: str, path: PathKey) -> None:
        self.path = path
        super().__init__(message)


@dataclass(frozen=True)
class Names:
    """What a rule's texts may name: the pack's entity kinds, and the aliases its condition
    binds (`o` of `exists option as o`), whose fields outcome values may read (`o.units`)."""

    kinds: frozenset[str]
    aliases: frozenset[str] = frozenset()


def template(text: Any, names: Names, path: PathKey) -> Template:
    text = str(text)
    parts: list[str | Value] = []
    last = 0
    for match in _PLACEHOLDER.finditer(text):
        parts.append(text[last:match.start()])
        parts.append(_value(match.group(1), names, path))
        last = match.end()
    parts.append(text[last:])
    return Template(text, tuple(p for p in parts if p != ""))


def _value(text: Any, names: Names, path: PathKey) -> Value:
    if isinstance(text, bool | int | float):
        return Literal(text)
    try:
        return parse_value(str(text), names.kinds, aliases=names.aliases)
    except ConditionSyntaxError as exc:
        raise OutcomeError(str(exc), path) from None


def _setting(text: Any, names: Names, path: PathKey) -> Value | Condition:
    if isinstance(text, bool | int | float) or text is None:
        return Literal(text)
    try:
        return parse_setting(str(text), names.kinds, aliases=names.aliases)
    except ConditionSyntaxError as exc:
        raise OutcomeError(str(exc), path) from None


def _parsed(text: str, names: Names, path: PathKey) -> Condition:
    try:
        return parse(text, names.kinds)
    except ConditionSyntaxError as exc:
        raise OutcomeError(str(exc), path) from None


def _condition(text: Any, names: Names, path: PathKey,
               scope: tuple[str, str] | None = None) -> Condition:
    """A condition; with `scope` (kind, alias), bare names are that entity's fields."""
    if isinstance(text, bool):
        text = "true" if text else "false"
    if scope is None:
        return _parsed(str(text), names, path)
    node = _parsed(f"exists {scope[0]} as {scope[1]} ({text})", names, path)
    assert isinstance(node, Exists) and node.where is not None
    return node.where


def _entity_value(text: str, names: Names, path: PathKey, scope: tuple[str, str],
                  ) -> Value:
    """A value read with the entity's fields as bare names (`units`, `board.x`)."""
    where = _condition(f"({text}) == ({text})", names, path, scope)
    assert isinstance(where, Compare)
    return where.left


def _order(raw: Any, names: Names, path: PathKey, scope: tuple[str, str],
           ) -> tuple[OrderKey, ...]:
    keys = raw if isinstance(raw, list) else [raw] if raw else []
    found = []
    for index, text in enumerate(keys):
        text = str(text).strip()
        descending = text.startswith("-")
        inner = text[1:] if descending else text
        found.append(OrderKey(_entity_value(inner, names, (*path, index), scope), descending))
    return tuple(found)


def _choice(role: str, raw: dict[str, Any], names: Names, path: PathKey) -> Choice:
    kind = raw["from"]
    scope = (kind, scope_alias(role, kind))
    where = _condition(raw["where"], names, (*path, "where"), scope) if "where" in raw else None
    prefer = []
    for index, item in enumerate(raw.get("prefer", [])):
        if isinstance(item, str):
            prefer.append(Preference(item))
        else:
            when = _condition(item["when"], names, (*path, "prefer", index, "when"), scope) \
                if "when" in item else None
            prefer.append(Preference(item["says"], when))
    order = _order(raw.get("order"), names, (*path, "order"), scope)
    return Choice(role, kind, raw.get("as", role), where, tuple(prefer), order,
                  raw.get("says", ""), bool(raw.get("optional", False)))


def _roll(raw: dict[str, Any], names: Names, path: PathKey) -> Roll:
    match = _DICE.match(str(raw["dice"]))
    if not match:
        raise OutcomeError(f"not a dice expression: {raw['dice']!r} (write 2d6, or "
                           "{NAME}d6 for a count read from the board)", (*path, "dice"))
    count: Value = _value(match.group(2), names, (*path, "dice")) if match.group(2) else \
        Literal(int(match.group(1) or 1))
    success = _condition(raw["success"], names, (*path, "success"), (DIE, DIE)) \
        if "success" in raw else None
    return Roll(count, int(match.group(3)), raw["as"],
                template(raw.get("says", ""), names, (*path, "says")), str(raw["dice"]), success)


def _draw(raw: dict[str, Any], names: Names, path: PathKey) -> Draw:
    pool = tuple((str(name), _value(str(count), names, (*path, "from", name)))
                 for name, count in raw["from"].items())
    return Draw(pool, raw["as"], template(raw.get("says", ""), names, (*path, "says")))


def _assigns(raw: dict[str, Any], names: Names, path: PathKey) -> tuple[Assign, ...]:
    return tuple(Assign(str(name), _setting(value, names, (*path, name)),
                        value if isinstance(value, str) else show(value))
                 for name, value in raw.items())


def _each(raw: dict[str, Any], names: Names, path: PathKey) -> Each:
    kind = raw["from"]
    scope = (kind, scope_alias("each", kind))
    where = _condition(raw["where"], names, (*path, "where"), scope) if "where" in raw else None
    return Each(kind, raw.get("as", "current"), where,
                _order(raw.get("order"), names, (*path, "order"), scope),
                template(raw["call"], names, (*path, "call")))


def _distribute(raw: dict[str, Any], names: Names, path: PathKey) -> Distribute:
    kind = raw["over"]
    scope = (kind, scope_alias("spread", kind))
    where = _condition(raw["where"], names, (*path, "where"), scope) if "where" in raw else None
    cap = _entity_value(str(raw["cap"]), names, (*path, "cap"), scope) if "cap" in raw else None
    return Distribute(_value(raw["amount"], names, (*path, "amount")), kind, where,
                      _order(raw.get("order"), names, (*path, "order"), scope),
                      raw["field"], cap, raw.get("rest"), raw.get("says", ""),
                      bool(raw.get("even")))


def _effect(key: str, value: Any, names: Names) -> list[Effect]:
    path: PathKey = (key,)
    if key == "roll":
        return [_roll(value, names, path)]
    if key == "draw":
        return [_draw(value, names, path)]
    if key == "set":
        return list(_assigns(value, names, path))
    if key in ("select", "target"):
        return [_choice(key, value, names, path)]
    if key == "say":
        return [Say(template(value, names, path))]
    if key == "each":
        return [_each(value, names, path)]
    if key == "update":
        return [Update(alias.rstrip("?"), _assigns(fields, names, (*path, alias)),
                       alias.endswith("?")) for alias, fields in value.items()]
    if key == "distribute":
        return [_distribute(value, names, path)]
    if key == "rederive" and value:
        return [Rederive()]
    if key == "remove":
        return [Remove(value.rstrip("?"), value.endswith("?"))]
    return []


def _with_snapshot(effects: list[Effect], snapshot: Template) -> list[Effect]:
    """The outcome's `say:` with its `snapshot:` wording."""
    if not any(isinstance(effect, Say) for effect in effects):
        raise OutcomeError("snapshot: goes with say: (the same instruction, as the fields a "
                           "snapshot gives)", ("snapshot",))
    return [Say(effect.text, snapshot) if isinstance(effect, Say) else effect
            for effect in effects]


def parse_outcome(raw: dict[str, Any], kinds: frozenset[str],
                  aliases: frozenset[str] = frozenset(),
                  fields: ActionFields = GENERIC_FIELDS) -> Outcome:
    """Parse a rule's `then:` (already checked against the rule-file schema).

    `aliases` are the entity aliases of the rule's condition: `judge: a.winning` judges the
    field `winning` of the entity bound to `a`, and `a.units` in a value reads its field.
    `fields`: what an action carries besides its name (the pack's `ActionFields`)."""
    names = Names(kinds, aliases)
    effects = [effect for key, value in raw.items() for effect in _effect(key, value, names)]
    if "snapshot" in raw:
        effects = _with_snapshot(effects, template(raw["snapshot"], names, ("snapshot",)))
    action = None
    if "action" in raw:
        texts = tuple((name, template(raw[name], names, (name,)))
                      for name in fields.names if name in raw)
        guidance = tuple(p if isinstance(p, str) else p["says"] for p in raw.get("prefer", []))
        action = Action(template(raw["action"], names, ("action",)), texts, guidance)
    judge = None
    if "judge" in raw:
        head, _, rest = str(raw["judge"]).partition(".")
        value = _setting(raw["value"], names, ("value",)) if "value" in raw else TRUE
        judge = Judge(rest, head, value) if head in aliases and rest else \
            Judge(str(raw["judge"]), None, value)
    create = None
    if "create" in raw:
        create = Create(raw["create"], _assigns(raw.get("with", {}), names, ("with",)))
    choose = raw.get("choose", ())
    choose = (choose,) if isinstance(choose, str) else tuple(choose)
    if choose and "call" not in raw:
        raise OutcomeError("choose: goes with call: (the page read only to choose)", ("choose",))
    return Outcome(
        effects=tuple(effects), action=action,
        stop=template(raw["stop"], names, ("stop",)) if "stop" in raw else None,
        call=template(raw["call"], names, ("call",)) if "call" in raw else None,
        missing=template(raw["missing"], names, ("missing",)) if "missing" in raw else None,
        goto=template(raw["goto"], names, ("goto",)) if "goto" in raw else None,
        choose=choose, reads_on=bool(raw.get("continue")), judge=judge, create=create,
        raw=dict(raw))
