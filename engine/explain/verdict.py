"""`why --rule ID`: did one rule fire, where and on what; if not, why not — as data.

Statuses: fired, skipped (considered, its condition failed: the failing parts), outranked (its
page was read but a rule above it fired first), page not reached (with the pages read),
overridden (a derivation whose judgment the snapshot gave), disabled (by a house-rule file).
`unestablished`: for each judgment the walk read that no rule established, the rules that
could have and why each did not. The CLI renders these; nothing here prints.
"""

from __future__ import annotations

from typing import Any

from ..errors import WhybotError, did_you_mean
from ..evaluator.evaluate import World, failures_and_misses
from ..language.pack import DERIVATION, Pack, Rule
from ..situation import Situation
from ..trace import Trace


def find_rule(pack: Pack, rule_id: str) -> Rule:
    """The rule with this id, or an error that suggests the closest id (exit 2)."""
    rule = pack.rule(rule_id)
    if rule is not None:
        return rule
    if rule_id in pack.disabled:
        raise WhybotError(f"rule {rule_id!r} is disabled: {pack.disabled[rule_id]}")
    known = {r.id for r in pack.rules()}
    raise WhybotError(f"no rule {rule_id!r} in pack {pack.name!r}",
                      hint=did_you_mean(rule_id, known)
                      or "see `whybot rules list` for the rule ids")


def rule_verdict(engine: Any, situation: Situation, trace: Trace, rule_id: str,
                 ) -> dict[str, Any]:
    """Did `rule_id` fire in this trace? If not: skipped (why), outranked, or page not reached."""
    pack = engine.pack
    if rule_id in pack.disabled:
        return {"rule": rule_id, "status": "disabled", "why": [pack.disabled[rule_id]]}
    rule = find_rule(pack, rule_id)
    verdict: dict[str, Any] = {"rule": rule.id, "page": rule.page, "says": rule.says,
                               "when": rule.when_text, "file": rule.where}
    if rule.kind == DERIVATION:
        return {**verdict, **_derivation_verdict(engine, situation, rule, trace)}
    path = [s.as_dict() for s in trace.steps]
    for number, step in enumerate(path, 1):
        if step.get("rule") == rule.id:
            return {**verdict, "status": "fired", "step": number,
                    "matched": step.get("matched", {}), "outcome": step.get("outcome", {})}
    for number, step in enumerate(path, 1):
        for skipped in step.get("skipped", []):
            if skipped["rule"] == rule.id:
                return {**verdict, "status": "skipped", "step": number, "why": skipped["why"]}
    visits = [(n, s) for n, s in enumerate(path, 1) if s["page"] == rule.page]
    if not visits:
        return {**verdict, "status": "page not reached",
                "path": list(dict.fromkeys(s["page"] for s in path))}
    number, _ = visits[0]
    return {**verdict, "status": "outranked", "step": number,
            "fired_instead": [s.get("rule") for _, s in visits]}


def _derivation_verdict(engine: Any, situation: Situation, rule: Rule, trace: Trace,
                        ) -> dict[str, Any]:
    """From the board the decision last derived its judgments on (after a `rederive`, the
    turn variables of that moment), as the trace used them."""
    judge = rule.then.judge
    board, entities = trace.derived_from or (engine.inputs(situation), situation.entities)
    answers = situation.answers if trace.derived_answers is None else trace.derived_answers
    run = engine.derive(board, entities, answers)
    if judge is None or judge.alias is not None:
        fired = [s for supports in run.field_support.values() for s in supports
                 if s.get("rule") == rule.id]
        if fired:
            return {"status": "fired", "matched": [f for s in fired for f in s["facts"]]}
        world = World({**run.board, **run.values}, run.entities)
        return {"status": "skipped", **_why_not(engine.pack, rule, world)}
    judgments = run.judgments()
    judgment = judgments.get(judge.name)
    by = [s for s in (judgment.by if judgment else []) if s.get("rule") == rule.id]
    if by:
        return {"status": "fired", "judgment": judge.name, "value": judgment.value,
                "matched": by[0].get("facts", [])}
    world = World({**run.board, **{n: j.value for n, j in judgments.items()}}, run.entities)
    status = "overridden" if judgment and judgment.origin == "given" else "skipped"
    why = _why_not(engine.pack, rule, world)
    why["why"] = why["why"] or [
        f"its condition holds, but another rule had already established {judge.name} = "
        f"{judgment.value if judgment else None}"]
    return {"status": status, "judgment": judge.name,
            "value": judgment.value if judgment else None,
            "origin": judgment.origin if judgment else "unknown", **why}


def unestablished(engine: Any, situation: Situation, trace: Trace,
                  ) -> dict[str, list[dict[str, Any]]]:
    """Judgment → the rules that could have established it and why each did not: for each
    judgment the walk read at its fallback ("not established by any rule, so no"), on the
    board the decision first derived from (the trace keeps each judgment as first derived).
    Worked out when a trace is shown, not while deciding: a batch pays nothing for it."""
    producers = engine.strata.producers
    names = [name for name, judgment in trace.judgments.items()
             if judgment.origin not in ("derived", "given") and ("judgment", name) in producers]
    if not names:
        return {}
    run = engine.derive(engine.inputs(situation), situation.entities, situation.answers)
    world = World({**run.board, **run.judgment_values()}, run.entities)
    return {name: [{"rule": rule.id, "cite": rule.cite, **_why_not(engine.pack, rule, world)}
                   for rule in producers["judgment", name]] for name in names}


def _why_not(pack: Pack, rule: Rule, world: World) -> dict[str, Any]:
    """The failing parts of a rule's condition and, for an `exists` that found nothing, each
    entity it looked at with the parts that entity fails."""
    reasons, misses = failures_and_misses(rule.when, world, pack.entity_label)
    return {"why": reasons, "entities": misses} if misses else {"why": reasons}
