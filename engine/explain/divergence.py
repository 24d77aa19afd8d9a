"""Where two walks of the same situation part: the first rule whose outcome differs.

A situation decided under two rule sets (a pack, and the pack with an overlay laid on it) gives
two traces. Their steps are compared in order; at the first step that differs, the rules each
walk read there are merged in page order, and the first one that fired in one walk and not in
the other (or fired in both with another outcome) is the rule to show, with what became of it
under each rule set. A rule one walk read and found not to apply is the same as one the other
walk did not have: neither fired. The judgments both walks read with different values are
listed too, since a derivation an overlay changes shows in the walk only through the rules that
read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..language.pack import Pack
from ..trace import Step, Trace

if TYPE_CHECKING:
    from ..decide import Engine

FIRED, NOT_APPLIED, NOT_REACHED, ABSENT, PAGE_NOT_READ = (
    "fired", "did not apply", "not reached (an earlier rule ended the page)",
    "not in these rules", "its page was not read")


@dataclass(frozen=True)
class Divergence:
    """The first difference between two walks, for people: step number (from 1), page, rule
    (None when the walks read other pages with the same rules), and the rule's outcome under
    each rule set (`base`, `other`)."""

    step: int
    page: str
    rule: str | None
    base: str
    other: str

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "page": self.page, "rule": self.rule, "base": self.base,
                "other": self.other}


@dataclass(frozen=True)
class _Side:
    """One walk's step at the point of comparison, and the engine it was decided with."""

    engine: Engine
    step: Step | None

    def read(self) -> list[str]:
        if self.step is None:
            return []
        return [s["rule"] for s in self.step.skipped] + ([self.step.rule] if self.step.rule
                                                         else [])

    def fired(self, rule: str) -> bool:
        return self.step is not None and self.step.rule == rule

    def status(self, rule: str) -> str:
        if self.step is None:
            return PAGE_NOT_READ
        if self.fired(rule):
            return FIRED
        if rule in self.read():
            return NOT_APPLIED
        if rule in self.engine.rank:
            return NOT_REACHED
        reason = self.engine.pack.disabled.get(rule)
        if reason:
            return f"disabled: {reason}"
        by = next((r.id for r in self.engine.pack.rules() if r.replaces == rule), None)
        return f"replaced by {by}" if by else ABSENT


def only_one_declares(base: Pack, other: Pack) -> frozenset[str]:
    """Names of facts and entity fields one pack declares and the other does not (an overlay
    adding a field to an entity kind): a value only one side can have tells no difference, so
    comparisons leave them out (`without`)."""
    def names(pack: Pack) -> set[str]:
        return pack.facts.board_names() | {name for spec in pack.facts.entities.values()
                                           for name in spec.fields}

    return frozenset(names(base) ^ names(other))


def without(value: Any, names: frozenset[str]) -> Any:
    """`value` (JSON-like) with every mapping's keys in `names` left out."""
    if isinstance(value, dict):
        return {k: without(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list):
        return [without(v, names) for v in value]
    return value


def _signature(step: Step, names: frozenset[str]) -> tuple[Any, ...]:
    return step.page, step.rule, without(step.outcome, names), without(step.matched, names)


def divergence(base: Engine, base_trace: Trace, other: Engine, other_trace: Trace,
               ) -> Divergence | None:
    """The first difference between the walks (None: they took the same steps)."""
    names = only_one_declares(base.pack, other.pack)
    steps = max(len(base_trace.steps), len(other_trace.steps))
    for index in range(steps):
        first = base_trace.steps[index] if index < len(base_trace.steps) else None
        second = other_trace.steps[index] if index < len(other_trace.steps) else None
        if first is not None and second is not None and \
                _signature(first, names) == _signature(second, names):
            continue
        page = (first or second).page  # type: ignore[union-attr]  # one of them is a step
        if first is not None and second is not None and first.page != second.page:
            return Divergence(index + 1, page, None, f"reads page {first.page}",
                              f"reads page {second.page}")
        one, two = _Side(base, first), _Side(other, second)
        rule = _first_rule(one, two) or (first.rule if first is not None else None) \
            or (second.rule if second is not None else None)
        if rule is None:
            return Divergence(index + 1, page, None, "no rule fired", "no rule fired")
        return Divergence(index + 1, page, rule, one.status(rule), two.status(rule))
    return None


def _first_rule(one: _Side, two: _Side) -> str | None:
    """The first rule, in page order, that fired in one walk and not in the other, or fired
    in both with another outcome."""
    for rule in _page_order(one, two):
        if one.fired(rule) != two.fired(rule):
            return rule
        if one.fired(rule):  # both fired it: its outcome differs, or the step would be equal
            return rule
    return None


def _page_order(one: _Side, two: _Side) -> list[str]:
    """The rules either walk read at this step, merged in page order: where the two lists
    part, a rule that only one rule set has (added, disabled, replaced) comes first."""
    first, second = one.read(), two.read()
    merged: list[str] = []
    i = j = 0
    while i < len(first) or j < len(second):
        if i < len(first) and j < len(second) and first[i] == second[j]:
            merged.append(first[i])
            i, j = i + 1, j + 1
        elif j < len(second) and (i == len(first) or second[j] not in one.engine.rank):
            merged.append(second[j])
            j += 1
        else:
            merged.append(first[i])
            i += 1
    return list(dict.fromkeys(merged))  # a rule read in both walks, once


def judgments_changed(base_trace: Trace, other_trace: Trace,
                      names: frozenset[str] = frozenset()) -> list[str]:
    """Judgments both walks read whose values differ (one that only one walk read, or that
    only one side declares, `names`, is no difference of value)."""
    judged = (base_trace.judgments.keys() & other_trace.judgments.keys()) - names
    return sorted(name for name in judged
                  if base_trace.judgments[name].value != other_trace.judgments[name].value)


__all__ = ["Divergence", "divergence", "judgments_changed", "only_one_declares", "without"]
