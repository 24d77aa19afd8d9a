"""Compiling conditions onto durable_rules patterns.

A rule's condition becomes one durable_rules rule ("unit") per alternative of its disjunctive
normal form. Each unit joins, in order:

- the *carrier*: for a decision page the `evaluate` event, which carries the board values the
  page reads (so a board change costs nothing: the next event simply says it), for derivations
  the `phase` fact of its stratum, which carries the observations; its alpha chain starts with
  a discriminator (`page`/`band`, `n`/`band`) so a fact only meets the tests of its own band;
- for derivations, one fact per judgment read (`{t: j, n: NAME, v: VALUE}`), so judgments chain;
- one fact per `exists` (`{t: e, kind: K, eid: N, ...fields}`).

Each comparison sits on the last of those facts it reads; what it reads of earlier facts is a
join. Values durable_rules cannot compute (aggregates, `//`, `%`, `max()`) are *hoisted*: the
evaluator computes them and the carrier holds the result under a name no user can write
(`__h1`). Durable_rules' hazards shape the output (see `docs/durable_rules.md`): every `$and`
holding a join ends with an always-true join (hazard A); every pattern starts with a `t` test
(hazard C); strings are compared as the escaped JSON both sides are sent as.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RuleFileError
from ..language.expressions import (
    All,
    Any_,
    Arith,
    Compare,
    Condition,
    Exists,
    Literal,
    Member,
    Not,
    Ref,
    Value,
)
from ..language.pack import Rule
from ..language.tree_queries import all_refs, board_names, free_scopes
from .codes import board_code, field_code, normal_number

CARRIER = "e"
_OPS = {"<": "$lt", "<=": "$lte", ">": "$gt", ">=": "$gte", "!=": "$neq"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


@dataclass
class Unit:
    """One durable_rules rule: an alternative of a rule's condition, as patterns."""

    name: str
    rule: Rule
    rank: int
    carrier_tests: list[dict[str, Any]]
    patterns: list[tuple[str, dict[str, Any]]]  # (durable alias, pattern) after the carrier
    carrier_names: set[str] = field(default_factory=set)
    hoisted: dict[str, Value | Condition] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # durable alias → condition alias
    judgments: dict[str, str] = field(default_factory=dict)  # durable alias → judgment


class _Compiling:
    """The state of compiling one alternative: patterns so far and what they stand for."""

    def __init__(self, rule: Rule, judgments_as_facts: frozenset[str],
                 hoist: dict[Value | Condition, str], codes: dict[str, str]) -> None:
        self.rule = rule
        self.judgments_as_facts = judgments_as_facts
        self.hoist = hoist
        self.codes = codes
        self.carrier: list[dict[str, Any]] = []
        self.carrier_names: set[str] = set()
        self.hoisted: dict[str, Value | Condition] = {}
        self.order: list[str] = []  # durable aliases after the carrier, in join order
        self.tests: dict[str, list[dict[str, Any]]] = {CARRIER: []}
        self.heads: dict[str, list[dict[str, Any]]] = {}
        self.entity_alias: dict[str, str] = {}  # condition alias → durable alias
        self.judgment_alias: dict[str, str] = {}  # judgment → durable alias

    def fail(self, message: str) -> RuleFileError:
        return RuleFileError(f"rule {self.rule.id}: {message}", file=self.rule.file,
                             line=self.rule.line)

    # --- where each name lives --------------------------------------------------------------

    def home(self, ref: Ref) -> str:
        """The durable alias of the fact holding this name (declaring it if needed)."""
        if ref.scope is not None:
            if ref.scope not in self.entity_alias:
                raise self.fail(f"{ref}: {ref.scope} is not an entity in scope here")
            return self.entity_alias[ref.scope]
        if ref.name in self.judgments_as_facts:
            if ref.name not in self.judgment_alias:
                alias = f"j{len(self.judgment_alias)}"
                self.judgment_alias[ref.name] = alias
                self.order.append(alias)
                self.heads[alias] = [{"t": "j"}, {"n": ref.name}]
                self.tests[alias] = []
            return self.judgment_alias[ref.name]
        self.carrier_names.add(ref.name)
        return CARRIER

    def field_of(self, ref: Ref) -> str:
        if ref.scope is not None:
            return field_code(ref.name, self.codes)
        if ref.name in self.judgments_as_facts:
            return "v"
        if ref.name in self.hoisted:
            return ref.name  # `__h1`: the carrier holds it under that name
        return board_code(ref.name, self.codes)

    def declare(self, node: Exists) -> None:
        alias = f"x_{node.alias}"
        while alias in self.order:  # an alias declared again: a new, independent entity
            alias += "_"
        self.entity_alias[node.alias] = alias
        self.order.append(alias)
        self.heads[alias] = [{"t": "e"}, {"kind": node.kind}]
        self.tests[alias] = []

    # --- values ------------------------------------------------------------------------------

    def carriable(self, value: Value) -> Value:
        """Replace what durable_rules cannot compute by a hoisted carrier value."""
        if isinstance(value, Literal | Ref):
            return value
        if isinstance(value, Arith) and value.op in ("+", "-", "*"):
            return Arith(self.carriable(value.left), value.op, self.carriable(value.right))
        if free_scopes(value):
            raise self.fail(f"{value}: aggregates, //, % and max()/min() over an entity's "
                            "fields cannot be tested here; derive the number as a field of "
                            "the entity first (a judgment `judge: ALIAS.FIELD`)")
        return self.hoisted_ref(value)

    def hoisted_ref(self, node: Value | Condition) -> Ref:
        """The evaluator computes `node` (board values only) and the carrier holds it."""
        name = self.hoist.setdefault(node, f"__h{len(self.hoist) + 1}")
        self.hoisted[name] = node
        self.carrier_names.add(name)
        return Ref(name)

    def operand(self, value: Value, here: str) -> Any:
        """A right-hand side on fact `here`: a literal, its own field, or an earlier fact's."""
        if isinstance(value, Literal):
            return normal_number(value.value)
        if isinstance(value, Ref):
            home = self.home(value)
            name = self.field_of(value)
            return {"$m": name} if home == here else {home: name}
        if isinstance(value, Arith):
            op = {"+": "$add", "-": "$sub", "*": "$mul"}[value.op]
            left, right = self.operand(value.left, here), self.operand(value.right, here)
            if not isinstance(left, dict) and not isinstance(right, dict):
                return normal_number(left + right if value.op == "+" else
                                     left - right if value.op == "-" else left * right)
            return {op: {"$l": left, "$r": right}}
        raise TypeError(value)

    # --- literals ----------------------------------------------------------------------------

    def place(self, literal: Compare | Member) -> None:
        """Put a test on the last fact it reads, reading the others by join."""
        if isinstance(literal, Member):
            value = self.carriable(literal.value)
            if not isinstance(value, Ref):
                raise self.fail(f"{literal}: test a name with `in`")
            here = self.home(value)
            name = self.field_of(value)
            options = [normal_number(o) for o in literal.options]
            test: dict[str, Any] | None
            if literal.negated:
                test = {"$and": [{"$neq": {name: o}} for o in options]} if options else None
            else:
                test = {"$or": [{name: o} for o in options]} if options else {"t": "-never-"}
            if test is not None:
                self.tests[here].append(test)
            return
        left, right = self.carriable(literal.left), self.carriable(literal.right)
        homes = [self.home(r) for r in all_refs(Compare(left, "==", right))]
        if not homes:
            raise AssertionError("constant comparisons are settled before placing")
        here = max(homes, key=self._rank)
        left, op, right = _isolate(left, literal.op, right, here, self)
        if not _plain(left, here, self):
            left, op, right = _isolate(right, _FLIP[literal.op], left, here, self)
        if not _plain(left, here, self):
            if here == CARRIER and not free_scopes(literal) and not \
                    board_names(literal) & self.judgments_as_facts:
                left, op, right = self.hoisted_ref(literal), "==", Literal(True)
            else:
                raise self.fail(f"cannot compile {literal}: one side must be a plain name, "
                                "plus or minus other values (derive a field or judgment for "
                                "the rest)")
        assert isinstance(left, Ref)
        name = self.field_of(left)
        other = self.operand(right, here)
        self.tests[here].append({name: other} if op == "==" else {_OPS[op]: {name: other}})

    def _rank(self, alias: str) -> int:
        return -1 if alias == CARRIER else self.order.index(alias)

    def exists(self, node: Exists) -> None:
        self.declare(node)
        inner = node.where
        items = list(inner.items) if isinstance(inner, All) else [inner] if inner else []
        for item in items:
            if isinstance(item, Exists | Not | Any_):
                raise self.fail(f"{item}: inside `exists` write comparisons joined with "
                                "`and` (an `or` inside is split into alternatives); derive "
                                "a judgment for anything deeper")
            self.literal(item)

    def literal(self, item: Condition) -> None:
        if isinstance(item, Not):
            raise self.fail("`not exists` is not supported: derive a judgment J from the "
                            "`exists`, then write `not J`")
        if isinstance(item, Exists):
            self.exists(item)
        elif isinstance(item, Compare | Member):
            self.place(item)
        else:
            raise self.fail(f"cannot compile {item}")

    def patterns(self) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for alias in self.order:
            # the tests of the fact alone first, then the joins: durable_rules shares no join
            # node between rules and pushes each for every fact (alpha.py), so alternatives
            # that differ in a plain test hang their joins under it, where one is walked
            own = [t for t in self.tests[alias] if not _joins(t)]
            joins = [t for t in self.tests[alias] if _joins(t)]
            tests = self.heads[alias] + own + joins
            if joins:
                earlier = CARRIER  # hazard A: end with a join that always holds
                tests.append({"k": {earlier: "k"}})
            found.append((alias, {"$and": tests}))
        return found


def _joins(test: dict[str, Any]) -> bool:
    """Whether a test reads another fact (hazard A needs a closing join then)."""
    (name, value), = test.items()
    if name in ("$and", "$or"):
        return any(_joins(t) for t in value)
    if name.startswith("$"):
        (_, value), = value.items()
    return _reads_other(value)


def _reads_other(operand: Any) -> bool:
    if not isinstance(operand, dict) or "$m" in operand:
        return False
    if any(k in ("$add", "$sub", "$mul") for k in operand):
        (_, parts), = operand.items()
        return _reads_other(parts["$l"]) or _reads_other(parts["$r"])
    return True


def _mentions(value: Value, here: str, ctx: _Compiling) -> bool:
    return any(ctx.home(r) == here for r in all_refs(value))


def _plain(value: Value, here: str, ctx: _Compiling) -> bool:
    return isinstance(value, Ref) and ctx.home(value) == here


def _isolate(left: Value, op: str, right: Value, here: str, ctx: _Compiling,
             ) -> tuple[Value, str, Value]:
    """`coins + 2 >= x` → `coins >= x - 2`: durable_rules tests a plain field on the left."""
    while isinstance(left, Arith) and left.op in ("+", "-"):
        outer = left
        if _mentions(outer.left, here, ctx) and not _mentions(outer.right, here, ctx):
            inverse = "-" if outer.op == "+" else "+"
            left, right = outer.left, Arith(right, inverse, outer.right)
        elif outer.op == "+" and _mentions(outer.right, here, ctx) and \
                not _mentions(outer.left, here, ctx):
            left, right = outer.right, Arith(right, "-", outer.left)
        else:
            break
    return left, op, right


def compile_unit(rule: Rule, rank: int, conjunction: list[Condition], index: int,
                 judgments_as_facts: frozenset[str], hoist: dict[Value | Condition, str],
                 codes: dict[str, str]) -> Unit:
    """One alternative of a rule as a Unit (carrier tests, then the other patterns).
    `hoist` and `codes` are shared by all the units of a pack (see `field_code`)."""
    ctx = _Compiling(rule, judgments_as_facts, hoist, codes)
    for item in conjunction:  # in order: an alias means the latest entity declared by it
        ctx.literal(item)
    unit = Unit(name=f"{rule.id}#{index}", rule=rule, rank=rank,
                carrier_tests=ctx.tests.pop(CARRIER),
                patterns=ctx.patterns(), carrier_names=ctx.carrier_names,
                hoisted=ctx.hoisted,
                aliases={v: k for k, v in ctx.entity_alias.items()},
                judgments={v: k for k, v in ctx.judgment_alias.items()})
    return unit
