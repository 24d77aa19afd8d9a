"""Compiling rules onto durable_rules rulesets (plain dicts), with the hazard guards built in.

Fact shapes in every state (each carries `t`, the positive discriminator against hazard C, and
`k: 1`, the always-true tail of every join against hazard A):

    {"t": "board", ...board values...}            one per state; keys are names with . → __
    {"t": "e", "kind": KIND, "#": i, ...fields}   one per entity (`#` keeps facts distinct, F)
    {"t": "j", "n": NAME, "v": VALUE, "by": ID}   a judgment, in the derivation ruleset
    {"t": "phase", "n": S}                        opens derivation stratum S
    {"t": "evaluate", "from": R}                  the event a decision rule consumes
    {"t": "end"}                                  asserted last: one action always runs (B)

durable_rules' `$not` proved unreliable (a negated pattern placed after an unrelated one lets
matching facts through), so the compiler uses positive patterns only: a judgment that is not
established by the end of its stratum is asserted as false (negation as failure, stratified),
and `not exists` is written as `not J` of a judgment J derived from the `exists`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .conditions import (
    All,
    Any_,
    Compare,
    Condition,
    Exists,
    Literal,
    Member,
    Not,
    Ref,
    Sum,
    Value,
    all_refs,
    board_names,
    disjuncts,
    kinds,
    negated_board_names,
    negation_normal,
)
from .errors import RuleFileError
from .evaluate import World, holds
from .model import Pack, Procedure, Rule

LOWEST = 65535
_OPS = {"<": "$lt", "<=": "$lte", ">": "$gt", ">=": "$gte", "!=": "$neq"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def key(name: str) -> str:
    """Board names are dotted; durable_rules reads dots as nesting, so flatten them."""
    return name.replace(".", "__")


class _Context:
    """What a pattern compiler needs to know: which names are judgments asserted as facts."""

    def __init__(self, judgments_as_facts: set[str], rule: Rule) -> None:
        self.judgments_as_facts = judgments_as_facts
        self.rule = rule

    def fail(self, message: str) -> RuleFileError:
        return RuleFileError(message, file=self.rule.file, line=self.rule.line,
                             path=f"rule {self.rule.id}")


def _operand(value: Value, aliases: dict[str, str], own: str | None) -> Any:
    """A right-hand side: a literal, a field of the same fact, or a field of an earlier one."""
    if isinstance(value, Literal):
        return value.value
    if isinstance(value, Ref):
        if value.scope == own:
            return {"$m": _field_key(value)}
        alias = "b" if value.scope is None else aliases[value.scope]
        return {alias: _field_key(value)}
    if isinstance(value, Sum):
        left, right = _operand(value.left, aliases, own), _operand(value.right, aliases, own)
        if not isinstance(left, dict) and not isinstance(right, dict):  # fold constants
            return left + right if value.op == "+" else left - right
        op = "$add" if value.op == "+" else "$sub"
        return {op: {"$l": left, "$r": right}}
    raise TypeError(value)


def _test(node: Compare | Member, aliases: dict[str, str], ctx: _Context, own: str | None,
          ) -> dict[str, Any]:
    """One test inside a pattern. `own` is the scope of the fact being tested (None: board)."""
    if isinstance(node, Member):
        if not (isinstance(node.value, Ref) and node.value.scope == own):
            raise ctx.fail(f"cannot compile {node}: test a name with `in`")
        name = _field_key(node.value)
        if node.negated:
            tests = [{"$neq": {name: v}} for v in node.options]
            return {"$and": tests} if tests else {"t": {"$neq": "-never-"}}
        tests = [{name: v} for v in node.options]
        return {"$or": tests} if tests else {"t": "-never-"}
    left, op, right = _isolate(node.left, node.op, node.right, own)
    if not (isinstance(left, Ref) and left.scope == own):
        left, op, right = _isolate(node.right, _FLIP[node.op], node.left, own)
    if not (isinstance(left, Ref) and left.scope == own):
        raise ctx.fail(f"cannot compile {node}: one side must be a name of this fact, "
                       "plus or minus other values")
    name = _field_key(left)
    other = _operand(right, aliases, own)
    return {name: other} if op == "==" else {_OPS[op]: {name: other}}


def _isolate(left: Value, op: str, right: Value, own: str | None) -> tuple[Value, str, Value]:
    """`coins + 2 >= x` → `coins >= x - 2`: durable_rules tests a plain field on the left."""
    while isinstance(left, Sum):
        if _mentions(left.left, own):
            inverse = "-" if left.op == "+" else "+"
            left, right = left.left, Sum(right, inverse, left.right)
        elif left.op == "+" and _mentions(left.right, own):
            left, right = left.right, Sum(right, "-", left.left)
        else:
            break
    return left, op, right


def _mentions(value: Value, own: str | None) -> bool:
    if isinstance(value, Ref):
        return value.scope == own
    if isinstance(value, Sum):
        return _mentions(value.left, own) or _mentions(value.right, own)
    return False


def _field_key(ref: Ref) -> str:
    return key(ref.name) if ref.scope is None else ref.name


def _inner_tests(node: Condition, aliases: dict[str, str], ctx: _Context, own: str,
                 ) -> dict[str, Any]:
    if isinstance(node, Compare | Member):
        return _test(node, aliases, ctx, own)
    if isinstance(node, All):
        return {"$and": [_inner_tests(i, aliases, ctx, own) for i in node.items]}
    if isinstance(node, Any_):
        return {"$or": [_inner_tests(i, aliases, ctx, own) for i in node.items]}
    raise ctx.fail("`exists` inside `exists` is not supported; derive a judgment instead")


def _spread_exists(conjunctions: list[list[Condition]]) -> list[list[Condition]]:
    """`exists t (A or B)` is `exists t (A) or exists t (B)`: one branch per inner disjunct,
    so every inner branch is a conjunction and its board-only tests can move out."""
    spread: list[list[Condition]] = []
    for conjunction in conjunctions:
        options: list[list[Condition]] = [[]]
        for literal in conjunction:
            if isinstance(literal, Exists) and literal.where is not None:
                alternatives = [Exists(literal.kind, literal.alias, All(tuple(branch)))
                                for branch in disjuncts(literal.where)]
            else:
                alternatives = [literal]
            options = [[*done, alt] for done in options for alt in alternatives]
        spread.extend(options)
    return spread


def _conjuncts(node: Condition | None) -> list[Condition]:
    if node is None:
        return []
    return list(node.items) if isinstance(node, All) else [node]


def _board_only(node: Condition) -> bool:
    """A test inside `exists` that reads only board values: it moves to the board pattern."""
    found = all_refs(node)
    return bool(found) and all(r.scope is None for r in found)


def _joins(node: Condition | None, own: str) -> bool:
    return node is not None and any(r.scope not in (None, own) for r in all_refs(node))


@dataclass
class CompiledRule:
    """One durable_rules rule (a rule id may compile to several: one per `or` branch)."""

    name: str
    rule: Rule
    patterns: list[dict[str, Any]]
    pri: int


@dataclass
class Ruleset:
    name: str
    rules: list[CompiledRule] = field(default_factory=list)
    board_names: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    judgments_read: set[str] = field(default_factory=set)


def compile_condition(rule: Rule, ctx: _Context, extra: list[dict[str, Any]],
                      ) -> list[list[dict[str, Any]]]:
    """A rule's condition as alternative pattern lists (one per disjunct)."""
    branches = []
    for conjunction in _spread_exists(disjuncts(negation_normal(rule.when))):
        board_tests: list[dict[str, Any]] = []
        judgment_patterns: list[dict[str, Any]] = []
        entity_patterns: list[dict[str, Any]] = []
        aliases: dict[str, str] = {}
        for literal in conjunction:
            if isinstance(literal, Not):
                raise ctx.fail("`not exists` is not supported; write `not J` where a derivation"
                               " judges J from the `exists`")
            if isinstance(literal, Exists):
                alias = f"x_{literal.alias}"
                joined = _joins(literal.where, literal.alias)
                tests: list[dict[str, Any]] = [{"t": "e"}, {"kind": literal.kind}]
                aliases[literal.alias] = alias
                inner = _conjuncts(literal.where)
                for item in [i for i in inner if _board_only(i)]:  # `board.NAME` tests
                    judged = {r.name for r in all_refs(item)} & ctx.judgments_as_facts
                    if judged:
                        judgment_patterns.append(_judgment_pattern(item, judged, ctx,
                                                                   len(judgment_patterns)))
                    else:
                        board_tests.append(_inner_tests(item, aliases, ctx, None))
                inner = [i for i in inner if not _board_only(i)]
                if inner:
                    tests.append(_inner_tests(All(tuple(inner)), aliases, ctx, literal.alias))
                if joined:
                    tests.append({"k": {"b": "k"}})
                entity_patterns.append({alias: {"$and": tests}})
                continue
            if isinstance(literal, Compare) and not all_refs(literal):
                if holds(literal, World({})):
                    continue
                board_tests.append({"t": "-never-"})
                continue
            names = {r.name for r in all_refs(literal)}
            judged = names & ctx.judgments_as_facts
            if judged:
                judgment_patterns.append(_judgment_pattern(literal, judged, ctx,
                                                           len(judgment_patterns)))
            else:
                board_tests.append(_test(literal, aliases, ctx, None))
        board = {"b": {"$and": [{"t": "board"}, *board_tests]} if board_tests else {"t": "board"}}
        branches.append([board, *judgment_patterns, *entity_patterns, *extra])
    return branches


def _judgment_pattern(literal: Condition, judged: set[str], ctx: _Context, index: int,
                      ) -> dict[str, Any]:
    if len(judged) > 1 or not isinstance(literal, Compare):
        raise ctx.fail(f"{literal}: compare one judgment with a value")
    name = next(iter(judged))
    left, op, right = literal.left, literal.op, literal.right
    if not isinstance(left, Ref):
        left, right, op = right, left, _FLIP[op]
    if not isinstance(right, Literal) or not isinstance(left, Ref):
        raise ctx.fail(f"{literal}: compare a judgment with a value")
    value = right.value
    if isinstance(value, bool) and op in ("==", "!="):
        value = value if op == "==" else not value
        test: dict[str, Any] = {"v": value}
    elif op == "==":
        test = {"v": value}
    else:
        test = {_OPS[op]: {"v": value}}
    return {f"j{index}": {"$and": [{"t": "j"}, {"n": name}, test]}}


def _accepting_rules(ruleset: str, kinds: set[str], with_judgments: bool) -> dict[str, Any]:
    """Rules that accept every fact shape but never complete: guards against hazard E."""
    never = {"z": {"t": "-never-"}}
    shapes = [{"t": "board"}, {"t": "end"}] + [{"$and": [{"t": "e"}, {"kind": k}]}
                                                for k in sorted(kinds)]
    if with_judgments:
        shapes += [{"t": "j"}, {"t": "phase"}]
    return {f"{ruleset}/accept/{i}": {"all": [{"a": shape}, never], "pri": LOWEST}
            for i, shape in enumerate(shapes)}


def compile_decisions(procedure: Procedure, ruleset_name: str, pack: Pack,
                      ) -> tuple[Ruleset, dict[str, Any]]:
    """A page: each rule joins the board with one `evaluate` event, ranked by salience/priority.

    The event carries `from`, the rank to resume at, so a statement (`continue`) reads on below
    itself; a fallthrough rule at the lowest priority consumes the event when nothing applies.
    """
    ruleset = Ruleset(ruleset_name)
    definition: dict[str, Any] = {}
    for rank, rule in enumerate(procedure.ordered(), start=1):
        ctx = _Context(set(), rule)
        event = {"e": {"$and": [{"t": "evaluate"}, {"$lte": {"from": rank}}]}}
        for index, patterns in enumerate(compile_condition(rule, ctx, [event])):
            name = f"{rule.id}#{index}"
            ruleset.rules.append(CompiledRule(name, rule, patterns, rank))
            definition[name] = {"all": patterns, "pri": rank}
        _collect_names(rule, ruleset)
    definition["-fallthrough-"] = {"all": [{"e": {"t": "evaluate"}}], "pri": LOWEST}
    definition.update(_accepting_rules(ruleset_name, ruleset.kinds, with_judgments=False))
    return ruleset, definition


def compile_derivations(rules: list[Rule], strata: dict[str, int], ruleset_name: str,
                        judgments: set[str]) -> tuple[Ruleset, dict[str, Any]]:
    """All derivations of a pack in one ruleset, so judgments chain within one state."""
    ruleset = Ruleset(ruleset_name)
    definition: dict[str, Any] = {}
    for rank, rule in enumerate(rules, start=1):
        ctx = _Context(judgments, rule)
        phase = {"p": {"$and": [{"t": "phase"}, {"n": strata[rule.id]}]}}
        for index, patterns in enumerate(compile_condition(rule, ctx, [phase])):
            name = f"{rule.id}#{index}"
            ruleset.rules.append(CompiledRule(name, rule, patterns, rank))
            definition[name] = {"all": patterns, "pri": rank}
        _collect_names(rule, ruleset)
    ruleset.judgments_read = ruleset.board_names & judgments
    ruleset.board_names -= judgments
    definition["-end-"] = {"all": [{"a": {"t": "end"}}], "pri": LOWEST}
    definition.update(_accepting_rules(ruleset_name, ruleset.kinds, with_judgments=True))
    return ruleset, definition


def _collect_names(rule: Rule, ruleset: Ruleset) -> None:
    ruleset.board_names |= board_names(rule.when)
    ruleset.kinds |= kinds(rule.when)


def strata(rules: list[Rule], judgments: set[str]) -> dict[str, int]:
    """Stratum of each derivation rule: after every rule whose judgment it reads negatively.

    Raises on a cycle through negation, which has no stratified meaning.
    """
    by_judgment: dict[str, list[Rule]] = {}
    for rule in rules:
        by_judgment.setdefault(rule.then["judge"], []).append(rule)
    level: dict[str, int] = {}
    visiting: set[str] = set()

    def judgment_level(name: str, trail: tuple[str, ...]) -> int:
        if name not in by_judgment:
            return 0
        if name in level:
            return level[name]
        if name in visiting:
            return -1  # a positive cycle: harmless, handled by the caller
        visiting.add(name)
        result = max(rule_level(r, (*trail, name)) for r in by_judgment[name])
        visiting.discard(name)
        level[name] = result
        return result

    def rule_level(rule: Rule, trail: tuple[str, ...]) -> int:
        result = 0
        negative = negated_board_names(rule.when) & judgments
        for name in board_names(rule.when) & judgments:
            if name in negative and (name in trail or name == rule.then["judge"]):
                raise RuleFileError(
                    f"judgment {name!r} depends on its own negation "
                    f"({' → '.join((*trail, name))})", file=rule.file, line=rule.line)
            sub = judgment_level(name, trail)
            if sub >= 0:
                result = max(result, sub + 1 if name in negative else sub)
        return result

    return {rule.id: rule_level(rule, (rule.then["judge"],)) for rule in rules}
