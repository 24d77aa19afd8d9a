"""Warnings `rules lint` adds to the load errors: rules that can never fire, dead links.

A decision page fires its first applicable rule. Rule B (later) can never fire when an earlier
rule A applies whenever B does (A's condition is `true`, equals B's, or is one of the `and`-parts
of B's) and no rule from A up to B lets the reading go on (`continue: true`, or `call:` without
`goto:` or `stop:`): then the scan never gets past A while B holds. The check is syntactic, so it
finds the plain cases (a rule after an unconditional one, a copied condition), not every one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..compile.rulesets import rule_condition
from ..evaluator.evaluate import World, holds
from ..language.expressions import All, Condition
from ..language.pack import DECISION, Pack, Rule
from ..language.page_links import links
from ..language.tree_queries import all_refs, kinds_read
from .spending import repeats_unchanged, unlike_family


@dataclass
class Warning_:
    file: str
    line: int
    message: str
    hint: str | None = None  # "did you mean ..."; `{see}` in it stands for the file `see`
    see: str | None = None  # a file the hint names (the CLI shows it as the user types it)

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}: {self.message}"
        return f"{text} ({self.hint.replace('{see}', self.see or '')})" if self.hint else text


def always(node: Condition) -> bool:
    """A condition that reads nothing and holds."""
    return not all_refs(node) and not kinds_read(node) and holds(node, World({}, {}))


def reads_on(rule: Rule) -> bool:
    """After this rule fires, does the page go on to the rules below it?"""
    then = rule.then
    if then.stop is not None or then.goto is not None:
        return False
    return then.reads_on or then.call is not None


class _Earlier:
    """The conditions of a page's rules read so far, indexed so that finding an earlier rule
    a later one implies costs a few look-ups, not a pass over every earlier rule (a page of a
    thousand house rules would be half a million comparisons)."""

    def __init__(self) -> None:
        self.always: list[int] = []
        self.equal: dict[Condition, list[int]] = {}
        self.conjunctions: dict[Condition, list[tuple[int, frozenset[Condition]]]] = {}

    def add(self, index: int, condition: Condition) -> None:
        if always(condition):
            self.always.append(index)
        self.equal.setdefault(condition, []).append(index)
        if isinstance(condition, All) and condition.items:
            parts = frozenset(condition.items)
            self.conjunctions.setdefault(min(parts, key=hash), []).append((index, parts))

    def first_implied(self, later: Condition, after: int) -> int | None:
        """The first rule past index `after` that applies whenever `later` does, by shape: its
        condition always holds, is `later`, is one of its `and`-parts, or has only
        `and`-parts of it."""
        found = [self._first(self.always, after), self._first(self.equal.get(later, []), after)]
        if isinstance(later, All):
            parts = frozenset(later.items)
            for part in parts:
                found.append(self._first(self.equal.get(part, []), after))
                found += [i for i, need in self.conjunctions.get(part, [])
                          if i > after and need <= parts]
        return min((i for i in found if i is not None), default=None)

    @staticmethod
    def _first(indexes: list[int], after: int) -> int | None:
        at = bisect_right(indexes, after)
        return indexes[at] if at < len(indexes) else None


Implies = Callable[[Condition, Condition], bool]  # (later, earlier): later holds ⇒ earlier


def preempted(ordered: list[Rule], repeats: bool, implies: Implies | None = None,
              ) -> Iterator[tuple[Rule, Rule, str]]:
    """(later, earlier, why) for each rule an earlier rule always pre-empts: the first earlier
    rule the later one implies with no rule from it up to the later one letting the reading
    go on. By shape; with `implies`, also by what it proves of the rules the shape leaves
    (`rules check` reports these as proofs too)."""
    earlier = _Earlier()
    barrier = -1  # the last rule so far after which the page reads on
    conditions: list[Condition] = []
    for index, later in enumerate(ordered):
        condition = rule_condition(later)
        conditions.append(condition)
        start = earlier.first_implied(condition, barrier)
        if start is None and implies is not None:
            start = next((i for i in range(barrier + 1, index)
                          if implies(condition, conditions[i])), None)
            if start is not None:
                yield later, ordered[start], "can only apply when the earlier rule applies " \
                    "(the fact schema allows no situation where only it does):"
        elif start is not None:
            first = ordered[start]
            why = ("comes after the unconditional rule" if always(first.when)
                   else "has the same condition as" if later.when == first.when
                   else "can only apply when the earlier rule applies:")
            yield later, first, why
        earlier.add(index, condition)
        if reads_on(later) or (repeats and later.then.action is not None):
            barrier = index


def unreachable(ordered: list[Rule], repeats: bool) -> Iterator[Warning_]:
    """Rules an earlier rule always pre-empts (`preempted`), as warnings."""
    for later, first, why in preempted(ordered, repeats):
        yield Warning_(later.file, later.line,
                       f"rule {later.id!r} can never fire: it {why} {first.id!r} "
                       f"({first.where}), which ends the page")


def dead_ends(pack: Pack) -> Iterator[Warning_]:
    """Templated `call`/`goto` names that can spell a page no file defines (a `call` with
    `missing:` says its page may not exist: the decision notes it and reads on)."""
    for rule, how, target in links(pack):
        if how == "call" and rule.then.missing is not None:
            continue
        if target not in pack.pages:
            yield Warning_(rule.file, rule.line,
                           f"rule {rule.id!r} may lead ({how}) to page {target!r}, which no rule "
                           "file defines (the decision would stop with an error there)")


def decreasing(ordered: list[Rule]) -> Iterator[Warning_]:
    """The seed's numbers should not go down through a file: the file order decides."""
    last: dict[str, Rule] = {}
    for rule in ordered:
        before = last.get(rule.file)
        if before is not None and rule.priority is not None and before.priority is not None \
                and rule.priority < before.priority and rule.layer == before.layer:
            yield Warning_(rule.file, rule.line,
                           f"rule {rule.id!r} has the seed number {rule.priority:g} after "
                           f"{before.id!r} ({before.priority:g}): rules are read in file order")
        if rule.priority is not None:
            last[rule.file] = rule


def undeclared_actions(pack: Pack) -> Iterator[Warning_]:
    """A pack that lists no actions has its `action:` names unchecked: one warning, at the
    first rule that takes an action."""
    if pack.actions is not None:
        return
    acting = next((r for r in pack.rules() if r.then.action is not None), None)
    if acting is not None:
        yield Warning_(pack.files[0], 1, "the pack declares no actions, so no `action:` is "
                                         f"checked (the first: {acting.id!r}); list them under "
                                         "actions: here")


def warnings(pack: Pack) -> list[Warning_]:
    found: list[Warning_] = [*dead_ends(pack), *undeclared_actions(pack)]
    found += [Warning_(rule.file, rule.line, message, hint, see)
              for rule, message, hint, see in [*unlike_family(pack), *repeats_unchanged(pack)]]
    for page in pack.pages.values():
        if page.kind != DECISION:
            continue
        ordered = page.ordered()
        found.extend(unreachable(ordered, page.repeat_while is not None))
        found.extend(decreasing(ordered))
    return found
