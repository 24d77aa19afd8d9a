"""Walking the pages of a decision: which rule applies on each page, and what follows.

The reasoner (durable_rules, or the plain reference) names the first applicable rule of a page;
the walk applies its outcome (`applying.py`: effects in the order written, the action, then
where to read on) and asks the evaluator why each rule above it did not apply. A step budget
stops any loop of `goto`/`call`/`each` that the load-time checks could not see.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import TYPE_CHECKING, Any

from .. import budget
from ..derive.derivation import EID
from ..derive.entities import EntityStore
from ..derive.fast.reuse import LastDerivation
from ..errors import DecisionError
from ..evaluator.evaluate import World, failures, holds
from ..language.pack import DECISION, Rule
from ..limits import current as limits
from ..situation import Situation
from ..trace import Step, Trace, WhyNot
from .applying import apply_rule
from .dice import Dice
from .judgments import Knowing
from .passed_over import EMPTY_BOUND, Stretch

if TYPE_CHECKING:
    from ..decide import Engine
    from ..derive.derivation import Derivation
    from .facts_read import Reading


class Turn(Knowing):
    """Everything one decision knows while its pages are walked."""

    def __init__(self, engine: Engine, situation: Situation, seed: int | None,
                 explain: bool, dice: Dice | None = None, reading: Reading | None = None,
                 record: bool = True, only: frozenset[str] | None = None) -> None:
        self.engine = engine
        self.only = only  # the derivations to run (`derive/walk_subset.py`), None: all
        self.pages: set[str] = set()  # every page the walk was led to
        self.record = record  # False: no facts in supports, no `because` (Engine.decide)
        self.reading = reading  # notes what each step reads (engine/walk/facts_read.py), if given
        self.pack = engine.pack
        self.situation = situation
        self.explain = explain
        self.trace = Trace(snapshot=situation.name, pack=self.pack.name,
                           variant=situation.variant)
        self.dice = dice if dice is not None else Dice(seed, list(situation.dice))
        if reading is not None:
            self.dice.on_roll = lambda: reading.rolled(len(self.trace.steps) - 1)
        self.board: dict[str, Any] = engine.inputs(situation)
        self.store = EntityStore({})
        self.bound: dict[str, dict[str, Any]] = {}
        self.steps = 0
        self.rule_says = ""
        self.choosing: frozenset[str] | None = None  # a page read only to make these choices
        # each entity as first seen, each derived field as first derived, with its rules
        self.first_seen: dict[int, tuple[str, dict[str, Any]]] = {}
        self.first_support: dict[tuple[int, str], list[dict[str, Any]]] = {}
        self.first_run: Derivation | None = None
        self.noted_values: dict[str, Any] = {}
        self.judgment_notes: dict[str, list[dict[str, Any]]] = {}
        self.last_derivation = LastDerivation(engine.reads.derived_from, engine.dependencies)
        self._derive(situation.entities)
        self.session = engine.pages.open(self.store)

    # --- what conditions see ---------------------------------------------------------------

    def world(self) -> World:
        return World(self.board, self.store.by_kind, budget.current())

    def bind(self, alias: str, entity: dict[str, Any]) -> None:
        self.bound[alias] = entity
        self.board[alias] = True
        keys, shown = _bound_keys(alias, tuple(entity))
        self.board.update(zip(keys, compress(entity.values(), shown), strict=True))

    def refresh(self, entity: dict[str, Any]) -> None:
        """An entity changed: every alias bound to it shows its new fields."""
        for alias, bound in list(self.bound.items()):
            if bound[EID] != entity[EID]:
                continue
            if self.board.get(alias) is True:  # bound by each/select/target: on the board
                self.bind(alias, entity)
            else:  # a condition's alias, for this rule's effects only
                self.bound[alias] = entity

    def unbind(self, alias: str) -> None:
        entity = self.bound.pop(alias, None)
        self.board[alias] = False
        for name in entity or {}:
            self.board.pop(f"{alias}.{name}", None)

    def write_back(self, alias: str, entity: dict[str, Any]) -> None:
        """A page read for one entity may `set: {current.units: ...}`: keep that on it."""
        names = tuple(entity)
        keys, shown = _bound_keys(alias, names)
        for name, key in zip(compress(names, shown), keys, strict=True):
            if key in self.board:
                self.store.set(entity, name, self.board[key])

    def shown(self, entity: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in entity.items() if not k.startswith("#")}

    def label(self, entity: dict[str, Any], kind: str | None = None) -> str:
        return self.pack.entity_label(kind or self.store.kind_of.get(entity[EID], ""), entity)

    # --- the walk --------------------------------------------------------------------------

    def tick(self, page: str) -> None:
        self.steps += 1
        if self.steps > limits().steps:
            raise DecisionError(f"the procedure did not finish in {limits().steps} steps (last "
                                f"page {page!r}): a goto/call/each loop?",
                                hint="the limit steps")

    def walk(self, name: str, depth: int, start: int = 1) -> str:
        """Read page `name` from rank `start`; "stop" when the turn ended there."""
        self.pages.add(name)
        page = self.pack.pages.get(name)
        if page is None or page.kind != DECISION:
            raise DecisionError(f"the procedure leads to page {name!r}, which does not exist")
        ordered = self.engine.ordered[name]
        while start <= len(ordered):
            self.tick(name)
            world = self.world()
            rule, bound = self.session.first(name, start, world)
            rank = self.engine.rank[rule.id] if rule else len(ordered) + 1
            step = Step(page=name, title=page.title, depth=depth)
            self.trace.steps.append(step)
            self._explain(step, self.engine.passed_over.stretch(name, start, rank), rule,
                          bound, world)
            if rule is None:
                step.notes.append("no rule on this page applies" if start == 1 else
                                  "no further rule on this page applies")
                return "end"
            result = apply_rule(self, rule, bound, step, depth)
            if result == "again":
                start = 1
                continue
            if result != "continue":
                return result
            start = rank + 1
        return "end"

    def _explain(self, step: Step, passed: Stretch, rule: Rule | None,
                 bound: dict[str, Any], world: World) -> None:
        """Why each rule above the fired one did not apply — and a check that the evaluator
        agrees with the rule engine on all of them (the why-not text only when explaining)."""
        conditions, reads = self.engine.conditions, self.engine.reads.rules
        if self.reading is not None:
            considered = [*passed.rules, *([rule] if rule is not None else [])]
            self.reading.considered(len(self.trace.steps) - 1,
                                    [(r, conditions[r.id]) for r in considered], world)
        if self.explain:
            for earlier in passed.rules:
                why = failures(conditions[earlier.id], world)
                if why == []:
                    self._disagree(earlier)
                step.skipped.append(WhyNot(earlier.id, earlier.says, why,
                                           list(reads[earlier.id].names)))
        else:
            for earlier in compress(passed.rules, [test(world, EMPTY_BOUND)
                                                   for test in passed.tests]):
                self._disagree(earlier)
            step.skipped.extend(passed.entries)
        if rule is None:
            return
        if not holds(conditions[rule.id], world):
            self.trace.disagreements.append(
                f"{rule.id}: the rule engine fired it, the evaluator finds it does not apply")
        step.rule, step.says, step.cite, step.layer = rule.id, rule.says, rule.cite, \
            rule.layer_name
        step.matched = {n: self.board.get(n) for n in reads[rule.id].names}
        entities = [self.shown(e) | {"kind": self.store.kind_of.get(e[EID])}
                    for alias, e in bound.items() if not alias.startswith(("select_",
                                                                           "target_"))]
        if entities:
            step.matched["entities"] = entities

    def _disagree(self, skipped: Rule) -> None:
        self.trace.disagreements.append(
            f"{skipped.id}: the evaluator finds it applies, the rule engine did not fire it")

    def finish(self) -> Trace:
        self.session.close()
        if self.reading is not None:
            self.reading.finished(self)
        self.trace.dice = list(self.dice.rolls)
        self.trace.dice_notes = self.dice.notes()
        passed = [self.engine.passed_over.of(step) for step in self.trace.steps]
        used = {n for step in self.trace.steps for n in step.matched}.union(
            *(stretch.names for stretch in passed))
        reads = self.engine.reads
        read = set().union(*(reads.rules[r].fields for r in self.trace.fired()),
                           *(stretch.fields for stretch in passed),
                           *(reads.judgment_fields.get(n, ()) for n in used))
        behind = reads.fields_behind
        self.trace.entity_judgments = self.entity_judgments(
            read.union(*(behind.get(name, ()) for name in read)), reads.shown_fields)
        self.trace.judgments = self.judged(used)
        return self.trace


@lru_cache(maxsize=1024)
def _bound_keys(alias: str, names: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The board names an entity with these fields is seen under, bound to `alias`, and which
    of its fields they show (not the `#` ones): the same few each decision."""
    shown = tuple(not name.startswith("#") for name in names)
    return tuple(f"{alias}.{name}" for name in compress(names, shown)), shown
