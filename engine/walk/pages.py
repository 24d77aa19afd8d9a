"""Reading a page in durable_rules: post one evaluate event, take the rule that consumes it.

One state per decision and ruleset (a shipped pack has one ruleset for all its pages). The
entities are asserted into it once, and brought up to date only where an outcome changed them.
The board is not a fact at all: each evaluate event carries the values its band reads, so a
changed counter costs nothing. The highest-priority applicable rule of the band consumes the
event; if none applies, the band's end rule does, and the next band of the page is tried.
"""

from __future__ import annotations

from typing import Any

from .. import budget
from ..budget import Grouped, grouped
from ..compile.durable_core import State
from ..compile.rulesets import END, Compiled
from ..derive.asserted import EntityFacts, carrier_fact
from ..derive.entities import EntityStore
from ..errors import EngineFault
from ..evaluator.evaluate import World
from ..language.pack import Rule

Bound = dict[str, dict[str, Any]]


class DurablePages:
    """The pack's pages compiled onto durable_rules."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled
        # what each band's rules cost the budget, by the kinds they read (band number →)
        self.by_kinds = {band.number: grouped(band.costs)
                         for bands in compiled.bands.values() for band in bands}

    def open(self, store: EntityStore) -> PageSession:
        return PageSession(self.compiled, store, self.by_kinds)


class PageSession:
    """The states of one decision, opened as the walk first reaches each ruleset."""

    def __init__(self, compiled: Compiled, store: EntityStore,
                 by_kinds: dict[int, Grouped]) -> None:
        self.compiled = compiled
        self.store = store
        self.by_kinds = by_kinds
        self.states: dict[int, State] = {}
        self.synced: dict[int, int] = {}
        self.entities: dict[int, EntityFacts] = {}

    def first(self, page: str, start: int, world: World) -> tuple[Rule | None, Bound]:
        """The highest rule of `page`, from rank `start`, that applies; the entities it matched
        (by the condition's aliases)."""
        counts = {kind: len(items) for kind, items in self.store.by_kind.items()}
        for band in self.compiled.bands.get(page, []):
            if band.last < start:
                continue
            budget.current().charge(band.costs, counts, f"page {page}",
                                    self.by_kinds[band.number])
            state = self._state(band.ruleset)
            event = carrier_fact("evaluate", band, world.board, world)
            event["from"] = start
            fired = state.post(event)
            if fired is None:
                raise EngineFault(f"no rule, not even the band's end, took the event on {page}")
            name, matched = fired
            if name.startswith(END):
                continue
            unit = self.compiled.units[name]
            return unit.rule, {unit.aliases[alias]: self.store.entity(fact["eid"])
                               for alias, fact in matched.items() if alias in unit.aliases}
        return None, {}

    def _state(self, index: int) -> State:
        state = self.states.get(index)
        if state is None:
            state = self.states[index] = self.compiled.rulesets[index].state()
            facts = self.entities[index] = EntityFacts(self.compiled, index)
            renew: list[dict[str, Any]] = []
            facts.update(facts.everything(self.store.by_kind), [], renew)
            state.assert_facts(renew)
        elif self.synced[index] < self.store.generation:
            retract: list[dict[str, Any]] = []
            renew = []
            self.entities[index].update(self.store.since(self.synced[index]), retract, renew)
            state.retract_facts([fact["id"] for fact in retract])
            state.assert_facts(renew)
        self.synced[index] = self.store.generation
        return state

    def close(self) -> None:
        states, self.states = self.states, {}
        for state in states.values():
            state.close()
