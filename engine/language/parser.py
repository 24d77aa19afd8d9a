"""Parsing the rule language: text in (as tokens, `tokens.py`), trees (`expressions.py`) out —
never `eval`.

    hand_counter >= 2 and not initiative_seized
    exists play as p (mode == 'surpass') and p.number > lead_number
    count(province where mine and not locked) > 0
    sum(province where mine, units) // 2 + 1
    lead_suit in ['aggression', 'construction']

Outside `exists` and aggregates a name is a board value (an observation, a judgment, a turn
variable, a chosen entity's field like `selected.suit`). Inside `exists KIND [as A] (...)` and an
aggregate `count(KIND [as A] [where C])`, `sum|max|min(KIND [as A] [where C], EXPR)`,
`any(KIND [as A] [where C])`, `all(KIND [as A] [where C], COND)`, a bare name is a field of that
entity, `A.field` reads an enclosing entity, and `board.NAME` a board value. `max(a, b)` and
`min(a, b)` of plain values are numbers. A bare name where a condition is expected means
`name == true`. Arithmetic: + - * and // (rounds down) and %.
"""

from __future__ import annotations

from .expressions import (
    AGGREGATES,
    COMPARATORS,
    FALSE,
    TRUE,
    Aggregate,
    All,
    Any_,
    Arith,
    Compare,
    Condition,
    Exists,
    Extreme,
    Literal,
    Member,
    Not,
    Ref,
    Value,
)
from .tokens import ConditionSyntaxError, Token, TokenCursor

BOARD = "board"
KEYWORDS = {"and", "or", "not", "in", "exists", "as", "where", "true", "false", "yes", "no",
            "none"}
MAX_DEPTH = 40

Node = Value | Condition
_CONDITIONS = (Compare, Member, Exists, Not, All, Any_)


class _Parser(TokenCursor):
    def __init__(self, text: str, kinds: frozenset[str], max_depth: int,
                 aliases: frozenset[str] = frozenset()) -> None:
        super().__init__(text)
        self.kinds = kinds
        self.aliases: list[str] = sorted(aliases)  # entity aliases in scope (joins read them)
        self.scopes: list[str] = []  # enclosing entities: bare names are the innermost's fields
        self.depth = 0
        self.max_depth = max_depth

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise ConditionSyntaxError(f"nested more than {self.max_depth} deep",
                                       self.peek().column)

    # --- grammar, loosest first -----------------------------------------------------------

    def expression(self) -> Node:
        self.deeper()
        items = [self.conjunction()]
        while self.accept("or"):
            items.append(self.conjunction())
        self.depth -= 1
        return items[0] if len(items) == 1 else Any_(tuple(self.condition(i) for i in items))

    def conjunction(self) -> Node:
        items = [self.negation()]
        while self.accept("and"):
            items.append(self.negation())
        return items[0] if len(items) == 1 else All(tuple(self.condition(i) for i in items))

    def negation(self) -> Node:
        if self.accept("not"):
            self.deeper()
            item = Not(self.condition(self.negation()))
            self.depth -= 1
            return item
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum()
        token = self.peek()
        if token.kind == "op" and token.text in COMPARATORS:
            self.take()
            return Compare(self.value(left), token.text, self.value(self.sum()))
        if self.accept("in"):
            return Member(self.value(left), self.options())
        if token.text == "not" and self.peek(1).text == "in":
            self.at += 2
            return Member(self.value(left), self.options(), negated=True)
        return left

    def sum(self) -> Node:
        left = self.term()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            op = self.take().text
            left = Arith(self.value(left), op, self.value(self.term()))
        return left

    def term(self) -> Node:
        left = self.unary()
        while self.peek().kind == "op" and self.peek().text in ("*", "//", "%"):
            op = self.take().text
            left = Arith(self.value(left), op, self.value(self.unary()))
        return left

    def unary(self) -> Node:
        if self.accept("-"):
            operand = self.value(self.unary())
            if isinstance(operand, Literal) and isinstance(operand.value, int | float):
                return Literal(-operand.value)
            return Arith(Literal(0), "-", operand)
        return self.atom()

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "number":
            return Literal(float(token.text) if "." in token.text else int(token.text))
        if token.kind == "string":
            return Literal(token.text[1:-1])
        if token.text == "(" and token.kind == "op":
            inner = self.expression()
            self.expect(")")
            return inner
        if token.kind != "name":
            raise ConditionSyntaxError(f"expected a name or a value, found "
                                       f"{token.text or 'end of condition'!r}", token.column)
        lowered = token.text.lower()
        if lowered in ("true", "yes"):
            return TRUE
        if lowered in ("false", "no"):
            return FALSE
        if lowered == "none":
            return Literal(None)
        if token.text == "exists":
            return self.exists()
        if token.text in KEYWORDS:
            raise ConditionSyntaxError(f"unexpected {token.text!r}", token.column)
        if self.peek().text == "(" and token.text in (*AGGREGATES, "max", "min"):
            return self.call(token)
        return self.reference(token)

    # --- parts ----------------------------------------------------------------------------

    def exists(self) -> Exists:
        kind, alias = self.head("exists")
        where = None
        if self.accept("("):
            self.scopes.append(alias)
            where = self.condition(self.expression())
            self.scopes.pop()
            self.expect(")")
        return Exists(kind, alias, where)

    def head(self, after: str) -> tuple[str, str]:
        """`KIND [as ALIAS]`, the alias declared for the parts that follow."""
        kind = self.take()
        if kind.kind != "name" or "." in kind.text or kind.text in KEYWORDS:
            raise ConditionSyntaxError(f"expected a kind of thing after {after!r}", kind.column)
        alias = kind.text
        if self.accept("as"):
            token = self.take()
            if token.kind != "name" or "." in token.text or token.text in KEYWORDS:
                raise ConditionSyntaxError("expected a name after 'as'", token.column)
            alias = token.text
        self.aliases.append(alias)
        return kind.text, alias

    def call(self, name: Token) -> Value | Condition:
        self.expect("(")
        first = self.peek()
        aggregate = name.text in ("count", "sum", "any", "all") or (
            first.kind == "name" and first.text in self.kinds)
        if not aggregate:  # max(a, b, ...) of values
            items = [self.value(self.expression())]
            while self.accept(","):
                items.append(self.value(self.expression()))
            self.expect(")")
            if len(items) < 2:
                raise ConditionSyntaxError(f"{name.text}() of values takes two or more "
                                           f"(or an entity kind first)", name.column)
            return Extreme(name.text, tuple(items))
        kind, alias = self.head(name.text)
        self.scopes.append(alias)
        where = self.condition(self.expression()) if self.accept("where") else None
        of: Value | Condition | None = None
        if self.accept(","):
            inner = self.expression()
            of = self.condition(inner) if name.text == "all" else self.value(inner)
        self.scopes.pop()
        self.aliases.remove(alias)  # an aggregate's alias means nothing after it closes
        self.expect(")")
        if name.text in ("sum", "max", "min", "all") and of is None:
            raise ConditionSyntaxError(f"{name.text}({kind} ...) needs a second part: "
                                       f"{name.text}({kind} where ..., "
                                       f"{'CONDITION' if name.text == 'all' else 'FIELD'})",
                                       name.column)
        if name.text in ("count", "any") and of is not None:
            raise ConditionSyntaxError(f"{name.text}() takes one part: "
                                       f"{name.text}({kind} where ...)", name.column)
        return Aggregate(name.text, kind, alias, where, of)

    def reference(self, token: Token) -> Ref:
        if "__" in token.text:
            raise ConditionSyntaxError("names may not contain '__'", token.column)
        head, _, rest = token.text.partition(".")
        if self.scopes and head == BOARD and rest:
            return Ref(rest)
        if rest and head in self.aliases:
            return Ref(rest, head)
        if self.scopes:
            return Ref(token.text, self.scopes[-1])
        return Ref(token.text)

    def options(self) -> tuple:
        self.expect("[")
        values: list = []
        if not self.accept("]"):
            while True:
                item = self.unary()
                if not isinstance(item, Literal):
                    raise ConditionSyntaxError("a list holds values only", self.peek().column)
                values.append(item.value)
                if self.accept("]"):
                    break
                self.expect(",")
        return tuple(values)

    # --- contexts -------------------------------------------------------------------------

    def condition(self, node: Node) -> Condition:
        """A node where a condition is expected: a bare value means `value == true`."""
        if isinstance(node, _CONDITIONS):
            return node
        if isinstance(node, Literal) and not isinstance(node.value, bool):
            raise ConditionSyntaxError(f"{node} is a value, not a condition", self.peek().column)
        if isinstance(node, Aggregate) and node.op in ("any", "all"):
            return Compare(node, "==", TRUE)
        if isinstance(node, Arith | Extreme) or (
                isinstance(node, Aggregate) and node.op not in ("any", "all")):
            raise ConditionSyntaxError(f"{node} is a number, not a condition",
                                       self.peek().column)
        return Compare(node, "==", TRUE)

    def value(self, node: Node) -> Value:
        if isinstance(node, _CONDITIONS):
            raise ConditionSyntaxError(f"({node}) is a condition, not a value",
                                       self.peek().column)
        return node


def _parser(text: str, kinds: frozenset[str], max_depth: int,
            aliases: frozenset[str] = frozenset()) -> _Parser:
    if not isinstance(text, str):
        raise ConditionSyntaxError("expected text", 1)
    return _Parser(text, kinds, max_depth, aliases)


def parse(text: str, kinds: frozenset[str] = frozenset(), max_depth: int = MAX_DEPTH,
          ) -> Condition:
    """A condition; raises ConditionSyntaxError naming the column."""
    parser = _parser(text, kinds, max_depth)
    node = parser.condition(parser.expression())
    parser.done()
    return node


def parse_value(text: str, kinds: frozenset[str] = frozenset(), max_depth: int = MAX_DEPTH,
                aliases: frozenset[str] = frozenset()) -> Value:
    """A value expression (`hand_counter - 1`, `sum(province where mine, units)`); `aliases`
    are entities bound outside it (`o.units` reads the entity bound to `o`)."""
    parser = _parser(text, kinds, max_depth, aliases)
    node = parser.value(parser.expression())
    parser.done()
    return node


def parse_setting(text: str, kinds: frozenset[str] = frozenset(), max_depth: int = MAX_DEPTH,
                  aliases: frozenset[str] = frozenset()) -> Value | Condition:
    """The right side of `set:`: a value (`hand_counter - 1`) or a condition (`roll >= 5`)."""
    parser = _parser(text, kinds, max_depth, aliases)
    node = parser.expression()
    parser.done()
    return node
