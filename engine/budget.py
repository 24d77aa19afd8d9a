"""The work of one decision, counted against the `combinations` limit (issue 21).

What a decision costs grows with the entity combinations its rules examine: in durable_rules,
a rule joining k kinds matches up to the product of their counts each time its page is read or
its stratum derived (one kind: one test per entity), and every match of a derivation is a
firing whybot reads back; in the evaluator, each entity a condition tests. All of it, over
every rule, derivation run and page read of the decision, is summed into one budget. What can
be counted before the work (a stratum, a page's band) is charged before it starts, the rest
as it goes; past the limit the decision is refused (exit 2) naming the limit and the costliest
rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from .limits import LimitError
from .limits import current as limits

Costed = Sequence[tuple[tuple[str, ...], str]]  # (the kinds a rule reads, joined; its id)
Grouped = tuple[tuple[tuple[str, ...], int], ...]  # (kinds read, how many rules read them)


class Budget:
    """Combinations examined so far by one decision, and the limit on them (0: none)."""

    __slots__ = ("limit", "spent")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0

    def spend(self, count: int, what: str = "") -> None:
        """Count work done or about to be done; past the limit, refuse the decision."""
        self.spent += count
        if self.limit and self.spent > self.limit:
            raise LimitError(f"this decision would examine {self.spent:,}+ entity combinations"
                             f"{' (' + what + ')' if what else ''}, over the limit "
                             f"combinations = {self.limit:,}",
                             hint="list fewer entities, or raise the limit with "
                                  "WHYBOT_LIMIT_COMBINATIONS=N or --limit combinations=N")

    def charge(self, rules: Costed, counts: Mapping[str, int], where: str,
               by_kinds: Grouped | None = None) -> None:
        """Spend what `rules` cost over entities of these counts, before reading them
        (`by_kinds`: the same rules counted per kinds they read, `grouped`)."""
        if not rules:
            return
        if by_kinds is None:
            by_kinds = grouped(rules)
        total = sum(count * product(kinds, counts) for kinds, count in by_kinds)
        if self.limit and self.spent + total > self.limit:
            costs = [(product(kinds, counts), rule, kinds) for kinds, rule in rules]
            cost, rule, kinds = max(costs)
            shown = " × ".join(f"{counts.get(kind, 0):,} {kind}" for kind in kinds)
            self.spend(total, f"{where}: rule {rule} alone {shown} = {cost:,}")
        self.spent += total


def grouped(rules: Costed) -> Grouped:
    """How many of `rules` read each tuple of kinds: what they cost is that many products
    (a stratum's hundreds of rules read a few such tuples)."""
    found: dict[tuple[str, ...], int] = {}
    for kinds, _ in rules:
        found[kinds] = found.get(kinds, 0) + 1
    return tuple(found.items())


def product(kinds: tuple[str, ...], counts: Mapping[str, int]) -> int:
    """The combinations a rule reading these kinds (joined) can examine: their counts
    multiplied (a rule that reads no entity costs one test)."""
    found = 1
    for kind in kinds:
        found *= counts.get(kind, 0)
    return found


_CURRENT: ContextVar[Budget | None] = ContextVar("whybot_budget", default=None)


@contextmanager
def decision() -> Iterator[Budget]:
    """A fresh budget for the work of one decision (nested: the outer one goes on)."""
    found = _CURRENT.get()
    if found is not None:
        yield found
        return
    token = _CURRENT.set(found := Budget(limits().combinations))
    try:
        yield found
    finally:
        _CURRENT.reset(token)


def current() -> Budget:
    """The budget of the decision under way; outside one, a budget for this charge alone."""
    found = _CURRENT.get()
    return found if found is not None else Budget(limits().combinations)


__all__ = ["Budget", "current", "decision", "product"]
