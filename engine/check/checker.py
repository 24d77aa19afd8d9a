"""The passes of `rules check`, in order: rules that never apply (proofs over the schema),
rules that never fire (an earlier rule pre-empts them: the `rules lint` analysis, as a proof),
pages never reached, gaps and equal-priority conflicts (witnesses the rule engine confirms).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from ..compile.rulesets import rule_condition
from ..language.expressions import All, Condition, Not
from ..language.pack import DECISION, Pack, Page, Rule
from ..language.tree_queries import board_names, kinds_read
from ..load.lint import always, preempted
from .confirm import Confirmer, Witness, witness
from .domains import Domains
from .findings import (
    CONFLICT,
    GAP,
    NEVER_APPLIES,
    NEVER_FIRES,
    NEVER_REACHED,
    Finding,
    Report,
    Searched,
)
from .paths import arriving, reached
from .proofs import impossible
from .search import PageSearch, Probe

TRIES = 200  # probes per page and per question
CONFIRMS = 4  # candidate witnesses the rule engine decides before the search gives up


class Checker:
    """One pack's check: its domains, its pages' searches, and the engine that confirms."""

    def __init__(self, pack: Pack, confirmer: Confirmer, tries: int = TRIES) -> None:
        self.pack = pack
        self.confirmer = confirmer
        self.tries = tries
        self.domains = Domains(pack)
        self.searches: dict[str, PageSearch] = {}
        self.report = Report(pack.name)

    def search(self, page: Page) -> PageSearch:
        if page.name not in self.searches:
            self.searches[page.name] = PageSearch(self.pack, self.domains, page,
                                                  arriving(self.pack, page.name))
        return self.searches[page.name]

    def run(self) -> Report:
        impossible_rules = set()
        for finding in self.never_applies():
            impossible_rules.add(finding.subject)
            self.report.findings.append(finding)
        self.report.findings += self.never_fires(impossible_rules)
        ways, top = reached(self.pack), reached(self.pack, only="goto")
        for page in self.pack.decision_pages():
            if page.name not in ways:
                self.report.findings.append(Finding(
                    NEVER_REACHED, page.name, f"no decision reaches page {page.name!r}",
                    _page_where(page), ["no call, goto or each from the start page leads "
                                        "here"]))
            elif page.name in top:
                self.gap(page)
            self.conflicts(page, impossible_rules)
        self.report.decided = self.confirmer.decided
        return self.report

    def never_applies(self) -> Iterator[Finding]:
        for rule in self.pack.rules():
            reasons = impossible(rule_condition(rule), self.domains)
            if reasons:
                yield Finding(NEVER_APPLIES, rule.id, f"rule {rule.id!r} can never apply",
                              rule.where, reasons)

    def never_fires(self, impossible_rules: set[str]) -> Iterator[Finding]:
        for page in self.pack.decision_pages():
            for later, first, why in preempted(page.ordered(), page.repeat_while is not None,
                                               self.implies):
                if later.id not in impossible_rules:
                    yield Finding(NEVER_FIRES, later.id, f"rule {later.id!r} can never fire: "
                                  f"{first.id!r} comes first", later.where,
                                  [f"it {why} {first.id!r} ({first.where}), which ends the "
                                   "page"])

    def implies(self, later: Condition, earlier: Condition) -> bool:
        """Proved: whenever `later` holds, `earlier` does (interval reasoning; only tried
        when `earlier` reads nothing `later` does not)."""
        if not (board_names(earlier) <= board_names(later)
                and kinds_read(earlier) <= kinds_read(later)):
            return False
        return impossible(All((later, Not(earlier))), self.domains) is not None

    def gap(self, page: Page) -> None:
        """A situation where no rule of the page applies, on a page with no fallback."""
        if any(always(rule_condition(rule)) for rule in page.rules):
            return
        search = self.search(page)
        found = self.first_confirmed(
            search.probes(self.tries),
            lambda probe: search.arrives(probe) and not search.applying(probe),
            f"gap-{page.name}", "no rule applies",
            [1], lambda decided: decided == [None])
        if found is None:
            self.report.searched.append(Searched(GAP, f"page {page.name!r}", self.tries))
            return
        self.report.findings.append(Finding(
            GAP, page.name, f"on page {page.name!r} no rule applies, and nothing says that "
            "is the answer (the bot would do nothing there)", _page_where(page),
            witness=found))

    def conflicts(self, page: Page, impossible_rules: set[str]) -> None:
        """Two rules of equal priority and layer, different outcomes, both applying."""
        if page.kind != DECISION:
            return
        for first, second in combinations(page.ordered(), 2):
            if first.priority is not None and (first.layer, first.priority) == \
                    (second.layer, second.priority) and first.then.raw != second.then.raw \
                    and not {first.id, second.id} & impossible_rules:
                self.conflict(page, first, second)

    def conflict(self, page: Page, first: Rule, second: Rule) -> None:
        search = self.search(page)
        both = {first.id, second.id}
        ranks = [self.confirmer.engine.rank[first.id], self.confirmer.engine.rank[second.id]]
        found = self.first_confirmed(
            search.probes(self.tries, [first, second]),
            lambda probe: both <= {r.id for r in search.applying(probe)},
            f"conflict-{first.id}", f"both {first.id} and {second.id} apply", ranks,
            lambda decided: [r.id if r else None for r in decided] == [first.id, second.id])
        subject = f"{first.id} / {second.id}"
        if found is None:
            self.report.searched.append(Searched(CONFLICT, subject, self.tries))
            return
        self.report.findings.append(Finding(
            CONFLICT, subject, f"rules {first.id!r} and {second.id!r} have the same priority "
            f"({first.priority:g}), both apply, and do different things: only the file order "
            "decides", first.where, witness=found))

    def first_confirmed(self, probes: Iterator[Probe], wanted: Callable[[Probe], bool],
                        name: str, says: str, starts: list[int],
                        confirmed: Callable[[list[Rule | None]], bool]) -> Witness | None:
        """The first probe the plain evaluator finds `wanted` whose witness the rule engine
        confirms (reading the page from each rank of `starts`), deciding at most CONFIRMS."""
        decided = 0
        for probe in probes:
            if not wanted(probe):
                continue
            found = witness(self.pack, probe, name, says)
            result = self.confirmer.first(found, starts)
            if result is not None and confirmed(result):
                return found
            decided += 1
            if decided >= CONFIRMS:
                return None
        return None


def _page_where(page: Page) -> str:
    rule = next(iter(page.rules), None)
    return rule.file if rule is not None else (page.files[0] if page.files else page.name)
