"""What a house-rule folder does to the pack it lies over: the shipped rules it replaces,
disables or shadows, and the decision points whose decisions it can change.

Replacing and disabling are read off the two loaded packs. Shadowing is the pre-emption proof
(`lint.preempted`) where a rule of the folder stands first. A change is shown, page by page, by
a witness on which the shipped page and the overlaid page fire different rules, each page read
by its own compiled engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from ..compile.rulesets import rule_condition
from ..language.pack import DECISION, DERIVATION, Pack, Page, Rule
from ..language.tree_queries import all_refs, scopes
from ..load.lint import preempted
from .checker import CONFIRMS, Checker
from .confirm import Confirmer, witness
from .findings import OVERLAY, Finding, Searched
from .paths import reaching
from .search import PageSearch


def _changed(base: Page | None, page: Page) -> bool:
    def shape(p: Page | None) -> list[tuple[str, str, str]]:
        return [(r.id, r.when_text, repr(r.then.raw)) for r in (p.ordered() if p else [])]
    return shape(base) != shape(page)


def overlay_effects(base: Pack, checker: Checker, shipped: Confirmer) -> Iterator[Finding]:
    """The overlay's findings: `checker` checks the overlaid pack, `shipped` decides on the
    pack as shipped."""
    pack = checker.pack
    shipped_ids = {rule.id: rule for rule in base.rules()}
    ours = {rule.id for rule in pack.rules()
            if rule.id not in shipped_ids or rule.replaces is not None}
    for rule in pack.rules():
        if rule.replaces is not None and rule.replaces in shipped_ids:
            old = shipped_ids[rule.replaces]
            yield Finding(OVERLAY, rule.id, f"rule {rule.id!r} replaces the shipped rule "
                          f"{old.id!r} (page {old.page!r})", rule.where)
    for rule_id, reason in pack.disabled.items():
        if rule_id in shipped_ids and rule_id not in base.disabled:
            old = shipped_ids[rule_id]
            left = pack.pages.get(old.page)
            empty = "" if left is not None and left.rules else \
                f"; page {old.page!r} is left with no rule"
            yield Finding(OVERLAY, rule_id, f"the shipped rule {rule_id!r} (page {old.page!r}) "
                          f"is disabled: {reason}{empty}", old.where)
    for page in pack.decision_pages():
        for later, first, why in preempted(page.ordered(), page.repeat_while is not None):
            if first.id in ours and later.id not in ours:
                yield Finding(OVERLAY, later.id, f"the shipped rule {later.id!r} is shadowed "
                              f"by {first.id!r}", later.where,
                              [f"it {why} {first.id!r} ({first.where}), which ends the page"])
    for name, page in pack.pages.items():
        if page.kind == DECISION and _changed(base.pages.get(name), page):
            yield from _change(base, checker, shipped, page)
    judged = sorted({_target(r) for r in pack.derivations() if r.id in ours
                     and r.then.judge is not None})
    if judged:
        yield from _judgments(base, checker, shipped, judged)


def _target(rule: Rule) -> tuple[str, str]:
    """What a derivation judges: ("", board name) or (kind, field) of the entity it binds."""
    assert rule.then.judge is not None
    judge = rule.then.judge
    if judge.alias is None:
        return "", judge.name
    return scopes(rule.when).get(judge.alias, ""), judge.name.rpartition(".")[2]


def _change(base: Pack, checker: Checker, shipped: Confirmer, page: Page) -> Iterator[Finding]:
    """A witness on which the page as shipped and as overlaid fire different rules."""
    before = base.pages.get(page.name)
    if before is None:
        return
    ours, theirs = checker.search(page), PageSearch(base, checker.domains, before)
    decided = 0
    half = (checker.tries + 1) // 2  # aimed at the overlaid rules and at the shipped ones
    for probe in chain.from_iterable(zip(ours.probes(half), theirs.probes(half),
                                         strict=True)):
        mine, shipped_first = _first(ours.applying(probe)), _first(theirs.applying(probe))
        if mine == shipped_first:
            continue
        found = witness(checker.pack, probe, f"overlay-{page.name}",
                        f"the overlay changes what page {page.name!r} does")
        now, was = checker.confirmer.first(found, [1]), shipped.first(found, [1])
        if now is not None and was is not None and _first(now) != _first(was):
            points = ", ".join(reaching(checker.pack, page.name)) or "none"
            yield Finding(OVERLAY, page.name, f"on page {page.name!r} the overlay changes the "
                          f"rule that fires (as shipped: {_first(was) or 'none'}; with the "
                          f"overlay: {_first(now) or 'none'}); decision points it can change: "
                          f"{points}", before.files[0] if before.files else page.name,
                          witness=found)
            return
        decided += 1
        if decided >= CONFIRMS:
            break
    checker.report.searched.append(Searched("overlay change", f"page {page.name!r}",
                                            checker.tries))


def _judgments(base: Pack, checker: Checker, shipped: Confirmer,
               targets: list[tuple[str, str]]) -> Iterator[Finding]:
    """A witness on which the shipped and the overlaid derivations judge differently, and
    the decision points whose pages read those judgments."""
    pack = checker.pack
    rules = [r for r in [*pack.derivations(), *base.derivations()]
             if r.then.judge is not None and _target(r) in targets]
    search = PageSearch(pack, checker.domains, Page("judgments", "", "", DERIVATION, rules))
    names = [f"{kind}.{name}" if kind else name for kind, name in targets]
    for tried, probe in enumerate(search.probes(checker.tries)):
        for kind, name in targets:  # what the overlay judges is derived, never given
            probe.board.pop(name, None)
            for entity in probe.entities.get(kind, []):
                entity.pop(name, None)
        found = witness(pack, probe, "overlay-judgments",
                        f"the overlay judges {', '.join(names)} otherwise")
        now, was = checker.confirmer.judged(found, targets), shipped.judged(found, targets)
        if now is not None and was is not None and now != was:
            differ = [i for i, _ in enumerate(targets) if now[i] != was[i]]
            read = _influenced(pack, {targets[i][1] for i in differ})
            pages = {p.name for p in pack.decision_pages() for rule in p.rules
                     if read & _reads(rule)}
            points = sorted({point for page in pages for point in reaching(pack, page)})
            yield Finding(OVERLAY, ", ".join(names[i] for i in differ),
                          "the overlay judges " + "; ".join(
                              f"{names[i]} {_shown(now[i])} where the shipped rules judge "
                              f"{_shown(was[i])}" for i in differ)
                          + f"; decision points it can change: {', '.join(points) or 'none'}",
                          rules[0].where, witness=found)
            return
        if tried + 1 >= CONFIRMS * 4:
            break
    checker.report.searched.append(Searched("overlay change", ", ".join(names),
                                            checker.tries))


def _reads(rule: Rule) -> set[str]:
    """The names (an entity field by its own name) a rule's condition reads."""
    return {ref.name.rpartition(".")[2] for ref in all_refs(rule_condition(rule))}


def _influenced(pack: Pack, names: set[str]) -> set[str]:
    """These judgments and every judgment derived, however indirectly, from them."""
    found = set(names)
    while True:
        more = {_target(r)[1] for r in pack.derivations()
                if r.then.judge is not None and _reads(r) & found} - found
        if not more:
            return found
        found |= more


def _shown(value: object) -> str:
    return "unknown" if value is None else str(value).lower() if isinstance(value, bool) \
        else str(value)


def _first(rules: list[Rule] | list[Rule | None]) -> str | None:
    rule = rules[0] if rules else None
    return rule.id if rule is not None else None
