"""Warnings `rules lint` adds to the engine's errors: rules that can never fire, and ties.

A decision page fires its first applicable rule. Rule B (later) can never fire when an earlier
rule A applies whenever B does (A's condition is `true`, equals B's, or is one of the `and`-parts
of B's) and no rule from A up to B lets the reading go on (`continue: true`, or `call:` without
`goto:` or `stop:`): then the scan never gets past A while B holds. The check is syntactic, so it
finds the plain cases (a rule after an unconditional one, a copied condition), not every one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from whybot.engine.conditions import All, Any_, Compare, Condition, Exists, Literal, Member, Not
from whybot.engine.evaluate import World, holds
from whybot.engine.model import DECISION, Pack, Rule


@dataclass
class Warning_:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def constant(node: Condition) -> bool:
    """True when the condition reads nothing: no board value, no entity."""
    if isinstance(node, Compare):
        return isinstance(node.left, Literal) and isinstance(node.right, Literal)
    if isinstance(node, Member):
        return isinstance(node.value, Literal)
    if isinstance(node, Not):
        return constant(node.item)
    if isinstance(node, All | Any_):
        return all(constant(item) for item in node.items)
    if isinstance(node, Exists):
        return False
    return False


def always(node: Condition) -> bool:
    return constant(node) and holds(node, World({}, {}))


def implies(later: Condition, earlier: Condition) -> bool:
    """Whenever `later` holds, `earlier` holds too (checked by shape only)."""
    if always(earlier) or later == earlier:
        return True
    if isinstance(later, All):
        parts = set(later.items)
        if earlier in parts:
            return True
        if isinstance(earlier, All) and set(earlier.items) <= parts:
            return True
    return False


def reads_on(rule: Rule) -> bool:
    """After this rule fires, does the page go on to the rules below it?"""
    then = rule.then
    if "stop" in then or "goto" in then:
        return False
    return bool(then.get("continue")) or "call" in then


def _where(rule: Rule) -> str:
    return f"{rule.file}:{rule.line}"


def unreachable(ordered: list[Rule]) -> Iterator[Warning_]:
    for index, later in enumerate(ordered):
        for start in range(index):
            earlier = ordered[start]
            if not implies(later.when, earlier.when):
                continue
            if any(reads_on(r) for r in ordered[start:index]):
                continue
            why = ("comes after the unconditional rule" if always(earlier.when)
                   else "has the same condition as" if later.when == earlier.when
                   else "can only apply when the earlier rule applies:")
            yield Warning_(later.file, later.line,
                           f"rule {later.id!r} can never fire: it {why} {earlier.id!r} "
                           f"({_where(earlier)}), which ends the page")
            break


def ties(ordered: list[Rule]) -> Iterator[Warning_]:
    seen: dict[tuple[int, float], Rule] = {}
    for rule in ordered:
        key = (rule.salience, rule.priority)
        first = seen.get(key)
        if first is None:
            seen[key] = rule
            continue
        yield Warning_(rule.file, rule.line,
                       f"rules {first.id!r} and {rule.id!r} tie on page {rule.procedure!r} "
                       f"(priority {rule.priority:g}, salience {rule.salience}): file order "
                       f"decides; give them distinct priorities")


def dead_ends(pack: Pack) -> Iterator[Warning_]:
    """`call`/`goto` to a page no file defines (templated names are checked at decision time)."""
    for rule in pack.rules():
        targets = [rule.then.get("call"), rule.then.get("goto"),
                   (rule.then.get("each") or {}).get("call")]
        for target in targets:
            if target and "{" not in target and target not in pack.procedures:
                yield Warning_(rule.file, rule.line,
                               f"rule {rule.id!r} leads to page {target!r}, which no rule file "
                               "defines (the walk would note it and read on)")


def warnings(pack: Pack) -> list[Warning_]:
    found: list[Warning_] = list(dead_ends(pack))
    for page in pack.procedures.values():
        if page.kind != DECISION:
            continue
        ordered = page.ordered()
        found.extend(unreachable(ordered))
        found.extend(ties(ordered))
    return found
