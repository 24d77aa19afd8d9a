"""`rules lint` warnings about pages that take actions but never say what an action uses up.

A decision page counts what its actions spend in its `after_action` (set after every action),
and reads itself again while `repeat_while` holds. A page that leaves both out loads and
decides, but wrongly: its action spends nothing, so the next page still has every action to
spend and the same target is taken again. Nothing marks such a page as wrong by itself (many
pages take one action and end), so the checks compare it with what the rules around it say:

- its family: the pages one templated `call`/`goto` can spell (`page.{x}.{y}`) are read alike,
  so they take actions alike. A page of a family that takes actions without the `after_action`
  (or `repeat_while`) most of the family's other acting pages have is warned about, with the
  pack's page template it turned down (`template: none`), else one of them to copy from.
- a page with `repeat_while` but no `after_action`, none of whose rules sets what the
  condition reads: after an action, the same rule can apply again and again.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..language.outcomes import Assign
from ..language.pack import DECISION, Pack, Page, Rule
from ..language.page_links import known_values, targets
from ..language.tree_queries import all_refs

Found = tuple[Rule, str, str, str | None]  # rule, message, hint, a file the hint names
_BOOKKEEPING = ("repeat_while", "after_action")  # as a file writes them
_WHY = {"after_action": "an action there uses nothing up",
        "repeat_while": "it is read once, for one action at most"}


def _acting(page: Page) -> Rule | None:
    """The page's first rule that takes an action, if any."""
    return next((r for r in page.ordered() if r.then.action is not None), None)


def _has(page: Page, key: str) -> bool:
    return getattr(page, key) is not None


def families(pack: Pack) -> dict[str, list[Page]]:
    """The pages each templated page link can spell, by its template (two or more pages)."""
    names = [p.name for p in pack.pages.values() if p.kind == DECISION]
    known = known_values(pack)
    found: dict[str, list[Page]] = {}
    for rule in pack.rules():
        for _, target in rule.then.page_links():
            if target.static or target.text in found:
                continue
            pages = [pack.pages[n] for n in targets(target.text, names, known)
                     if n in pack.pages]
            if len(pages) > 1:
                found[target.text] = pages
    return found


def unlike_family(pack: Pack) -> Iterator[Found]:
    """Each acting page that lacks what most of its family's other acting pages have (a page
    in several families is reported once)."""
    reported: set[str] = set()
    for template, pages in families(pack).items():
        acting = {p.name: (p, r) for p in pages if (r := _acting(p)) is not None}
        for page, rule in acting.values():
            others = [p for p, _ in acting.values() if p is not page]
            missing = [k for k in _BOOKKEEPING if not _has(page, k)
                       and 2 * sum(_has(p, k) for p in others) > len(others)]
            if not missing or page.name in reported:
                continue
            reported.add(page.name)
            models = [p for p in others if all(_has(p, k) for k in missing)]
            share = "all" if len(models) == len(others) else f"{len(models)} of the"
            found = (rule, f"page {page.name!r} takes actions (rule {rule.id!r}) but has no "
                           f"{' or '.join(missing)}, unlike {share} {len(others)} other pages "
                           f"{template!r} can lead to: "
                           f"{'; '.join(_WHY[k] for k in missing)}")
            kept = next((t for t in pack.templates.values() if t.applies_to(page.name)), None)
            if kept is not None:  # it said `template: none`
                yield (*found, f"did you mean to take the pack's page template {kept.name!r} "
                               "(leave out `template: none`), which gives its "
                               f"{' and '.join(missing)}?", None)
            else:
                yield (*found, f"did you mean to start it as {models[0].name!r} does "
                               f"({{see}}), with its {' and '.join(missing)}?",
                       models[0].files[0])


def repeats_unchanged(pack: Pack) -> Iterator[Found]:
    """Each acting page read again after an action, with nothing that changes what its
    `repeat_while` reads."""
    for page in pack.pages.values():
        rule = _acting(page)
        if page.repeat_while is None or page.after_action is not None or rule is None:
            continue
        read = {ref.name for ref in all_refs(page.repeat_while) if ref.scope is None}
        set_ = {e.name for r in page.rules for e in r.then.effects if isinstance(e, Assign)}
        if read & set_:
            continue
        yield (rule, f"page {page.name!r} is read again after an action while "
                     f"{page.repeat_text.removeprefix('while ')!r} holds, but has no "
                     "after_action and no rule of it sets what that reads: the same rule can "
                     "act again and again", "did you mean to add an after_action saying what "
                     "one action uses up?", None)
