"""Which pages a decision can reach, and how: from the start page along every `call`, `goto`
and `each` a rule (or a page's `after_action`) can take, templates spelled out
(`language/page_links.py`).

A page read inside a `call` or an `each` has a stated fallback: when nothing on it applies,
the rule that called it reads on (a `goto` from a called page stays inside the call). A page
the decision reaches from the start page by `goto` alone (`reached(..., only="goto")`) has
none: nothing applying there ends the decision with nothing done, so a situation where it
happens is a gap. A situation that arrives by a plain `goto` (a rule that changes nothing
first) meets that rule's condition, and one that arrives by an `each` meets its filter: the gap
search looks only there (`arriving`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..compile.rulesets import rule_condition
from ..evaluator.evaluate import World, holds
from ..language import page_links as page_links
from ..language.expressions import Condition
from ..language.outcomes import Each
from ..language.pack import DECISION, Pack


def edges(pack: Pack) -> dict[str, set[tuple[str, str]]]:
    """page → {(how, page)} for every link a rule or `after_action` of the page can take."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for rule, how, target in page_links.links(pack):
        found[rule.page].add((how, target))
    names = [p.name for p in pack.pages.values() if p.kind == DECISION]
    known = page_links.known_values(pack)
    for page in pack.pages.values():
        if page.after_action is not None:
            for how, template in page.after_action.page_links():
                for target in page_links.targets(template.text, names, known):
                    found[page.name].add((how, target))
    return found


def decision_points(pack: Pack) -> list[str]:
    """The pages a decision starts on: those the start page sends it to when it only sends
    (a turn, a setup, a chapter: each rule a plain `goto`), else the start page."""
    start = pack.pages.get(pack.start)
    rules = start.rules if start is not None else []
    if rules and all(r.then.goto is not None and not r.then.effects and r.then.action is None
                     and r.then.call is None for r in rules):
        return sorted({t for _, t in edges(pack).get(pack.start, ())} - {pack.start})
    return [pack.start]


def reached(pack: Pack, start: str | None = None, only: str | None = None) -> set[str]:
    """The pages a decision can reach from `start` (the start page), following every link or
    `only` links of one kind (`goto`: the pages reached with no call around them)."""
    graph = edges(pack)
    first = start or pack.start
    found, todo = {first}, [first]
    while todo:
        for how, target in graph.get(todo.pop(), ()):
            if (only is None or how == only) and target not in found:
                found.add(target)
                todo.append(target)
    return found


def reaching(pack: Pack, page: str) -> list[str]:
    """The decision points from which a decision can reach `page`."""
    return [point for point in decision_points(pack) if page in reached(pack, point)]


@dataclass(frozen=True)
class Arrival:
    """What holds as a decision comes to a page: a plain `goto`'s condition, or an `each`'s
    filter on the entity it binds (`scope`: the filter's alias, `alias`: the board prefix
    the page reads the entity's fields under)."""

    condition: Condition
    scope: str | None = None
    alias: str | None = None

    def holds(self, world: World) -> bool:
        if self.scope is None or self.alias is None:
            return holds(self.condition, world)
        head = f"{self.alias}."
        entity = {k[len(head):]: v for k, v in world.board.items() if k.startswith(head)}
        return holds(self.condition, world, {self.scope: entity})


def arriving(pack: Pack, page: str) -> list[Arrival] | None:
    """One of these holds whenever a decision comes to `page`: the conditions of the rules
    that `goto` it and change nothing first, the filters of the `each` that read it. None
    when some way in says nothing about the situation (the start page, a `call`, a `goto`
    after effects, an `each` with no filter)."""
    if page == pack.start:
        return None
    found: list[Arrival] = []
    for rule, how, target in page_links.links(pack):
        if target != page:
            continue
        if how == "each":
            loops = [e for e in rule.then.effects if isinstance(e, Each)
                     and page in page_links.targets(e.page.text, [page],
                                                    page_links.known_values(pack))]
            if not loops or any(e.where is None for e in loops):
                return None
            found += [Arrival(e.where, e.scope, e.alias) for e in loops if e.where is not None]
        elif how != "goto" or rule.then.effects or rule.then.call is not None:
            return None
        else:
            found.append(Arrival(rule_condition(rule)))
    return found or None
