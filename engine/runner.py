"""Deciding a situation: derive judgments, then walk the pages as their outcomes direct.

Reasoning happens in durable_rules: derivations forward-chain there, and on each page the
highest-priority applicable rule is the one that consumes the `evaluate` event. This module only
moves between pages, applies outcomes (dice, counters, choices) and writes the trace; the
plain-Python evaluator explains the rules that did not fire and must agree with the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .choices import choose, satisfies
from .compiled import CompiledPack, compile_pack
from .compiler import key
from .conditions import Literal, Ref, Sum, all_refs, board_names, parse_setting
from .dice import Dice
from .errors import DecisionError, EngineFault
from .evaluate import World, failures, holds, value_of
from .host import Session
from .model import Pack, Rule
from .situation import Situation
from .trace import Judgment, Step, Trace

MAX_STEPS = 400
_TEMPLATE = re.compile(r"\{([a-z_][a-z0-9_.]*)\}")


@dataclass
class Derivation:
    """Per-snapshot bookkeeping while derivations run: values, their support, overrides."""

    given: dict[str, Any]
    values: dict[str, Any] = field(default_factory=dict)
    support: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    overridden: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Turn:
    situation: Situation
    state: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    dice: Dice
    trace: Trace
    explain: bool
    steps: int = 0

    @property
    def world(self) -> World:
        return World(self.state, self.entities)


@dataclass
class Computation:
    """What a pack function called by `then.compute` may read and change (and say)."""

    state: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    data: dict[str, Any]
    settings: dict[str, Any]
    dice: Dice
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.notes.append(text)


def settle_judgments(questions: dict[str, str], run: Derivation,
                     judged: set[str]) -> dict[str, Judgment]:
    """Every declared judgment with its value and origin: given, derived, or assumed no."""
    judgments: dict[str, Judgment] = {}
    for name, question in questions.items():
        if name in run.given:
            note = [{"rule": r, "note": "overridden by the answer"}
                    for r in run.overridden.get(name, [])]
            judgments[name] = Judgment(name, question, run.given[name], "given", note)
        elif run.support.get(name):
            judgments[name] = Judgment(name, question, run.values[name], "derived",
                                       run.support[name])
        elif name in judged:
            judgments[name] = Judgment(name, question, False,
                                       "not established by any rule, so no")
        else:
            judgments[name] = Judgment(name, question, False, "unknown, assumed no")
    return judgments


class Engine:
    """A compiled pack, ready to decide any number of situations."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self._runs: dict[str, Derivation] = {}
        self.compiled: CompiledPack = compile_pack(pack, self._on_derivation)
        self._derivation_rules = {
            c.name: c.rule for c in (self.compiled.derivations.rules
                                     if self.compiled.derivations else [])}
        self._ordered = {name: page.ordered() for name, page in pack.procedures.items()}
        self._page_rules = {
            page: {c.name: c.rule for c in ruleset.rules}
            for page, ruleset in self.compiled.pages.items()}

    # --- derivations -------------------------------------------------------------------

    def _on_derivation(self, session: Session, name: str, matched: dict[str, Any],
                       closure: Any) -> None:
        rule = self._derivation_rules.get(name)
        if rule is None:  # the `end` sentinel
            return
        run = self._runs[session.sid]
        judgment = rule.then["judge"]
        value = rule.then.get("value", True)
        support = {"rule": rule.id, "cite": rule.cite,
                   "facts": _matched_facts(matched, rule, self.pack)}
        if judgment in run.given:
            run.overridden.setdefault(judgment, []).append(rule.id)
            return
        if judgment in run.values:
            if run.values[judgment] == value:
                run.support[judgment].append(support)
            return
        run.values[judgment] = value
        run.support[judgment] = [support]
        closure.assert_fact({"t": "j", "n": judgment, "v": value, "by": rule.id,
                             "sid": session.sid, "k": 1})

    def derive(self, situation: Situation) -> dict[str, Judgment]:
        """Forward-chain every judgment to quiescence, stratum by stratum."""
        questions = self.pack.facts.judgments
        run = Derivation(given=dict(situation.answers))
        compiled = self.compiled
        if compiled.derivations is not None:
            session = compiled.derivation_session()
            self._runs[session.sid] = run
            try:
                names = compiled.derivations.board_names
                session.assert_fact({"t": "board", **{key(n): situation.board.get(n)
                                                      for n in names}})
                for kind in sorted(compiled.derivations.kinds):
                    for index, entity in enumerate(situation.entities.get(kind, [])):
                        session.assert_fact({"t": "e", "kind": kind, "#": index, **entity})
                read = compiled.derivations.judgments_read
                for name, value in run.given.items():
                    if name not in read:
                        continue
                    session.assert_fact({"t": "j", "n": name, "v": value, "by": "given"})
                for stratum in range(compiled.top_stratum + 1):
                    session.assert_fact({"t": "phase", "n": stratum})
                    for name in sorted(compiled.read_negatively):
                        level = compiled.judged_at.get(name, 0)
                        if level == stratum and name not in run.values and name not in run.given:
                            run.values[name] = False
                            session.assert_fact({"t": "j", "n": name, "v": False,
                                                 "by": "not established"})
            finally:
                session.close()
                del self._runs[session.sid]
        return settle_judgments(questions, run, set(compiled.judged_at))

    # --- the walk ----------------------------------------------------------------------

    def decide(self, situation: Situation, seed: int | None = None,
               explain: bool = True) -> Trace:
        trace = Trace(snapshot=situation.name, pack=self.pack.name)
        trace.judgments = self.derive(situation)
        state = dict(situation.board)
        for spec in self.pack.facts.variables.values():
            state.setdefault(spec.name, spec.default)
        state.update({name: j.value for name, j in trace.judgments.items()})
        entities = {kind: [dict(e) for e in items] for kind, items in situation.entities.items()}
        turn = _Turn(situation, state, entities, Dice(seed, list(situation.dice)), trace, explain)
        trace.decision = {"result": "decided", "choices": {}, "actions": [], "say": [],
                          "steps": []}
        self._run_page(self.pack.start, 0, turn)
        trace.dice = [r.as_dict() for r in turn.dice.rolls]
        used = {n for step in trace.steps for n in step.matched}
        used |= {n for step in trace.steps for s in step.skipped for n in s.get("read", [])}
        trace.judgments = {n: j for n, j in trace.judgments.items()
                           if n in used or j.origin == "given"}
        return trace

    def _evaluate(self, page: str, start: int, turn: _Turn) -> tuple[Rule | None, dict]:
        ruleset = self.compiled.pages[page]
        with self.compiled.page_session(page) as session:
            session.assert_fact({"t": "board", **{key(n): turn.state.get(n)
                                                  for n in ruleset.board_names}})
            for kind in sorted(ruleset.kinds):
                for index, entity in enumerate(turn.entities.get(kind, [])):
                    session.assert_fact({"t": "e", "kind": kind, "#": index, **entity})
            session.post({"t": "evaluate", "from": start})
            rules = self._page_rules[page]
            fired = [(rules[name], matched) for name, matched in session.fired if name in rules]
        if len(fired) > 1:
            raise EngineFault(f"{len(fired)} rules consumed one evaluate event on {page}")
        return fired[0] if fired else (None, {})

    def _run_page(self, name: str, depth: int, turn: _Turn, start: int = 1) -> str:
        procedure = self.pack.procedures.get(name)
        if procedure is None or name not in self.compiled.pages:
            turn.trace.steps.append(Step(page=name, title=name, depth=depth,
                                         notes=[f"there is no page {name!r}: reading on"]))
            return "end"
        ordered = self._ordered[name]
        while start <= len(ordered):
            turn.steps += 1
            if turn.steps > MAX_STEPS:
                raise DecisionError(f"the procedure did not finish in {MAX_STEPS} steps "
                                    f"(last page {name!r}): check goto/call loops")
            rule, matched = self._evaluate(name, start, turn)
            rank = ordered.index(rule) + 1 if rule else len(ordered) + 1
            step = Step(page=name, title=procedure.title, depth=depth)
            turn.trace.steps.append(step)
            self._explain(step, ordered[start - 1:rank - 1], rule, matched, turn)
            if rule is None:
                step.notes.append("no rule on this page applies")
                return "end"
            result = self._apply(rule, step, depth, turn)
            if result != "continue":
                return result
            start = rank + 1
        return "end"

    def _explain(self, step: Step, skipped: list[Rule], rule: Rule | None,
                 matched: dict[str, Any], turn: _Turn) -> None:
        world = turn.world
        for earlier in skipped:
            why = failures(earlier.when, world) if turn.explain else []
            applies = not why if turn.explain else holds(earlier.when, world)
            if applies:
                turn.trace.disagreements.append(
                    f"{earlier.id}: the evaluator finds it applies, durable_rules did not fire it")
            if turn.explain:
                step.skipped.append({"rule": earlier.id, "says": earlier.says, "why": why,
                                     "read": sorted(board_names(earlier.when))})
        if rule is None:
            return
        if not holds(rule.when, world):
            turn.trace.disagreements.append(
                f"{rule.id}: durable_rules fired it, the evaluator finds it does not apply")
        step.rule, step.says, step.cite, step.layer = rule.id, rule.says, rule.cite, rule.layer
        step.matched = {n: turn.state.get(n) for n in sorted(board_names(rule.when))}
        entities = _matched_facts(matched, rule, self.pack, entities_only=True)
        if entities:
            step.matched["entities"] = entities

    # --- outcomes ----------------------------------------------------------------------

    def _apply(self, rule: Rule, step: Step, depth: int, turn: _Turn) -> str:
        """Effects and `say` in the order the rule file writes them, then `action`, control."""
        then, state, decision = rule.then, turn.state, turn.trace.decision
        outcome: dict[str, Any] = {}
        step.outcome = outcome
        for name in then:
            if name == "compute":
                outcome["compute"] = self._compute(then["compute"], turn)
            elif name == "rederive" and then["rederive"]:
                self._rederive(turn)
                outcome["rederive"] = True
            elif name == "roll":
                roll = turn.dice.roll(then["roll"]["dice"], then["roll"].get("says", rule.says))
                state[then["roll"]["as"]] = roll.total
                outcome["roll"] = roll.as_dict()
            elif name == "set":
                for variable, expression in then["set"].items():
                    before = state.get(variable)
                    state[variable] = _setting(expression, turn.world)
                    outcome.setdefault("set", {})[variable] = {
                        "from": before, "to": state[variable], "by": str(expression)}
            elif name in ("select", "target"):
                outcome[name] = self._choose(rule, name, step, turn)
            elif name == "say":
                said = self._fill(then["say"], state)
                outcome["say"] = said
                decision["say"].append(said)
                decision["steps"].append({"say": said, "page": step.page, "rule": rule.id})
            elif name == "each":
                outcome["each"] = spec = dict(then["each"])
                if self._each(spec, depth, turn) == "stop":
                    return "stop"
        if "action" in then:
            action = {k: self._fill(v, state) if isinstance(v, str) else v
                      for k, v in then.items()
                      if k in ("action", "goal", "suit", "details", "budget")}
            action.update({"rule": rule.id, "page": step.page, "says": rule.says,
                           "cite": rule.cite})
            if "prefer" in then:
                action["prefer"] = [p if isinstance(p, str) else p["says"]
                                    for p in then["prefer"]]
            if "target" in outcome:
                action["target"] = outcome["target"]["chosen"]
            because = self._because(rule, turn)
            if because:
                action["because"] = because
            outcome["action"] = action["action"]
            decision["actions"].append(action)
            decision["steps"].append({"action": action})
        if "stop" in then:
            decision["result"] = self._fill(then["stop"], state)
            outcome["stop"] = decision["result"]
            return "stop"
        if "call" in then:
            target = self._fill(then["call"], state)
            outcome["call"] = target
            if self._run_page(target, depth + 1, turn) == "stop":
                return "stop"
            return self._goto(then, depth, turn, outcome) if "goto" in then else "continue"
        if "goto" in then:
            return self._goto(then, depth, turn, outcome)
        return "continue" if then.get("continue") else "end"

    @staticmethod
    def _because(rule: Rule, turn: _Turn) -> list[dict[str, Any]]:
        """The entities (the player's listed options, say) behind the judgments a rule read."""
        found: list[dict[str, Any]] = []
        for name in sorted(board_names(rule.when)):
            judgment = turn.trace.judgments.get(name)
            if judgment is None or judgment.origin != "derived" or not judgment.value:
                continue
            for support in judgment.by:
                for fact in support.get("facts", []):
                    if "kind" in fact and fact not in found:
                        found.append(fact)
        return found

    def _choose(self, rule: Rule, kind: str, step: Step, turn: _Turn) -> dict[str, Any]:
        spec = rule.then[kind]
        chosen = choose(spec, turn.entities, turn.world, turn.dice)
        if chosen.entity is None:
            raise DecisionError(f"rule {rule.id} applied, but no {spec['from']} matches its "
                                f"{kind} ({spec.get('where', 'any')})")
        alias = spec.get("as", kind)
        turn.state[alias] = True
        for field_name, value in chosen.entity.items():
            turn.state[f"{alias}.{field_name}"] = value
        turn.trace.decision["choices"][alias] = {"entity": chosen.entity, "by": rule.id,
                                                 "page": step.page}
        return chosen.as_dict()

    def _compute(self, name: str, turn: _Turn) -> dict[str, Any]:
        """Run a pack computation by name; its board changes and notes go in the trace."""
        before = dict(turn.state)
        work = Computation(turn.state, turn.entities, self.pack.data, self.pack.settings,
                           turn.dice)
        try:
            self.pack.functions[name](work)
        except ValueError as exc:  # a pack computation's word that the situation is impossible
            raise DecisionError(f"{name}: {exc}") from None
        changed = {k: {"from": before.get(k), "to": v} for k, v in turn.state.items()
                   if before.get(k) != v}
        turn.trace.decision["say"].extend(work.notes)
        turn.trace.decision["steps"].extend({"say": note, "computed_by": name}
                                            for note in work.notes)
        return {"function": name, "set": changed, "notes": work.notes}

    def _rederive(self, turn: _Turn) -> None:
        """Derive the judgments again from the board and entities as they are now."""
        now = Situation(turn.situation.name, turn.state, turn.entities,
                        turn.situation.answers)
        for name, judgment in self.derive(now).items():
            turn.state[name] = judgment.value
            turn.trace.judgments[name] = judgment

    def _each(self, spec: dict[str, Any], depth: int, turn: _Turn) -> str:
        """Run a page once per entity, its fields bound under `as`; changes are written back."""
        alias = spec.get("as", "current")
        items = list(turn.entities.get(spec["from"], []))
        if "where" in spec:
            items = [e for e in items if satisfies(spec["where"], e, turn.world)]
        order = self._fill(spec.get("order", ""), turn.state)
        if order:
            name = order.lstrip("-")
            items.sort(key=lambda e: (e.get(name) is None, e.get(name)),
                       reverse=order.startswith("-"))
        spec["visited"] = len(items)
        for entity in items:
            for field_name, value in entity.items():
                turn.state[f"{alias}.{field_name}"] = value
            turn.state[alias] = True
            result = self._run_page(self._fill(spec["call"], turn.state), depth + 1, turn)
            for field_name in entity:
                entity[field_name] = turn.state.get(f"{alias}.{field_name}")
            turn.state[alias] = False
            if result == "stop":
                return "stop"
        return "end"

    def _goto(self, then: dict[str, Any], depth: int, turn: _Turn,
              outcome: dict[str, Any]) -> str:
        target = self._fill(then["goto"], turn.state)
        outcome["goto"] = target
        return self._run_page(target, depth, turn)

    @staticmethod
    def _fill(text: str, state: dict[str, Any]) -> str:
        """`"{selected.suit}"` → the board value; page names and texts may use these."""
        return _TEMPLATE.sub(lambda m: _plain(state.get(m.group(1))), text)


def _setting(expression: Any, world: World) -> Any:
    if not isinstance(expression, str):
        return expression
    node = _parsed_setting(expression)
    if isinstance(node, Literal | Ref | Sum):
        return value_of(node, world, {})
    return holds(node, world)


@cache
def _parsed_setting(text: str) -> Any:
    return parse_setting(text)


def _plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _matched_facts(matched: dict[str, Any], rule: Rule, pack: Pack,
                   entities_only: bool = False) -> list[dict[str, Any]]:
    """The facts a firing matched, cut down to what the rule read (and what names an entity)."""
    read_board = board_names(rule.when)
    read_fields: dict[str, set[str]] = {}
    for ref in all_refs(rule.when):
        if ref.scope is not None:
            read_fields.setdefault(f"x_{ref.scope}", set()).add(ref.name)
    facts = []
    for alias, fact in sorted(matched.items()):
        shape = fact.get("t")
        if shape == "e":
            spec = pack.facts.entities.get(fact.get("kind", ""))
            keep = read_fields.get(alias, set()) | {spec.naming_field if spec else None}
            facts.append({"kind": fact.get("kind"),
                          **{k: v for k, v in fact.items() if k in keep}})
        elif entities_only:
            continue
        elif shape == "j":
            entry = {"judgment": fact["n"], "value": fact["v"]}
            if fact.get("by") == "given":
                entry["given"] = True
            facts.append(entry)
        elif shape == "board":
            shown = {name: fact.get(key(name)) for name in sorted(read_board)
                     if key(name) in fact}
            if shown:
                facts.append(shown)
    return facts
