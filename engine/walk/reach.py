"""The pages a decision's walk can reach, known before it walks: from the start page, every
page a rule's `call`, `goto` or `each` may lead to.

Observations no outcome ever sets (which step of the game, whose turn) are the same when the
walk gets anywhere as the snapshot gives them. So a rule whose condition those make false
leads nowhere (`step == 'setup'` in a bot's turn), and a link's page name made of them is
known (`module.{module}.part{part}`). A name part read from anything else may be any value
its field declares (`event.{target.event}`: one page per event it lists), or anything at all.
The result is never smaller than what the walk visits; the walk checks that (`Turn.pages`),
and a decision that went elsewhere is decided again in full (`Engine.decide`). An observation
the board leaves out may be any value (what a consultation has not asked yet: `can_read.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..evaluator.evaluate import World, holds, value_of
from ..language.expressions import All, Any_, Condition, Not, Ref
from ..language.mentions import assigned, kinds, refs
from ..language.outcomes import Template
from ..language.pack import DECISION, Pack
from .effects import plain

KEEP = 1024
Link = tuple[Condition, Template]  # a page name, and what must hold for the walk to take it


class PageGraph:
    """Each decision page's links, and the observations that stay as the snapshot gave
    them; worked out once per engine."""

    def __init__(self, pack: Pack) -> None:
        self.start = pack.start
        pages = [page for page in pack.pages.values() if page.kind == DECISION]
        self.names = frozenset(page.name for page in pages)
        changed: set[str] = set()
        for page in pages:
            changed |= assigned([page.rules, page.after_action])
        self.fixed = frozenset(set(pack.facts.board) - changed - set(pack.facts.judgments))
        self.values = _declared_values(pack)
        self.known: dict[tuple[str, ...], frozenset[str]] = {}
        self.links: dict[str, list[Link]] = {}
        for page in pages:
            links = self.links[page.name] = []
            for rule in page.rules:
                links += [(rule.when, link) for _, link in rule.then.page_links()]
            if page.after_action is not None:
                links += [(TRUE_ALWAYS, link) for _, link in page.after_action.page_links()]
        # the fixed observations the links read: what the answer depends on
        self.read = sorted({ref.name for links in self.links.values() for link in links
                            for ref in refs(link) if self._fixed(ref)})

    def reachable(self, board: Mapping[str, Any]) -> frozenset[str]:
        """Every page the walk can read, the observations being `board`'s, one it leaves out
        any value (the answer kept for each set of values the links read, at most `KEEP`)."""
        key = tuple(repr(board[name]) if name in board else "?" for name in self.read)
        found = self.known.get(key)
        if found is None:
            found = self._reachable(World(board, {}))
            if len(self.known) < KEEP:
                self.known[key] = found
        return found

    def _reachable(self, world: World) -> frozenset[str]:
        found = {self.start} & self.names
        work = list(found)
        while work:
            for when, link in self.links[work.pop()]:
                if self._known(when, world) is False:
                    continue
                for page in self._targets(link, world):
                    if page not in found:
                        found.add(page)
                        work.append(page)
        return frozenset(found)

    def _known(self, node: Condition, world: World) -> bool | None:
        """Whether a condition holds, if the fixed observations alone decide it."""
        if isinstance(node, Not):
            inner = self._known(node.item, world)
            return None if inner is None else not inner
        if isinstance(node, All | Any_):
            found = [self._known(item, world) for item in node.items]
            decisive = isinstance(node, Any_)  # a true item decides `or`, a false one `and`
            if decisive in found:
                return decisive
            return None if None in found else not decisive
        if not kinds(node) and all(self._given(ref, world) for ref in refs(node)):
            return holds(node, world)
        return None

    def _fixed(self, ref: Ref) -> bool:
        return ref.scope is None and ref.name in self.fixed

    def _given(self, ref: Ref, world: World) -> bool:
        """A fixed observation whose value `world` gives."""
        return self._fixed(ref) and ref.name in world.board

    def in_order(self, pages: frozenset[str]) -> list[str]:
        """`pages` as the links lead from the start page, each page's links in its order
        (a page no link of them leads to last, by name)."""
        found = [self.start] if self.start in pages else []
        anything = World({}, {})  # a template may spell any page of `pages`
        index = 0
        while index < len(found):
            for _, link in self.links[found[index]]:
                found += [page for page in self._targets(link, anything)
                          if page in pages and page not in found]
            index += 1
        return [*found, *sorted(pages - set(found))]

    def _targets(self, link: Template, world: World) -> list[str]:
        if link.static:
            return [link.text] if link.text in self.names else []
        pattern = []
        for part in link.parts:
            if isinstance(part, str):
                pattern.append(re.escape(part))
            elif all(self._given(ref, world) for ref in refs(part)):
                pattern.append(re.escape(plain(value_of(part, world, {}))))
            elif isinstance(part, Ref) and self._name(part) in self.values:
                pattern.append("(?:" + "|".join(re.escape(plain(value)) for value in
                                                self.values[self._name(part)]) + ")")
            else:
                pattern.append(".*")
        compiled = re.compile("".join(pattern), re.DOTALL)
        return [name for name in self.names if compiled.fullmatch(name)]

    @staticmethod
    def _name(ref: Ref) -> str:
        """A field by its own name (`target.colour` -> `colour`), a board value by its name."""
        return "." + ref.name if ref.scope is not None else \
            "." + ref.name.rpartition(".")[2] if "." in ref.name else ref.name


TRUE_ALWAYS: Condition = All(())


def _declared_values(pack: Pack) -> dict[str, list[Any]]:
    """The values a name may take, where every declaration of it lists them (and absent):
    board names by name, entity fields as `.field` across every kind that has one."""
    found: dict[str, list[Any]] = {}
    for name in pack.facts.board_names():
        spec = pack.facts.spec(name)
        if spec is not None and spec.enum:
            found[name] = [*spec.enum, None]
    by_field: dict[str, list[Any] | None] = {}
    for entity in pack.facts.entities.values():
        for name, field in entity.fields.items():
            known = by_field.get("." + name, [])
            by_field["." + name] = None if known is None or not field.enum else \
                [*known, *field.enum, None]
    found.update({name: values for name, values in by_field.items() if values is not None})
    return found
