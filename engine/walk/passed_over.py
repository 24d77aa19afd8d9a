"""The rules a page's reading passed over, stretch by stretch, worked out once an engine.

A page is read from a rank down to the rule that fired (or to its end); every rule in between
is one the evaluator must find false (the walk checks that it agrees with the rule engine) and
that the trace lists, with the board names it reads. A batch passes over the same stretches
decision after decision, and a page with a thousand house rules above its own makes each
decision pass over a thousand: their tests, their entries in the trace (explain off: no
failures to tell) and what they read together are the same every time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..evaluator.closures import Fn, holds_fn
from ..language.expressions import Condition
from ..language.pack import Rule
from ..trace import Step, WhyNot

if TYPE_CHECKING:
    from ..language.rule_reads import RuleReads

EMPTY_BOUND: dict[str, dict[str, Any]] = {}  # no entity bound: a page's conditions start so


@dataclass(frozen=True)
class Stretch:
    """Consecutive rules of one page that did not apply."""

    rules: list[Rule]
    tests: tuple[Fn, ...]  # each rule's condition as the evaluator reads it (NNF closures)
    entries: tuple[WhyNot, ...]  # the trace's entry of each, without failures (explain off)
    names: frozenset[str]  # the board names their conditions read
    fields: frozenset[str]  # the fields they read, entity fields included


class PassedOver:
    """The stretches of an engine's pages a walk passed over, each worked out on first use.
    At most `LIMIT` are kept (a pack's walks pass over a few hundred); past that, each is
    worked out again when asked."""

    LIMIT = 4096

    def __init__(self, ordered: dict[str, list[Rule]], rank: dict[str, int],
                 reads: dict[str, RuleReads], conditions: dict[str, Condition]) -> None:
        self.ordered = ordered
        self.rank = rank
        self.reads = reads
        self.conditions = conditions
        self.kept: dict[tuple[str, int, int], Stretch] = {}

    def stretch(self, page: str, start: int, end: int) -> Stretch:
        """Ranks `start` to `end - 1` of `page`."""
        found = self.kept.get((page, start, end))
        if found is None:
            rules = self.ordered[page][start - 1:end - 1]
            reads = [self.reads[rule.id] for rule in rules]
            found = Stretch(
                rules, tuple(holds_fn(self.conditions[rule.id]) for rule in rules),
                tuple(WhyNot(rule.id, rule.says, [], list(read.names))
                      for rule, read in zip(rules, reads, strict=True)),
                frozenset().union(*(read.names for read in reads)),
                frozenset().union(*(read.fields for read in reads)))
            if len(self.kept) < self.LIMIT:
                self.kept[(page, start, end)] = found
        return found

    def of(self, step: Step) -> Stretch:
        """The stretch a step of a trace this engine walked passed over."""
        if not step.skipped:
            return _NONE
        start = self.rank[step.skipped[0].rule]
        return self.stretch(step.page, start, start + len(step.skipped))

    def __getstate__(self) -> dict[str, object]:
        """A cached engine travels without them (the tests are closures: not pickled)."""
        return {**self.__dict__, "kept": {}}


_NONE = Stretch([], (), (), frozenset(), frozenset())
