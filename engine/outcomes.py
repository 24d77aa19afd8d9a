"""What a rule does when it fires, parsed once at load into typed objects.

The compiler, the walk and the explainer all read these objects; nobody reads the YAML dict of
an outcome again. Effects apply in the order the rule file writes them, then the action is
recorded, then control moves (stop, call, goto, or read on). A derivation's outcome judges a
value (of the board, or of the entity bound to an alias) or creates an entity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .expressions import TRUE, Compare, Condition, Exists, Literal, Value, show
from .parser import ConditionSyntaxError, parse, parse_setting, parse_value

PathKey = tuple[str | int, ...]
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_DICE = re.compile(r"^\s*(?:(\d+)|\{([^{}]+)\})?d(\d+)\s*$")
ACTION_FIELDS = ("action", "goal", "suit", "details", "budget")
DIE = "die"  # the scope of one die in a roll's `success` condition: its `face`


class OutcomeError(ValueError):
    """A malformed outcome, with the path inside `then` where it was found."""

    def __init__(self, message: str, path: PathKey) -> None:
        self.path = path
        super().__init__(message)


def scope_alias(role: str, kind: str) -> str:
    """The alias under which a choice, loop or spread reads one candidate's fields."""
    return f"{role}_{kind}"


# --- templates ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """Text with `{value}` placeholders filled from the board (`"Tax {target.name}"`)."""

    text: str
    parts: tuple[str | Value, ...]

    @property
    def static(self) -> bool:
        return all(isinstance(p, str) for p in self.parts)

    def __str__(self) -> str:
        return self.text


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


# --- the parts of an outcome --------------------------------------------------------------


@dataclass(frozen=True)
class OrderKey:
    """Sort by a value: highest first when `descending` (`-number`), else lowest first."""

    value: Value
    descending: bool

    def __str__(self) -> str:
        return f"{'highest' if self.descending else 'lowest'} {self.value}"


@dataclass(frozen=True)
class Preference:
    """One line of the seed's "Prefer:" list; with `when` it narrows, else it guides."""

    says: str
    when: Condition | None = None


@dataclass(frozen=True)
class Choice:
    """`select:` (the card) or `target:` (what the action aims at) among entities of a kind."""

    role: str
    kind: str
    alias: str
    where: Condition | None
    prefer: tuple[Preference, ...] = ()
    order: tuple[OrderKey, ...] = ()
    says: str = ""
    optional: bool = False  # the rule applies without a candidate; then nothing is chosen

    @property
    def scope(self) -> str:
        return scope_alias(self.role, self.kind)

    def candidates(self) -> Exists:
        """The rule applies only if a candidate exists (the seed's "if ... available")."""
        return Exists(self.kind, self.scope, self.where)


@dataclass(frozen=True)
class Roll:
    """Roll dice; `as` gets their total, or with `success` the number of dice whose `face`
    satisfies it (`face >= 4`, `face in [5, 6]`). `says` (what the roll decides) may name
    board values: `"fight test against {force.name}"`."""

    count: Value
    sides: int
    alias: str
    says: Template
    text: str
    success: Condition | None = None


@dataclass(frozen=True)
class Draw:
    """Draw one item at random from a counted pool (`{yellow: cubes_y, red: cubes_r}`): one
    d(total) over the items counted in the order listed; `as` gets the name drawn. The pool's
    counts are values read from the board when the rule fires."""

    pool: tuple[tuple[str, Value], ...]
    alias: str
    says: Template


@dataclass(frozen=True)
class Assign:
    name: str
    value: Value | Condition
    text: str


@dataclass(frozen=True)
class Update:
    """Change fields of a bound entity (`current`, `target`, a chosen one); `target?` if the
    rule may have chosen none (then nothing changes, and the trace says so)."""

    alias: str
    fields: tuple[Assign, ...]
    optional: bool = False


@dataclass(frozen=True)
class Distribute:
    """Spread an amount evenly over entities; leftovers one each in `order`; caps respected.
    With `even`, only the even shares: the leftovers go to `rest` with what found no room."""

    amount: Value
    kind: str
    where: Condition | None
    order: tuple[OrderKey, ...]
    field: str
    cap: Value | None
    rest: str | None
    says: str
    even: bool = False

    @property
    def scope(self) -> str:
        return scope_alias("spread", self.kind)


@dataclass(frozen=True)
class Each:
    """Read a page once per entity, its fields bound under `alias`."""

    kind: str
    alias: str
    where: Condition | None
    order: tuple[OrderKey, ...]
    page: Template

    @property
    def scope(self) -> str:
        return scope_alias("each", self.kind)


@dataclass(frozen=True)
class Say:
    text: Template


@dataclass(frozen=True)
class Rederive:
    pass


@dataclass(frozen=True)
class Remove:
    alias: str
    optional: bool = False


Effect = Roll | Draw | Assign | Choice | Say | Each | Update | Distribute | Rederive | Remove


@dataclass(frozen=True)
class Action:
    name: Template
    texts: tuple[tuple[str, Template], ...] = ()
    guidance: tuple[str, ...] = ()


@dataclass(frozen=True)
class Judge:
    """A derivation's conclusion: `name` on the board, or `field` of the entity `alias`."""

    name: str
    alias: str | None
    value: Value | Condition

    @property
    def target(self) -> str:
        return f"{self.alias}.{self.name}" if self.alias else self.name


@dataclass(frozen=True)
class Create:
    kind: str
    fields: tuple[Assign, ...]


@dataclass(frozen=True)
class Outcome:
    effects: tuple[Effect, ...] = ()
    action: Action | None = None
    stop: Template | None = None
    call: Template | None = None
    missing: Template | None = None  # a called page that does not exist: this note, read on
    goto: Template | None = None
    choose: tuple[str, ...] = ()  # with `call`: read that page only to make these choices
    reads_on: bool = False
    judge: Judge | None = None
    create: Create | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def choices(self) -> list[Choice]:
        return [e for e in self.effects if isinstance(e, Choice)]

    def page_links(self) -> list[tuple[str, Template]]:
        """(how, page) for every page this outcome leads to."""
        links = [(how, t) for how, t in (("call", self.call), ("goto", self.goto)) if t]
        links += [("each", e.page) for e in self.effects if isinstance(e, Each)]
        return links

    @property
    def ends_page(self) -> bool:
        """After this fires, the page is not read further (unless a call returns)."""
        return not self.reads_on and self.call is None


# --- parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """What a rule's texts may name: the pack's entity kinds, and the aliases its condition
    binds (`o` of `exists option as o`), whose fields outcome values may read (`o.units`)."""

    kinds: frozenset[str]
    aliases: frozenset[str] = frozenset()


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


def parse_outcome(raw: dict[str, Any], kinds: frozenset[str],
                  aliases: frozenset[str] = frozenset()) -> Outcome:
    """Parse a rule's `then:` (already checked against the rule-file schema).

    `aliases` are the entity aliases of the rule's condition: `judge: a.winning` judges the
    field `winning` of the entity bound to `a`, and `a.units` in a value reads its field."""
    names = Names(kinds, aliases)
    effects = [effect for key, value in raw.items() for effect in _effect(key, value, names)]
    action = None
    if "action" in raw:
        texts = tuple((name, template(raw[name], names, (name,)))
                      for name in ACTION_FIELDS[1:] if name in raw)
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
