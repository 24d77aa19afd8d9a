"""Phase two of loading a pack: rules by id as files are laid one over another (a module's page,
a variant, a house-rule folder): `replaces`, `before`/`after`, `disable`, a page's own
settings, and a rule id defined twice without saying so (an error naming both files)."""

from __future__ import annotations

from ..errors import RuleFileError, did_you_mean
from ..language.outcome_parser import OutcomeError, parse_outcome
from ..language.pack import DECISION, Pack, Page, Rule
from .declarations import condition, fail
from .rule_file import Placed
from .sources import Document


class Overlay:
    """Rules by id as files are laid one over another."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.by_id: dict[str, Rule] = {}

    def place(self, item: Placed, document: Document) -> None:
        rule = item.rule
        if item.anchor is not None:
            how, target = item.anchor
            anchor = self.by_id.get(target)
            if anchor is None:
                raise RuleFileError(f"{how} unknown rule {target!r}", file=rule.file,
                                    line=rule.line, hint=did_you_mean(target, set(self.by_id)))
            if anchor.page != rule.page:
                raise RuleFileError(f"{how} {target!r}, a rule of page {anchor.page!r}, but "
                                    f"this file adds to page {rule.page!r}", file=rule.file,
                                    line=rule.line)
            rule.layer = anchor.layer
            offset = {"replaces": 0.0, "before": -0.5, "after": 0.5}[how]
            rule.position = anchor.position + offset + rule.position * 1e-9
            if how == "replaces":
                self.remove(target)
        if rule.id in self.by_id:
            first = self.by_id[rule.id]
            raise RuleFileError(f"rule id {rule.id!r} is already defined at {first.where}",
                                file=rule.file, line=rule.line,
                                hint="use `replaces:` to override it, or `disable:` to drop it")
        self.by_id[rule.id] = rule
        data = document.data
        page = self.pack.pages.setdefault(rule.page, Page(
            name=rule.page, title=data.get("title", rule.page), source=data.get("source", ""),
            kind=data.get("kind", DECISION)))
        if page.kind != rule.kind:
            raise RuleFileError(f"procedure {rule.page!r} is a {page.kind} page, but this file "
                                f"says kind: {rule.kind}", file=rule.file, line=rule.line)
        page.rules.append(rule)
        if rule.file not in page.files:
            page.files.append(rule.file)

    def remove(self, rule_id: str) -> Rule:
        rule = self.by_id.pop(rule_id)
        self.pack.pages[rule.page].rules.remove(rule)
        return rule

    def disable(self, document: Document) -> None:
        for index, item in enumerate(document.data.get("disable", [])):
            if item["id"] not in self.by_id:
                raise fail(document, ("disable", index), f"disables unknown rule "
                                                         f"{item['id']!r}") from None
            self.remove(item["id"])
            self.pack.disabled[item["id"]] = f"{item['reason']} ({document.file})"

    def page_settings(self, document: Document) -> bool:
        """`repeat_while` and `after_action`: how a page spends several actions (False: the
        page has no rule yet — its file's rules wait for an anchor)."""
        data = document.data
        page = self.pack.pages.get(data["procedure"])
        if page is None:
            return False
        if "repeat_while" in data:
            page.repeat_while = condition(data["repeat_while"], document, ("repeat_while",),
                                           self.pack.kinds)
            page.repeat_text = f"while {data['repeat_while']}"
        if "after_action" in data:
            try:
                page.after_action = parse_outcome(data["after_action"], self.pack.kinds)
            except OutcomeError as exc:
                raise fail(document, ("after_action", *exc.path), str(exc)) from None
        return True


def place_waiting(overlay_state: Overlay, waiting: list[tuple[Placed, Document]],
                   unsettled: list[Document]) -> None:
    """Rules anchored (`before`/`after`/`replaces`) to a rule of a file read later — a module's
    file placing a line among a base page's, whose folder sorts after it — are placed once every
    file is read, in file order (an anchor may name another waiting rule); an anchor still
    unknown then is reported as such. A file whose page had no rule yet gets its page settings
    then."""
    while waiting:
        ready = [w for w in waiting if w[0].anchor and w[0].anchor[1] in overlay_state.by_id]
        for item, document in ready or waiting[:1]:  # none ready: the first one fails
            overlay_state.place(item, document)
        placed = {id(w[0]) for w in (ready or waiting[:1])}
        waiting = [w for w in waiting if id(w[0]) not in placed]
    for document in unsettled:
        overlay_state.page_settings(document)
