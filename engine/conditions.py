"""The condition language of rule files: parsed here, never `eval`-ed.

    hand_counter >= 2 and not initiative_seized
    can.secure.contend_declared and has_suit.aggression
    exists play as p (mode == 'surpass') and p_count > 1
    exists ambition as a (a.bot_rank == 1 and a.card_number in [2, 3])

Names are dotted identifiers. Outside `exists` a name is a board value: an observation from the
snapshot, a judgment, or a turn variable. Inside `exists KIND [as ALIAS] (...)` a bare name is a
field of that entity, `ALIAS.field` of an earlier `exists` joins the two, and `board.NAME`
reads a board value. `not exists` is not offered: derive a judgment J from the `exists`, then
write `not J` (negation is stratified: J is settled before any rule that negates it runs).
A bare name where a condition is expected means `name == true`. Values combine with `+` and `-`
(for `set:` and dice).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

COMPARATORS = ("==", "!=", "<=", ">=", "<", ">")
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
BOARD = "board"  # inside `exists`, `board.NAME` reads a board value
KEYWORDS = {"and", "or", "not", "in", "exists", "as", "true", "false", "yes", "no", "none"}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>-?\d+(?:\.\d+)?)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>==|!=|<=|>=|<|>|\(|\)|\[|\]|,|\+|-)
""", re.VERBOSE)


class ConditionSyntaxError(ValueError):
    """Raised with the column where the text stopped making sense."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(f"{message} at column {column}")


# --- the tree -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Literal:
    value: Any

    def __str__(self) -> str:
        return repr(self.value) if isinstance(self.value, str) else _show(self.value)


@dataclass(frozen=True)
class Ref:
    """A name: `scope` is None for a board value, else the alias of an `exists`."""

    name: str
    scope: str | None = None

    def __str__(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name


@dataclass(frozen=True)
class Sum:
    """`left + right` or `left - right` over numbers."""

    left: Value
    op: str
    right: Value

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


Value = Literal | Ref | Sum


@dataclass(frozen=True)
class Compare:
    left: Value
    op: str
    right: Value

    def negate(self) -> Compare:
        return Compare(self.left, NEGATED[self.op], self.right)

    def __str__(self) -> str:
        if self.op == "==" and isinstance(self.right, Literal) and self.right.value is True:
            return str(self.left)
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class Member:
    value: Value
    options: tuple[Any, ...]
    negated: bool = False

    def negate(self) -> Member:
        return Member(self.value, self.options, not self.negated)

    def __str__(self) -> str:
        shown = ", ".join(str(Literal(o)) for o in self.options)
        return f"{self.value} {'not in' if self.negated else 'in'} [{shown}]"


@dataclass(frozen=True)
class Exists:
    kind: str
    alias: str
    where: Condition | None

    def __str__(self) -> str:
        inner = f" ({self.where})" if self.where is not None else ""
        return f"exists {self.kind} as {self.alias}{inner}"


@dataclass(frozen=True)
class Not:
    item: Condition

    def __str__(self) -> str:
        return f"not {_wrap(self.item)}"


@dataclass(frozen=True)
class All:
    items: tuple[Condition, ...]

    def __str__(self) -> str:
        return " and ".join(_wrap(i) for i in self.items)


@dataclass(frozen=True)
class Any_:
    items: tuple[Condition, ...]

    def __str__(self) -> str:
        return " or ".join(_wrap(i) for i in self.items)


Condition = Compare | Member | Exists | Not | All | Any_


def _wrap(item: Condition) -> str:
    return f"({item})" if isinstance(item, All | Any_) else str(item)


def _show(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    return str(value)


# --- parsing ------------------------------------------------------------------------------


@dataclass
class _Token:
    kind: str
    text: str
    column: int


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise ConditionSyntaxError(f"unexpected character {text[position]!r}", position + 1)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append(_Token(kind, match.group(), position + 1))
        position = match.end()
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.aliases: list[str] = []  # every `exists` alias declared so far (joins read them)
        self.scopes: list[str] = []  # the enclosing `exists`: bare names are its fields

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def accept(self, text: str) -> bool:
        token = self.peek()
        if token.text == text and token.kind in ("name", "op"):
            self.at += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            token = self.peek()
            found = token.text or "end of condition"
            raise ConditionSyntaxError(f"expected {text!r}, found {found!r}", token.column)

    def parse(self) -> Condition:
        condition = self.disjunction()
        token = self.peek()
        if token.kind != "end":
            raise ConditionSyntaxError(f"unexpected {token.text!r}", token.column)
        return condition

    def disjunction(self) -> Condition:
        items = [self.conjunction()]
        while self.accept("or"):
            items.append(self.conjunction())
        return items[0] if len(items) == 1 else Any_(tuple(items))

    def conjunction(self) -> Condition:
        items = [self.negation()]
        while self.accept("and"):
            items.append(self.negation())
        return items[0] if len(items) == 1 else All(tuple(items))

    def negation(self) -> Condition:
        if self.accept("not"):
            return Not(self.negation())
        return self.primary()

    def primary(self) -> Condition:
        if self.accept("("):
            inner = self.disjunction()
            self.expect(")")
            return inner
        if self.accept("exists"):
            return self.exists()
        left = self.value()
        token = self.peek()
        if token.kind == "op" and token.text in COMPARATORS:
            self.take()
            return Compare(left, token.text, self.value())
        if self.accept("in"):
            return Member(left, self.options())
        if token.text == "not" and self.tokens[self.at + 1].text == "in":
            self.at += 2
            return Member(left, self.options(), negated=True)
        if isinstance(left, Literal) and isinstance(left.value, bool):
            return Compare(left, "==", Literal(True))  # `true` / `false` as a whole condition
        if isinstance(left, Literal):
            raise ConditionSyntaxError(f"{left} is a value, not a condition", token.column)
        return Compare(left, "==", Literal(True))

    def exists(self) -> Condition:
        kind = self.take()
        if kind.kind != "name" or "." in kind.text or kind.text in KEYWORDS:
            raise ConditionSyntaxError("expected a kind of thing after 'exists'", kind.column)
        alias = kind.text
        if self.accept("as"):
            token = self.take()
            if token.kind != "name" or "." in token.text or token.text in KEYWORDS:
                raise ConditionSyntaxError("expected a name after 'as'", token.column)
            alias = token.text
        where = None
        self.aliases.append(alias)
        if self.accept("("):
            self.scopes.append(alias)
            where = self.disjunction()
            self.scopes.pop()
            self.expect(")")
        return Exists(kind.text, alias, where)

    def value(self) -> Value:
        left = self.operand()
        while self.peek().text in ("+", "-") and self.peek().kind == "op":
            op = self.take().text
            left = Sum(left, op, self.operand())
        return left

    def operand(self) -> Value:
        token = self.take()
        if token.kind == "number":
            return Literal(float(token.text) if "." in token.text else int(token.text))
        if token.kind == "string":
            return Literal(token.text[1:-1])
        if token.kind == "name":
            lowered = token.text.lower()
            if lowered in ("true", "yes"):
                return Literal(True)
            if lowered in ("false", "no"):
                return Literal(False)
            if lowered == "none":
                return Literal(None)
            if token.text in KEYWORDS:
                raise ConditionSyntaxError(f"unexpected {token.text!r}", token.column)
            return self.reference(token)
        found = token.text or "end of condition"
        raise ConditionSyntaxError(f"expected a name or a value, found {found!r}", token.column)

    def reference(self, token: _Token) -> Ref:
        if "__" in token.text:
            raise ConditionSyntaxError("names may not contain '__'", token.column)
        head, _, rest = token.text.partition(".")
        if self.scopes and head == BOARD and rest:
            return Ref(rest)
        if head in self.aliases and rest:
            return Ref(rest, head)
        if self.scopes:
            return Ref(token.text, self.scopes[-1])
        return Ref(token.text)

    def options(self) -> tuple[Any, ...]:
        self.expect("[")
        values: list[Any] = []
        if not self.accept("]"):
            while True:
                item = self.operand()
                if not isinstance(item, Literal):
                    raise ConditionSyntaxError("a list holds values only", self.peek().column)
                values.append(item.value)
                if self.accept("]"):
                    break
                self.expect(",")
        return tuple(values)


def parse(text: str) -> Condition:
    """Parse a condition; raises ConditionSyntaxError naming the column."""
    return _Parser(text).parse()


def parse_value(text: str) -> Value:
    """Parse a value expression (the right side of `set:`)."""
    parser = _Parser(text)
    value = parser.value()
    token = parser.peek()
    if token.kind != "end":
        raise ConditionSyntaxError(f"unexpected {token.text!r}", token.column)
    return value


def parse_setting(text: str) -> Value | Condition:
    """The right side of `set:`: a value (`hand_counter - 1`) or a condition (`roll >= 5`)."""
    try:
        return parse_value(text)
    except ConditionSyntaxError:
        return parse(text)


# --- reading the tree ---------------------------------------------------------------------


def refs(node: Condition | Value) -> Iterator[Ref]:
    """Every name a condition or value mentions, in order."""
    if isinstance(node, Ref):
        yield node
    elif isinstance(node, (Sum, Compare)):
        yield from refs(node.left)
        yield from refs(node.right)
    elif isinstance(node, Member):
        yield from refs(node.value)
    elif isinstance(node, Exists):
        if node.where is not None:
            yield from refs(node.where)
    elif isinstance(node, Not):
        yield from refs(node.item)
    elif isinstance(node, All | Any_):
        for item in node.items:
            yield from refs(item)


@cache
def all_refs(node: Condition | Value) -> tuple[Ref, ...]:
    """`refs` of a (frozen, hashable) tree, remembered: traces ask for them on every step."""
    return tuple(refs(node))


def board_names(node: Condition | Value) -> frozenset[str]:
    return frozenset(r.name for r in all_refs(node) if r.scope is None)


def kinds(node: Condition) -> set[str]:
    """The entity kinds a condition quantifies over."""
    found: set[str] = set()
    if isinstance(node, Exists):
        found.add(node.kind)
        if node.where is not None:
            found |= kinds(node.where)
    elif isinstance(node, Not):
        found |= kinds(node.item)
    elif isinstance(node, All | Any_):
        for item in node.items:
            found |= kinds(item)
    return found


def negated_board_names(node: Condition, negated: bool = False) -> set[str]:
    """Board names tested under a `not`: a derivation needing them must wait for their rules."""
    if isinstance(node, Compare | Member):
        return board_names(node) if negated else set()
    if isinstance(node, Not):
        return negated_board_names(node.item, not negated)
    if isinstance(node, All | Any_):
        return set().union(*(negated_board_names(i, negated) for i in node.items))
    if isinstance(node, Exists) and node.where is not None:
        return negated_board_names(node.where, negated)
    return set()


# --- normal forms for the compiler --------------------------------------------------------


def negation_normal(node: Condition, negated: bool = False) -> Condition:
    """Push every `not` down to comparisons and `exists`."""
    if isinstance(node, Not):
        return negation_normal(node.item, not negated)
    if isinstance(node, Compare | Member):
        return node.negate() if negated else node
    if isinstance(node, Exists):
        inner = negation_normal(node.where) if node.where is not None else None
        positive = Exists(node.kind, node.alias, inner)
        return Not(positive) if negated else positive
    if isinstance(node, All | Any_):
        items = tuple(negation_normal(i, negated) for i in node.items)
        flip = isinstance(node, All) == negated
        return Any_(items) if flip else All(items)
    raise TypeError(node)


def disjuncts(node: Condition) -> list[list[Condition]]:
    """Disjunctive normal form of an NNF condition: a list of conjunctions of literals.

    A literal is a Compare, a Member, an Exists or a Not(Exists); `exists` keeps its inner
    condition whole, since it compiles to one pattern.
    """
    if isinstance(node, Any_):
        return [conj for item in node.items for conj in disjuncts(item)]
    if isinstance(node, All):
        result: list[list[Condition]] = [[]]
        for item in node.items:
            result = [left + right for left in result for right in disjuncts(item)]
        return result
    return [[node]]
