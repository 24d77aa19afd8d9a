"""The plain-Python reference: the same decisions as durable_rules, read by the evaluator.

It is the engine's second reasoner, behind the same seam (`Engine(pack, reasoner="plain")`):
derivations run to a fixpoint stratum by stratum with `every_binding`, and on a page the first
rule in order whose condition holds is taken. Everything else — the walk, outcomes, dice, the
trace — is shared. The benchmark times both; the agreement tests check they decide alike,
which is the evidence that the explainer (built on the same evaluator) tells the truth.
"""

from __future__ import annotations

import itertools
from typing import Any, cast

from ..compile.rulesets import rule_condition
from ..evaluator.evaluate import World, every_binding, holds
from ..language.pack import Pack, Rule
from .derivation import Derivation, copy_entities, firing_order
from .entities import EntityStore
from .fast.incremental import Firing, Replay, conclude_round
from .strata import Strata


class PlainDeriver:
    def __init__(self, pack: Pack, strata: Strata) -> None:
        self.pack = pack
        self.strata = strata
        self.rules = pack.derivations()
        self.rank = {rule.id: index for index, rule in enumerate(self.rules)}

    def derive(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               answers: dict[str, Any], replay: Replay | None = None,
               record: bool = True, only: frozenset[str] | None = None) -> Derivation:
        """With `replay`, only the affected derivations are matched; the last run's firings
        of the others are concluded in their rounds (incremental.py). With `only`, no
        derivation outside it is matched."""
        run = Derivation(self.pack, self.strata, dict(board), copy_entities(entities),
                         dict(answers), log={}, record=record, only=only)
        run.initial()
        for stratum in range(self.strata.top + 1):
            rules = [r for r in self.rules if self.strata.level[r.id] == stratum
                     and (replay is None or r.id in replay.affected)
                     and (only is None or r.id in only)]
            for round_ in itertools.count():  # every firing the world allows now, concluded
                world = run.world()  # the run's own entities: dicts, which a firing changes
                firings = [Firing(firing_order(self.rank[rule.id], bound), rule,
                                  cast(dict[str, dict[str, Any]], dict(bound)), [])
                           for rule in rules for bound in every_binding(rule.when, world)]
                if replay is not None:
                    firings += replay.firings(stratum, round_, run.by_eid)
                if not conclude_round(run, stratum, round_, firings, replay):
                    break
            run.finish(stratum)
        return run


class PlainPages:
    def __init__(self, pack: Pack) -> None:
        self.ordered = {p.name: p.ordered() for p in pack.decision_pages()}

    def open(self, store: EntityStore) -> PlainSession:
        return PlainSession(self.ordered)


class PlainSession:
    def __init__(self, ordered: dict[str, list[Rule]]) -> None:
        self.ordered = ordered

    def first(self, page: str, start: int, world: World) -> tuple[Rule | None, dict]:
        for rule in self.ordered.get(page, [])[start - 1:]:
            condition = rule_condition(rule)
            if holds(condition, world):
                return rule, dict(next(every_binding(condition, world), {}))
        return None, {}

    def close(self) -> None:
        return None
