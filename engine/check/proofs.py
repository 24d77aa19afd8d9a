"""Proofs that a condition can never hold, by interval reasoning over the fact schema.

The condition is read in disjunctive normal form (`tree_queries.disjuncts`). An alternative is
impossible when the comparisons of one name with constants, together with that name's type,
enum and range, leave it no value: `resources == 1000` when resources is at most 40, `x > 5 and
x < 3`, a suit no enum lists; or when an `exists` asks for an entity no field values allow. Each
name is tested at its critical points (the schema's bounds, every constant and its neighbours):
for comparisons with constants, the set of values left is empty exactly when none of those
points is in it. Parts the reasoning does not model (arithmetic, comparisons of two names,
aggregates other than `count`) are taken as satisfiable, so a proof is never wrong; a
condition too large to expand is not proved either way.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise
from typing import Any

from ..evaluator.comparisons import compare
from ..language.expressions import Aggregate, Compare, Condition, Exists, Literal, Member, Ref
from ..language.tree_queries import disjuncts, negation_normal
from .domains import BOARD, Domain, Domains

ALTERNATIVES = 256  # past this many alternatives, a condition is not proved impossible
Part = Compare | Member
Scopes = dict[str, str]  # alias → kind of the `exists` in scope


def impossible(condition: Condition, domains: Domains, scopes: Scopes | None = None,
               ) -> list[str] | None:
    """Why `condition` can never hold (one reason per alternative), or None when it may (or
    is too large to tell)."""
    try:
        alternatives = disjuncts(negation_normal(condition), ALTERNATIVES)
    except OverflowError:
        return None
    reasons: list[str] = []
    for parts in alternatives:
        reason = _contradiction(parts, domains, scopes or {})
        if reason is None:
            return None
        reasons.append(reason)
    return list(dict.fromkeys(reasons))


def _contradiction(parts: list[Condition], domains: Domains, scopes: Scopes) -> str | None:
    groups: dict[tuple[str, str], list[tuple[Part, str, Any]]] = defaultdict(list)
    domain_of: dict[tuple[str, str], Domain] = {}
    for part in parts:
        if isinstance(part, Exists):
            inner = {**scopes, part.alias: part.kind}
            why = impossible(part.where, domains, inner) if part.where is not None else None
            if why:
                return f"no {part.kind} can have {part.where}: {'; '.join(why)}"
            continue
        if isinstance(part, Compare) and isinstance(part.left, Literal) \
                and isinstance(part.right, Literal):
            if not compare(part.op, part.left.value, part.right.value):
                return f"{part} is always false"
            continue
        if not isinstance(part, Compare | Member):  # `not exists`: taken as satisfiable
            continue
        for key, domain, op, constant in _tests(part, domains, scopes):
            groups[key].append((part, op, constant))
            domain_of[key] = domain
    for key, tests in groups.items():
        domain = domain_of[key]
        if not any(all(_passes(value, op, constant) for _, op, constant in tests)
                   for value in _critical(domain, [c for _, _, c in tests])):
            written = " and ".join(dict.fromkeys(str(part) for part, _, _ in tests))
            return f"{written}: impossible, as the fact schema allows {domain.name} " \
                   f"{domain.bounds()}"
    return None


def _passes(value: Any, op: str, constant: Any) -> bool:
    if op == "in":
        return value in constant
    if op == "not in":
        return value is not None and value not in constant
    return compare(op, value, constant)


def _tests(part: Part, domains: Domains, scopes: Scopes,
           ) -> list[tuple[tuple[str, str], Domain, str, Any]]:
    """(key, domain, op, constant) for a comparison of one name with a constant."""
    if isinstance(part, Member):
        found = _named(part.value, domains, scopes)
        op = "not in" if part.negated else "in"
        return [(key, domain, op, part.options) for key, domain in found]
    for value, op, other in ((part.left, part.op, part.right),
                             (part.right, _flipped(part.op), part.left)):
        if isinstance(other, Literal):
            return [(key, domain, op, other.value)
                    for key, domain in _named(value, domains, scopes)]
    return []


def _flipped(op: str) -> str:
    return {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)


def _named(value: Any, domains: Domains, scopes: Scopes) -> list[tuple[tuple[str, str], Domain]]:
    """The name a value is and its domain, if the schema knows it (a count is a natural)."""
    domain: Domain | None = None
    if isinstance(value, Ref) and value.scope is None:
        domain = domains.board(value.name)
        key = (BOARD, value.name)
    elif isinstance(value, Ref) and value.scope in scopes:
        domain = domains.field(scopes[value.scope], value.name)
        key = (value.scope, value.name)
    elif isinstance(value, Aggregate) and value.op == "count":
        domain = Domain(str(value), "integer", minimum=0)
        key = ("count", str(value))
    return [(key, domain)] if domain is not None else []


def _critical(domain: Domain, constants: list[Any]) -> list[Any]:
    """Values that meet every satisfiable set of comparisons with these constants."""
    if domain.finite is not None:
        return domain.finite
    if domain.type not in ("integer", "number"):
        return [*constants, *(c for option in constants if isinstance(option, tuple)
                              for c in option), f"not {constants!r}", domain.default]
    numbers = [c for c in constants if isinstance(c, int | float) and not isinstance(c, bool)]
    numbers += [c for option in constants if isinstance(option, tuple) for c in option
                if isinstance(c, int | float) and not isinstance(c, bool)]
    anchors = [*numbers, *(b for b in (domain.minimum, domain.maximum) if b is not None), 0]
    spread = len(numbers) + 1  # each `!=` removes one point: step past all of them
    if domain.type == "integer":
        points = [a + s for a in anchors for s in range(-spread, spread + 1)]
    else:  # between any two anchors lies their midpoint; past the ends, one step out
        ordered = sorted(set(anchors))
        points = [*ordered, ordered[0] - 1, ordered[-1] + 1,
                  *((low + high) / 2 for low, high in pairwise(ordered))]
    return [p for p in points if domain.allows(p)]
