"""A model of durable_rules' alpha network, to prove a ruleset safe before it is registered.

durable_rules 2.0.28 keeps fixed-size tables in its C core (see `docs/durable_rules.md`):

- a fact is matched by a depth-first walk of the alpha network with a stack of 64 entries
  (`MAX_STACK_SIZE`, events.c); a fact whose tests hold at more than 64 pending nodes fails the
  assert with error 303 half-way, and deleting that state afterwards corrupts the heap. This is
  what crashed pages of a few dozen house rules: every rule's `from <= rank` test held at once;
- an alpha node holds at most 255 links to beta nodes (`BETA_LIST_LENGTH`, with an off-by-one
  read past the list), 511 children in its hash set (`NEXT_BUCKET_LENGTH`) and 127 in its list
  of `$or`/`$nex` children (`NEXT_LIST_LENGTH`);
- a pattern's beta node holds at most 31 expressions (`MAX_SEQUENCE_EXPRESSIONS`: two per
  `$and`/`$or`, one per join) and a rule at most 16 patterns (`MAX_MESSAGE_FRAMES`).

Alpha nodes are shared by identical tests under the same parent, as durable_rules shares them
(`findAlpha`, rete.c) — except a test that reads another fact (a join) or computes (`$add`):
durable_rules compares those by string-pool offsets, fresh for every rule, or not at all, so
each is a node of its own, pushed for every fact that reaches its parent. Sixty-four
alternatives of one rule that each start with the same join overflowed the stack this way.
The stack a fact can need is bounded from the tree: at a node, all children whose tests may
hold at once are pushed (equality tests of one property with different values exclude each
other; everything else, joins included, may hold together), then each is walked in turn.
Budgets keep a safety margin under every table size; `Network` still guards each call.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

STACK_BUDGET = 40
BETA_LINKS_BUDGET = 200
HASH_CHILDREN_BUDGET = 400
LIST_CHILDREN_BUDGET = 100
EXPRESSIONS_BUDGET = 28
PATTERNS_BUDGET = 14
UNITS_BUDGET = 3000
PROPERTIES_BUDGET = 200
_OPERATORS = {"$lt", "$lte", "$gt", "$gte", "$neq", "$eq"}


@dataclass(eq=False)
class _Node:
    parents: list[_Node] = field(default_factory=list)
    depth: int = 0
    prop: str = ""
    exclusive: bool = False  # an equality with a literal: siblings on `prop` exclude it
    children: dict[Any, _Node] = field(default_factory=dict)
    forwards: list[_Node] = field(default_factory=list)  # `$or` joins, always pushed
    eq_props: Counter = field(default_factory=Counter)
    others: int = 0
    beta_links: int = 0
    stack: int = 0  # the most stack entries walking this node's subtree can need

    def fanout(self) -> int:
        return len(self.eq_props) + self.others + len(self.forwards)

    def refresh(self) -> None:
        width = self.fanout()
        kids = [*self.children.values(), *self.forwards]
        deepest = max((c.stack for c in kids), default=0)
        self.stack = max(width, width - 1 + deepest) if width else 0


class Overflow(Exception):
    """Adding a unit would exceed a budget: the caller starts a new band or ruleset."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


class AlphaModel:
    """The alpha network of one ruleset, built as durable_rules would build it."""

    def __init__(self) -> None:
        self.root = _Node()
        self.units = 0
        self.joins: list[tuple] = []
        self.log: list[tuple] = []  # what add_unit changed since the last mark, to undo it

    def add_unit(self, patterns: list[dict[str, Any]]) -> None:
        """Add one rule's patterns; raise Overflow (changes kept: `rollback` undoes them)."""
        if len(patterns) > PATTERNS_BUDGET:
            raise Overflow(f"{len(patterns)} patterns in one rule")
        self.units += 1
        self.log.append(("unit",))
        if self.units > UNITS_BUDGET:
            raise Overflow("rules in one ruleset")
        touched: list[_Node] = []
        for pattern in patterns:
            (_, expression), = pattern.items()
            if _expressions(expression) > EXPRESSIONS_BUDGET:
                raise Overflow("tests joined in one pattern")
            ends = self._build(expression, self.root, touched)
            for end in ends:
                end.beta_links += 1
                self.log.append(("beta", end))
                if end.beta_links > BETA_LINKS_BUDGET:
                    raise Overflow("rules sharing one test")
        self._refresh(touched)
        if self.root.stack > STACK_BUDGET:
            raise Overflow("tests that can hold at once for one fact: durable_rules "
                           "walks at most 64")

    def _build(self, expression: dict[str, Any], parent: _Node,
               touched: list[_Node]) -> list[_Node]:
        """Create the chain(s) for one test expression under `parent`; return the ends."""
        (name, value), = expression.items()
        if name == "$and":
            ends = [parent]
            for item in value:
                ends = [end for start in ends for end in self._build(item, start, touched)]
            return ends
        if name == "$or":
            forward = _Node()
            for item in value:
                for end in self._build(item, parent, touched):
                    end.forwards.append(forward)
                    self.log.append(("forward", end))
                    forward.parents.append(end)
                    forward.depth = max(forward.depth, end.depth + 1)
                    if len(end.forwards) > LIST_CHILDREN_BUDGET:
                        raise Overflow("alternatives hanging off one test")
            touched.append(forward)
            return [forward]
        if name in _OPERATORS:
            (prop, operand), = value.items()
            key: tuple[Any, ...] = (prop, name, _key(operand))
            exclusive = False
        else:
            prop, operand = name, value
            key = (prop, "$eq", _key(operand))
            exclusive = not isinstance(operand, dict)
        if isinstance(operand, dict):  # a join or an expression: never shared (see above)
            key = (*key, len(self.joins))
            self.joins.append(key)
        node = parent.children.get(key)
        if node is None:
            node = _Node([parent], parent.depth + 1, prop, exclusive)
            parent.children[key] = node
            if exclusive:
                parent.eq_props[prop] += 1
            else:
                parent.others += 1
            self.log.append(("child", parent, key))
            if len(parent.children) > HASH_CHILDREN_BUDGET:
                raise Overflow("different tests under one test")
            touched.append(parent)
        touched.append(node)
        return [node]

    def mark(self) -> int:
        """A point `rollback` can return to (the log before it is forgotten)."""
        del self.log[:]
        return 0

    def rollback(self, mark: int) -> None:
        """Undo every change since `mark`: the units added since are gone, as if the model
        were built again without them (but in the time of their own changes, not of all)."""
        touched: list[_Node] = []
        while len(self.log) > mark:
            entry = self.log.pop()
            if entry[0] == "unit":
                self.units -= 1
            elif entry[0] == "beta":
                entry[1].beta_links -= 1
            elif entry[0] == "forward":
                entry[1].forwards.pop()
                touched.append(entry[1])
            else:
                _, parent, key = entry
                node = parent.children.pop(key)
                if node.exclusive:
                    parent.eq_props[node.prop] -= 1
                    if not parent.eq_props[node.prop]:
                        del parent.eq_props[node.prop]
                else:
                    parent.others -= 1
                touched.append(parent)
        self._refresh(touched)

    def _refresh(self, touched: list[_Node]) -> None:
        """Recompute stack needs of the touched nodes and their ancestors, deepest first."""
        pending: dict[int, _Node] = {}
        work = list(touched)
        while work:
            node = work.pop()
            if id(node) not in pending:
                pending[id(node)] = node
                work.extend(node.parents)
        for node in sorted(pending.values(), key=lambda n: -n.depth):
            node.refresh()

    @property
    def stack(self) -> int:
        return self.root.stack


def _key(operand: Any) -> Any:
    """Equal for operands durable_rules shares a node for: a value of the same type (1 is
    not 1.0 nor true, as in its JSON), or the same expression."""
    if isinstance(operand, dict):
        return json.dumps(operand, sort_keys=True)
    return type(operand), operand


def _expressions(expression: dict[str, Any]) -> int:
    """Entries in a beta node's expression sequence: 2 per $and/$or, 1 per join test."""
    (name, value), = expression.items()
    if name in ("$and", "$or"):
        return 2 + sum(_expressions(item) for item in value)
    if name in _OPERATORS:
        (_, value), = value.items()
    return 1 if isinstance(value, dict) else 0
