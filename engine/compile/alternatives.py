"""A condition as the alternatives durable_rules compiles: its disjunctive normal form, an
`exists` over an `or` spread into one `exists` per branch, constant parts settled, all under
the `alternatives` limit."""

from __future__ import annotations

from ..errors import RuleFileError
from ..evaluator.evaluate import World, holds
from ..language.expressions import Aggregate, All, Compare, Condition, Exists, Extreme
from ..language.pack import Rule
from ..language.tree_queries import all_refs, disjuncts, negation_normal
from ..limits import current as limits


def _spread_exists(conjunctions: list[list[Condition]], limit: int) -> list[list[Condition]]:
    """`exists t (A or B)` is `exists t (A) or exists t (B)`: one alternative per inner one."""
    spread: list[list[Condition]] = []
    for conjunction in conjunctions:
        options: list[list[Condition]] = [[]]
        for literal in conjunction:
            alternatives: list[Condition]
            if isinstance(literal, Exists) and literal.where is not None:
                alternatives = [Exists(literal.kind, literal.alias, All(tuple(branch)))
                                for branch in disjuncts(literal.where, limit)]
            else:
                alternatives = [literal]
            options = [[*done, alt] for done in options for alt in alternatives]
            if len(options) + len(spread) > limit:
                raise OverflowError(len(options) + len(spread))
        spread.extend(options)
    return spread


def alternatives(rule: Rule, condition: Condition) -> list[list[Condition]]:
    """The DNF alternatives of a condition, constant parts settled; [] if it never holds."""
    limit = limits().alternatives
    try:
        conjunctions = _spread_exists(disjuncts(negation_normal(condition), limit), limit)
    except OverflowError as exc:
        raise RuleFileError(f"rule {rule.id}: its condition has {exc.args[0]}+ alternatives "
                            f"once its `or`s are multiplied out, over the limit alternatives = "
                            f"{limit}", file=rule.file, line=rule.line,
                            hint="split it into several rules, or derive judgments for parts "
                                 "of it") from None
    kept = []
    for conjunction in conjunctions:
        constant = [c for c in conjunction if isinstance(c, Compare) and not all_refs(c)
                    and not isinstance(c.left, Aggregate | Extreme)]
        if all(holds(c, World({})) for c in constant):
            kept.append([c for c in conjunction if c not in constant])
    return kept
