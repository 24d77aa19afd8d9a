"""Reading a page in durable_rules: post one evaluate event, take the rule that consumes it.

One state per decision and ruleset (a shipped pack has one ruleset for all its pages). The
entities are asserted into it once, and brought up to date only where an outcome changed them.
The board is not a fact at all: each evaluate event carries the values its band reads, so a
changed counter costs nothing. The highest-priority applicable rule of the band consumes the
event; if none applies, the band's end rule does, and the next band of the page is tried.
"""

from __future__ import annotations

from typing import Any

from .compiled import END, Compiled
from .derivation import EID
from .derive import carrier_fact, entity_fact
from .entities import EntityStore
from .errors import EngineFault
from .evaluate import World
from .model import Rule
from .network import State

Bound = dict[str, dict[str, Any]]


class DurablePages:
    """The pack's pages compiled onto durable_rules."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled

    def open(self, store: EntityStore) -> PageSession:
        return PageSession(self.compiled, store)


class PageSession:
    """The states of one decision, opened as the walk first reaches each ruleset."""

    def __init__(self, compiled: Compiled, store: EntityStore) -> None:
        self.compiled = compiled
        self.store = store
        self.states: dict[int, State] = {}
        self.synced: dict[int, int] = {}
        self.asserted: dict[int, dict[int, dict[str, Any]]] = {}
        self.versions: dict[int, int] = {}

    def first(self, page: str, start: int, world: World) -> tuple[Rule | None, Bound]:
        """The highest rule of `page`, from rank `start`, that applies; the entities it matched
        (by the condition's aliases)."""
        for band in self.compiled.bands.get(page, []):
            if band.last < start:
                continue
            state = self._state(band.ruleset)
            event = carrier_fact("evaluate", band, dict(world.board), world)
            event["from"] = start
            fired = state.post(event)
            if fired is None:
                raise EngineFault(f"no rule, not even the band's end, took the event on {page}")
            name, matched = fired
            if name.startswith(END):
                continue
            unit = self.compiled.units[name]
            by_eid = {e[EID]: e for kind in self.compiled.kinds[band.ruleset]
                      for e in self.store.items(kind)}
            return unit.rule, {unit.aliases[alias]: by_eid[fact["eid"]]
                               for alias, fact in matched.items() if alias in unit.aliases}
        return None, {}

    def _state(self, index: int) -> State:
        state = self.states.get(index)
        if state is None:
            self.compiled.check_joins({k: len(v) for k, v in self.store.by_kind.items()})
            state = self.states[index] = self.compiled.rulesets[index].state()
            kinds = self.compiled.kinds[index]
            facts = [entity_fact(kind, entity, 0) for kind in sorted(kinds)
                     for entity in self.store.items(kind)]
            state.assert_facts(facts)
            self.asserted[index] = {f["eid"]: f for f in facts}
            self.synced[index] = self.store.generation
            return state
        if self.synced[index] < self.store.generation:
            self._sync(index, state)
        return state

    def _sync(self, index: int, state: State) -> None:
        """Replace the entities that changed since this state last saw them."""
        kinds = self.compiled.kinds[index]
        asserted = self.asserted[index]
        retract, renew = [], []
        for eid, kind, entity in self.store.since(self.synced[index]):
            if eid in asserted:
                retract.append(asserted.pop(eid))
            if kind in kinds and entity is not None:
                version = self.versions[eid] = self.versions.get(eid, 0) + 1
                fact = entity_fact(kind, entity, version)
                asserted[eid] = fact
                renew.append(fact)
        state.retract_facts(retract)
        state.assert_facts(renew)
        self.synced[index] = self.store.generation

    def close(self) -> None:
        states, self.states = self.states, {}
        for state in states.values():
            state.close()
