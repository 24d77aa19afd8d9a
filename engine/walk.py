"""Walking the pages of a decision: which rule applies on each page, and what follows.

The reasoner (durable_rules, or the plain reference) names the first applicable rule of a page;
the walk applies its outcome — effects in the order written, the action, then where to read on
— and asks the evaluator why each rule above it did not apply. A step budget stops any loop of
`goto`/`call`/`each` that the load-time checks could not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .derivation import EID, GIVEN
from .dice import Dice
from .effects import apply_effect, fill, plain
from .entities import EntityStore
from .errors import DecisionError
from .evaluate import World, failures, holds
from .expressions import board_names
from .limits import current as limits
from .model import DECISION, Rule
from .outcomes import Assign, Choice
from .reuse import LastDerivation
from .situation import Situation
from .trace import Step, Trace

if TYPE_CHECKING:
    from .decide import Engine
    from .reach import Reading


class Turn:
    """Everything one decision knows while its pages are walked."""

    def __init__(self, engine: Engine, situation: Situation, seed: int | None,
                 explain: bool, dice: Dice | None = None, reading: Reading | None = None,
                 ) -> None:
        self.engine = engine
        self.reading = reading  # notes what each step reads (engine/reach.py), if given
        self.pack = engine.pack
        self.situation = situation
        self.explain = explain
        self.trace = Trace(snapshot=situation.name, pack=self.pack.name,
                           variant=situation.variant)
        self.trace.decision = {"result": "decided", "choices": {}, "actions": [], "say": [],
                               "steps": []}
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
        self.last_derivation = LastDerivation(engine.derivation_reads)
        self._derive(situation.entities)
        self.session = engine.pages.open(self.store)

    # --- derived knowledge -----------------------------------------------------------------

    def _derive(self, entities: dict[str, list[dict[str, Any]]]) -> None:
        inputs = {n: v for n, v in self.board.items() if n not in self.pack.facts.judgments}
        run = self.last_derivation.find(inputs, entities)
        if run is None:
            run = self.engine.derive(inputs, entities, self.situation.answers)
            self.last_derivation.keep(inputs, entities, run)
        self.trace.derived_from = (inputs, entities)
        self.board.update(run.board)
        judgments = run.judgments()
        self.judgments_now = judgments
        self._record(judgments)
        self.trace.conflicts.extend(run.conflicts)
        self.trace.field_support.update(run.field_support)
        self._remember(run.entities, run.field_support)
        self.board.update({name: j.value for name, j in judgments.items()})
        self.store.replace(run.entities)

    def _remember(self, entities: dict[str, list[dict[str, Any]]],
                  support: dict[tuple[int, str], list[dict[str, Any]]]) -> None:
        """Keep what the first action was chosen on: a field's value when a rule first
        derived it (a later derivation, after an action, shows as `now`)."""
        current = {}
        for kind, items in entities.items():
            for entity in items:
                self.first_seen.setdefault(entity[EID], (kind, dict(entity)))
                current[entity[EID]] = entity
        for (eid, name), by in support.items():
            if (eid, name) not in self.first_support and eid in current:
                self.first_support[eid, name] = by
                self.first_seen[eid][1][name] = current[eid].get(name)

    def _record(self, judgments: dict[str, Any]) -> None:
        """The trace keeps each judgment as first derived; a later derivation (after an
        action, a declaration) that changes it adds a note saying from which step on."""
        if not self.trace.judgments:
            self.trace.judgments = judgments
            return
        for name, judgment in judgments.items():
            first = self.trace.judgments.get(name)
            if first is None:
                self.trace.judgments[name] = judgment
                continue
            last = first.by[-1] if first.by and "since" in first.by[-1] else None
            value = last["value"] if last else first.value
            if judgment.value != value:
                first.by.append({"rule": f"from step {len(self.trace.steps)} on",
                                 "note": f"{plain(judgment.value)} ({judgment.origin})",
                                 "since": len(self.trace.steps), "value": judgment.value})

    def rederive(self) -> None:
        """Derive the judgments again from the board and entities as they are now."""
        base = {}
        for kind, spec in self.pack.facts.entities.items():
            if spec.created:
                continue  # rules create these anew
            derived = set(spec.derived_fields())
            base[kind] = [{k: v for k, v in e.items()
                           if k not in derived or k in e.get(GIVEN, ())}
                          for e in self.store.items(kind)]
        self._derive(base)
        by_eid = {e[EID]: e for items in self.store.by_kind.values() for e in items}
        for entity in list(self.bound.values()):
            if entity[EID] in by_eid:
                self.refresh(by_eid[entity[EID]])

    # --- what conditions see ---------------------------------------------------------------

    def world(self) -> World:
        return World(self.board, self.store.by_kind, limit=limits().combinations)

    def bind(self, alias: str, entity: dict[str, Any]) -> None:
        self.bound[alias] = entity
        self.board[alias] = True
        for name, value in entity.items():
            if not name.startswith("#"):
                self.board[f"{alias}.{name}"] = value

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
        for name in list(entity):
            if not name.startswith("#") and f"{alias}.{name}" in self.board:
                self.store.set(entity, name, self.board[f"{alias}.{name}"])

    def shown(self, entity: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in entity.items() if not k.startswith("#")}

    def label(self, entity: dict[str, Any], kind: str | None = None) -> str:
        kind = kind or self.store.kind_of.get(entity[EID], "")
        spec = self.pack.facts.entities.get(kind)
        field = spec.naming_field if spec else None
        name = entity.get(field) if field else None
        return f"{kind} {name}" if name not in (None, "") else f"{kind} #{entity[EID]}"

    # --- the walk --------------------------------------------------------------------------

    def tick(self, page: str) -> None:
        self.steps += 1
        if self.steps > limits().steps:
            raise DecisionError(f"the procedure did not finish in {limits().steps} steps (last "
                                f"page {page!r}): a goto/call/each loop?",
                                hint="the limit steps")

    def walk(self, name: str, depth: int, start: int = 1) -> str:
        """Read page `name` from rank `start`; "stop" when the turn ended there."""
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
            self._explain(step, ordered[start - 1:rank - 1], rule, bound, world)
            if rule is None:
                step.notes.append("no rule on this page applies" if start == 1 else
                                  "no further rule on this page applies")
                return "end"
            result = self._apply(rule, bound, step, depth)
            if result == "again":
                start = 1
                continue
            if result != "continue":
                return result
            start = rank + 1
        return "end"

    def _explain(self, step: Step, skipped: list[Rule], rule: Rule | None,
                 bound: dict[str, Any], world: World) -> None:
        """Why each rule above the fired one did not apply — and a check that the evaluator
        agrees with the rule engine on all of them (the why-not text only when explaining)."""
        conditions, reads = self.engine.conditions, self.engine.reads
        if self.reading is not None:
            considered = [*skipped, *([rule] if rule is not None else [])]
            self.reading.considered(len(self.trace.steps) - 1,
                                    [(r, conditions[r.id]) for r in considered], world)
        for earlier in skipped:
            why = failures(conditions[earlier.id], world) if self.explain else []
            if (why == []) if self.explain else holds(conditions[earlier.id], world):
                self.trace.disagreements.append(
                    f"{earlier.id}: the evaluator finds it applies, the rule engine did not "
                    "fire it")
            step.skipped.append({"rule": earlier.id, "says": earlier.says, "why": why,
                                 "read": reads[earlier.id]})
        if rule is None:
            return
        if not holds(conditions[rule.id], world):
            self.trace.disagreements.append(
                f"{rule.id}: the rule engine fired it, the evaluator finds it does not apply")
        step.rule, step.says, step.cite, step.layer = rule.id, rule.says, rule.cite, \
            rule.layer_name
        step.matched = {n: self.board.get(n) for n in reads[rule.id]}
        entities = [self.shown(e) | {"kind": self.store.kind_of.get(e[EID])}
                    for alias, e in bound.items() if not alias.startswith(("select_",
                                                                           "target_"))]
        if entities:
            step.matched["entities"] = entities

    def _apply(self, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
        """Effects in the order written, then the action, then where the reading goes. What
        a rule targets lasts for its action: its `target` choices are unbound afterwards."""
        if self.choosing is not None:
            return self._choose_only(rule, bound, step, depth)
        try:
            return self._applied(rule, bound, step, depth)
        finally:
            for choice in rule.then.choices:
                if choice.role == "target":
                    self.unbind(choice.alias)

    def _choose_only(self, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
        """A page read only to choose: statements are passed by; the first other rule that
        applies makes the choices (and `set`s of the variables) asked for, nothing else, and
        the page ends there."""
        assert self.choosing is not None
        if rule.then.reads_on:
            step.notes.append("read only to choose: a statement, passed by")
            return "continue"
        outcome: dict[str, Any] = {}
        step.outcome = outcome
        saved = dict(self.bound)
        self.bound.update(bound)
        try:
            for effect in rule.then.effects:
                if (isinstance(effect, Choice) and effect.alias in self.choosing) or (
                        isinstance(effect, Assign) and effect.name in self.choosing):
                    apply_effect(effect, self, outcome, step.page, rule.id, depth)
        finally:
            for alias in bound:
                if alias in saved:
                    self.bound[alias] = saved[alias]
                else:
                    self.bound.pop(alias, None)
        made = [alias for alias in sorted(self.choosing) if alias in self.bound]
        step.notes.append("read only to choose: " + (f"chose {', '.join(made)}" if made else
                                                     "this rule applies but chooses nothing")
                          + "; its action waits until the page is read to act")
        return "end"

    def _applied(self, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
        then = rule.then
        outcome: dict[str, Any] = {}
        step.outcome = outcome
        saved = dict(self.bound)
        self.bound.update(bound)
        self.rule_says = rule.says
        try:
            for effect in then.effects:
                if apply_effect(effect, self, outcome, step.page, rule.id, depth) == "stop":
                    return "stop"
            if then.action is not None:
                self._act(rule, step, outcome)
                after = self.pack.pages[step.page].after_action
                if after is not None:  # what one action of this page uses up
                    spent: dict[str, Any] = {}
                    for effect in after.effects:
                        apply_effect(effect, self, spent, step.page, rule.id, depth)
                    outcome["after_action"] = spent
        finally:
            for alias in bound:
                if alias in saved:
                    self.bound[alias] = saved[alias]
                else:
                    self.bound.pop(alias, None)
        decision = self.trace.decision
        if then.stop is not None:
            decision["result"] = outcome["stop"] = fill(then.stop, self)
            return "stop"
        if then.call is not None:
            target = fill(then.call, self)
            if then.choose:
                outcome["choose"] = list(then.choose)
            if target not in self.pack.pages and then.missing is not None:
                outcome["missing"] = target  # not read: there is no such page
                step.notes.append(fill(then.missing, self))
            else:
                outcome["call"] = target
                if self._called(target, depth + 1, frozenset(then.choose) or None) == "stop":
                    return "stop"
            if then.goto is None and (then.action is None or then.reads_on):
                return "continue"  # an action's page goes on as after any action (below)
        if then.goto is not None:
            target = outcome["goto"] = fill(then.goto, self)
            return self.walk(target, depth)
        if then.reads_on:
            return "continue"
        page = self.pack.pages[step.page]
        if then.action is not None and page.repeat_while is not None and \
                holds(page.repeat_while, self.world()):
            step.notes.append(f"{page.repeat_text}: restart this page from the top")
            return "again"
        return "end"

    def _called(self, page: str, depth: int, choosing: frozenset[str] | None) -> str:
        previous, self.choosing = self.choosing, choosing
        try:
            return self.walk(page, depth)
        finally:
            self.choosing = previous

    def _act(self, rule: Rule, step: Step, outcome: dict[str, Any]) -> None:
        then = rule.then
        assert then.action is not None
        action: dict[str, Any] = {"action": fill(then.action.name, self)}
        for name, text in then.action.texts:
            action[name] = fill(text, self)
        action.update({"rule": rule.id, "page": step.page, "says": rule.says,
                       "cite": rule.cite})
        if then.action.guidance:
            action["prefer"] = list(then.action.guidance)
        if "target" in outcome and outcome["target"]["chosen"] is not None:
            action["target"] = outcome["target"]["chosen"]
        because = self._because(rule)
        if because:
            action["because"] = because
        outcome["action"] = action["action"]
        self.trace.decision["actions"].append(action)
        self.trace.decision["steps"].append({"action": action})

    def _because(self, rule: Rule) -> list[dict[str, Any]]:
        """The entities (the options the player listed, say) behind the judgments it read."""
        found: list[dict[str, Any]] = []
        for name in sorted(board_names(rule.when)):
            judgment = self.judgments_now.get(name)
            if judgment is None or judgment.origin != "derived" or not judgment.value:
                continue
            for support in judgment.by:
                for fact in support.get("facts", []):
                    if "kind" in fact and fact not in found:
                        found.append(fact)
        return sorted(found, key=lambda fact: sorted((k, str(v)) for k, v in fact.items()))

    def entity_judgments(self, fields: set[str], shown: frozenset[str] = frozenset(),
                         ) -> list[dict[str, Any]]:
        """Each entity field among `fields` that a derivation established or the snapshot
        gave, as first derived (what the first action was chosen on), with the rules that
        established it; `now` when an action changed it later. An entity with any of those
        also shows its `shown` fields (derived only to show the arithmetic)."""
        found = []
        for kind, entity in self.first_seen.values():
            items = [self._field(kind, entity, name) for name in sorted(fields)]
            if any(items):
                items += [self._field(kind, entity, name) for name in sorted(shown - fields)]
            found += [item for item in items if item]
        return found

    def _field(self, kind: str, entity: dict[str, Any], name: str) -> dict[str, Any] | None:
        by = self.first_support.get((entity[EID], name), [])
        given = name in entity.get(GIVEN, frozenset())
        if not by and not given:
            return None
        item = {"entity": self.label(entity, kind), "field": name, "value": entity.get(name),
                "origin": "given" if given else "derived",
                "by": [s for s in by if not s.get("overridden")]}
        current = self.store.find(kind, entity[EID]) or {}
        if current.get(name, item["value"]) != item["value"]:
            item["now"] = current[name]
        return item

    def finish(self) -> Trace:
        self.session.close()
        if self.reading is not None:
            self.reading.finished(self)
        self.trace.dice = [r.as_dict() for r in self.dice.rolls]
        self.trace.dice_notes = self.dice.notes()
        used = {n for step in self.trace.steps for n in step.matched}
        used |= {n for step in self.trace.steps for s in step.skipped for n in s.get("read", [])}
        engine = self.engine
        read = set().union(*(engine.fields[r] for r in self.trace.considered()),
                           *(engine.judgment_fields.get(n, ()) for n in used))
        behind = engine.fields_behind
        self.trace.entity_judgments = self.entity_judgments(
            read.union(*(behind.get(name, ()) for name in read)), engine.shown_fields)
        self.trace.judgments = {n: j for n, j in self.trace.judgments.items()
                                if n in used or j.origin == "given"}
        return self.trace
