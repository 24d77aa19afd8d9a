"""Forward chaining in durable_rules: judgments derived from observations, stratum by stratum.

Each derivation ruleset gets one state per run. Everything a round changes is told in one
retraction and one assertion per state: first the entities, the judgments given or defaulted,
and the `phase` facts of stratum 0's bands (the observations they read, and the values hoisted
for them); then every activation fires, its conclusions are told back (a judgment fact, an
entity fact renewed with its new field, a created entity) and chaining goes on until nothing
fires. An entity field that no rule of the stratum tests is told at the stratum's end, with the
defaults of what became final, the old phase facts retracted and the next stratum's asserted:
renewing a fact would only make the stratum's rules fire again on it, concluding nothing new.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from .. import budget
from ..compile.codes import normal_number
from ..compile.rulesets import Compiled
from ..language.pack import Pack
from .asserted import EntityFacts, carrier_fact
from .derivation import EID, GIVEN, Change, Derivation, copy_entities, firing_order
from .fast.incremental import Firing, Replay, conclude_round
from .strata import Strata


class _Facts:
    """What one run tells each of its states, gathered until the next `flush`."""

    def __init__(self, compiled: Compiled, run: Derivation) -> None:
        self.compiled = compiled
        self.run = run
        self.states = [r.state() for r in compiled.rulesets]
        self.entities = [EntityFacts(compiled, index) for index in range(len(self.states))]
        self.asserting: list[list[dict[str, Any]]] = [[] for _ in self.states]
        self.retracting: list[list[dict[str, Any]]] = [[] for _ in self.states]
        self.phasing: list[list[dict[str, Any]]] = [[] for _ in self.states]  # told last
        self.phases: list[tuple[int, dict[str, Any]]] = []
        self.due: dict[int, None] = dict.fromkeys(e[EID] for items in run.entities.values()
                                                  for e in items)  # entities to tell now
        self.later: dict[int, None] = {}  # entities to tell at the stratum's end

    def tell(self, changes: list[Change], tested: set[tuple[str, str]]) -> None:
        """Judgments at once; an entity now if a field this stratum tests changed (or it was
        created), else at the stratum's end."""
        for change in changes:
            if change.what == "judgment":
                readers = self.compiled.readers(change.name)
                if readers and change.value is not None:
                    value = normal_number(change.value)
                    for index in readers:
                        self.asserting[index].append({"t": "j", "n": change.name, "v": value})
                continue
            assert change.entity is not None
            eid = change.entity[EID]
            kind = self.run.by_eid[eid][0]
            if change.what == "created" or (kind, change.name) in tested:
                self.due[eid] = None
            elif (kind, change.name) in self.compiled.fields_read:
                self.later[eid] = None

    def phase(self, stratum: int) -> None:
        """Retract the phase facts of the stratum that ended; assert those of `stratum`."""
        for index, fact in self.phases:
            self.retracting[index].append(fact)
        self.due.update(self.later)
        self.later = {}
        for entities in self.entities:
            entities.fields = self.compiled.fields_from(stratum)
        world = self.run.world()
        self.phases = [(band.ruleset, carrier_fact("phase", band, world.board, world))
                       for band in self.compiled.bands.get(str(stratum), [])]
        for index, fact in self.phases:
            self.phasing[index].append(fact)  # unread: no firing's reader looks at them

    def flush(self) -> None:
        by_eid = self.run.by_eid
        changed = [(eid, *by_eid[eid]) for eid in self.due]
        self.due = {}
        for index, state in enumerate(self.states):  # ~70 flushes a decision, most tell little
            retract, asserting, phasing = (self.retracting[index], self.asserting[index],
                                           self.phasing[index])
            renew: list[dict[str, Any]] = []
            if changed:
                self.entities[index].update(changed, retract, renew)
            if retract:
                state.retract_facts([fact["id"] for fact in retract])
                self.retracting[index] = []
            if renew or asserting or phasing:
                state.assert_facts(renew + asserting, phasing)
                self.asserting[index], self.phasing[index] = [], []

    def close(self) -> None:
        for state in self.states:
            state.close()


class DurableDeriver:
    """Derivations compiled onto durable_rules."""

    def __init__(self, pack: Pack, strata: Strata, compiled: Compiled,
                 partial: Callable[[frozenset[str]], Compiled | None] | None = None) -> None:
        self.pack = pack
        self.strata = strata
        self.compiled = compiled
        self.partial = partial  # the rulesets of only some derivations (a rederive's)

    def derive(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               answers: dict[str, Any], replay: Replay | None = None,
               record: bool = True, only: frozenset[str] | None = None) -> Derivation:
        """With `only`, those derivations alone: another rule's firing is passed by (a
        ruleset of their own matched hardly faster, and compiling one costs ~0.1 s)."""
        run = Derivation(self.pack, self.strata, dict(board), copy_entities(entities),
                         dict(answers), log={}, record=record, only=only)
        compiled = self.compiled
        if replay is not None and self.partial is not None:
            compiled = self.partial(replay.affected) or compiled
        if compiled is self.compiled:
            replay = None
        facts = _Facts(compiled, run)
        try:
            read = compiled.judgments_read()
            told = compiled.defaults_told(itertools.chain.from_iterable(
                self.strata.field_defaults.values()))
            facts.tell(run.initial(read) + [Change("judgment", n, v) for n, v in answers.items()
                                            if ("judgment", n) in self.strata.producers], set())
            for stratum in range(self.strata.top + 1):
                costs, by_kinds = compiled.costs_of(str(stratum))
                budget.current().charge(costs, {kind: len(items) for kind, items
                                                in run.entities.items()},
                                        f"derivations of stratum {stratum}", by_kinds)
                facts.phase(stratum)
                facts.flush()
                self._stratum(stratum, run, facts, replay, only)
                facts.tell(run.finish(stratum, told, read), set())
        finally:
            facts.close()
        return run

    def _stratum(self, stratum: int, run: Derivation, facts: _Facts,
                 replay: Replay | None, only: frozenset[str] | None) -> None:
        """Fire every activation (and replay the last run's firings of the derivations not
        asked), conclude in one canonical order, tell; until nothing changes."""
        tested = facts.compiled.group_fields.get(str(stratum), set())
        record = run.record
        for round_ in itertools.count():
            firings = []
            passed = 0  # firings of derivations not asked for (`only`): counted, not concluded
            for state in facts.states:
                if not state.pending:  # told nothing since drained: a retraction fires none
                    continue
                for name, matched in state.firings():
                    unit = facts.compiled.units.get(name)
                    if unit is None:
                        continue  # a band's end rule: nothing applied there
                    if only is not None and unit.rule.id not in only:
                        passed += 1
                        continue
                    bound = {unit.aliases[alias]: run.by_eid[fact["eid"]][1]
                             for alias, fact in matched.items() if alias in unit.aliases}
                    facts_shown = [{"judgment": j, "value": matched[a].get("v")}
                                   for a, j in unit.judgments.items() if a in matched] \
                        if record else []
                    firings.append(Firing(firing_order(unit.rank, bound), unit.rule, bound,
                                          facts_shown))
            if round_:  # matched again after an entity it read changed: beyond the charge
                budget.current().spend(len(firings) + passed,
                                       f"derivations of stratum {stratum}")
            if replay is not None:
                firings += replay.firings(stratum, round_, run.by_eid)
            changes = conclude_round(run, stratum, round_, firings, replay)
            if not changes:
                return
            facts.tell(changes, tested)
            facts.flush()


__all__ = ["GIVEN", "DurableDeriver"]
