"""Forward chaining in durable_rules: judgments derived from observations, stratum by stratum.

Each derivation ruleset gets one state per run. Entities are asserted once; each stratum's
bands get their `phase` fact (the observations they read, and the values hoisted for them);
then every activation fires, its conclusions are asserted back (a judgment fact, an entity
re-asserted with its new field, a created entity) and chaining goes on until nothing fires.
The stratum's defaults are asserted, its phase facts retracted, and the next stratum begins.
"""

from __future__ import annotations

from typing import Any

from .compiled import Band, Compiled
from .compiler import normal_number
from .derivation import (
    EID,
    GIVEN,
    Change,
    Derivation,
    copy_entities,
    entity_support,
    firing_order,
)
from .evaluate import World, evaluate
from .model import Pack
from .network import State
from .strata import Strata


def entity_fact(kind: str, entity: dict[str, Any], version: int) -> dict[str, Any]:
    """An entity as a durable_rules fact; absent fields are left out (tests on them fail)."""
    fact = {name: value for name, value in entity.items()
            if value is not None and name[0] != "#"}
    fact.update(t="e", kind=kind, eid=entity[EID], id=f"x{entity[EID]}.{version}")
    return fact


def carrier_fact(carrier: str, band: Band, board: dict[str, Any], world: World,
                 ) -> dict[str, Any]:
    """The event or phase fact of a band: the board values it reads, and its hoisted values."""
    fact: dict[str, Any] = {"t": carrier, "band": band.number}
    for name, flat in band.keys:
        value = board.get(name)
        if value is not None:
            fact[flat] = value
    for name, node in band.hoisted.items():
        value = evaluate(node, world)
        if value is not None:
            fact[name] = normal_number(value)
    return fact


class _Facts:
    """The facts one run has asserted in each state, so changes replace them exactly."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled
        self.states: list[State] = [r.state() for r in compiled.rulesets]
        self.entities: list[dict[int, dict[str, Any]]] = [{} for _ in self.states]
        self.versions: dict[int, int] = {}

    def assert_entities(self, by_kind: dict[str, list[dict[str, Any]]]) -> None:
        for index, state in enumerate(self.states):
            facts = [entity_fact(kind, e, 0) for kind in sorted(self.compiled.kinds[index])
                     for e in by_kind.get(kind, [])]
            state.assert_facts(facts)
            self.entities[index].update({f["eid"]: f for f in facts})

    def tell(self, changes: list[Change]) -> None:
        judgments: list[list[dict[str, Any]]] = [[] for _ in self.states]
        retract: list[list[dict[str, Any]]] = [[] for _ in self.states]
        renewed: list[list[dict[str, Any]]] = [[] for _ in self.states]
        for change in changes:
            for index in range(len(self.states)):
                if change.what == "judgment":
                    if change.name in self.compiled.judgments[index] and \
                            change.value is not None:
                        judgments[index].append({"t": "j", "n": change.name,
                                                 "v": normal_number(change.value)})
                    continue
                entity = change.entity
                assert entity is not None
                kind = change.name if change.what == "created" else None
                old = self.entities[index].get(entity[EID])
                kind = kind or (old["kind"] if old else None)
                if kind is None or kind not in self.compiled.kinds[index]:
                    continue
                if old is not None and (kind, change.name) not in self.compiled.fields_read:
                    continue  # no derivation reads this field: the fact may stay as it is
                version = self.versions[entity[EID]] = self.versions.get(entity[EID], 0) + 1
                fact = entity_fact(kind, entity, version)
                if old is not None:
                    retract[index].append(old)
                renewed[index].append(fact)
                self.entities[index][entity[EID]] = fact
        for index, state in enumerate(self.states):
            state.retract_facts(retract[index])
            state.assert_facts(judgments[index] + renewed[index])

    def close(self) -> None:
        for state in self.states:
            state.close()


class DurableDeriver:
    """Derivations compiled onto durable_rules."""

    def __init__(self, pack: Pack, strata: Strata, compiled: Compiled) -> None:
        self.pack = pack
        self.strata = strata
        self.compiled = compiled

    def derive(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               answers: dict[str, Any]) -> Derivation:
        run = Derivation(self.pack, self.strata, dict(board), copy_entities(entities),
                         dict(answers))
        self.compiled.check_joins({k: len(v) for k, v in run.entities.items()})
        facts = _Facts(self.compiled)
        try:
            facts.assert_entities(run.entities)
            facts.tell(run.initial() + [Change("judgment", n, v) for n, v in answers.items()
                                        if ("judgment", n) in self.strata.producers])
            for stratum in range(self.strata.top + 1):
                self._stratum(stratum, run, facts)
        finally:
            facts.close()
        return run

    def _stratum(self, stratum: int, run: Derivation, facts: _Facts) -> None:
        bands = self.compiled.bands.get(str(stratum), [])
        world = run.world()
        phases: list[tuple[int, dict[str, Any]]] = []
        for band in bands:
            fact = carrier_fact("phase", band, world.board, world)
            facts.states[band.ruleset].assert_facts([fact])
            phases.append((band.ruleset, fact))
        while True:
            firings = []
            for state in facts.states:
                for name, matched in state.drain():
                    unit = self.compiled.units.get(name)
                    if unit is None:
                        continue  # a band's end rule: nothing applied there
                    bound = {unit.aliases[alias]: run.by_eid[fact["eid"]][1]
                             for alias, fact in matched.items() if alias in unit.aliases}
                    firings.append((unit, bound, matched))
            changes: list[Change] = []
            for unit, bound, matched in sorted(firings, key=lambda f: firing_order(
                    f[0].rank, f[1])):  # one canonical order: rules, then entities
                shown = [entity_support(entity, self.pack, run.by_eid[entity[EID]][0])
                         for entity in bound.values()]
                shown += [{"judgment": j, "value": matched[a].get("v")}
                          for a, j in unit.judgments.items() if a in matched]
                changes += run.conclude(unit.rule, bound, shown)
            if not changes:
                break
            facts.tell(changes)
        facts.tell(run.finish(stratum))
        for index, fact in phases:
            facts.states[index].retract_facts([fact])


__all__ = ["GIVEN", "DurableDeriver", "carrier_fact", "entity_fact"]
