"""What a command shows of a decision, as data: the trace with the pack's presentation (how its
headline and columns read) and, for the full trace, why each judgment the walk read at its
fallback was not established — worked out only when a trace is shown.
"""

from __future__ import annotations

from typing import Any

from whybot.engine import Engine, Situation, Trace
from whybot.facts.wording import reason, seed_title

from .reasons import entity_name, reasons


def shown(engine: Engine, trace: Trace) -> dict[str, Any]:
    """The decision's data as the short answer and the brief read it: the pack's presentation
    with the seed's title (a citation reads as it), and each action's target as the table names
    it (`named`: the naming fields of the kind the rule targets)."""
    data = trace.as_dict()
    pack = engine.pack
    decision = data["decision"]  # the trace's own: the names go on copies
    if decision.get("actions"):
        data["decision"] = {**decision, "actions": [
            {**action, "named": entity_name(pack, action.get("rule", ""), action["target"])}
            if isinstance(action.get("target"), dict) else action
            for action in decision["actions"]]}
    if decision.get("choices"):
        data["decision"] = {**data["decision"], "choices": {
            alias: {**choice, "really": really} if (really := _really(data["path"], alias,
                                                                      choice["entity"]))
            else choice for alias, choice in decision["choices"].items()}}
    data = {**data, "presentation": {**pack.presentation, "seed": seed_title(pack),
                                     "start": pack.start}}
    board = trace.derived_from[0] if trace.derived_from else {}
    return {**data, "reasons": reasons(pack, data, board), "words": _words(pack, data)}


def _words(pack: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The rules that chose each entity and took each action, in the seed's words: their
    `says:` and citation (what the short answer shows instead of rule ids)."""
    decision = data["decision"]
    return {"choices": {alias: reason(pack, str(choice.get("by") or ""),
                                      str(choice.get("page") or ""))
                        for alias, choice in decision.get("choices", {}).items()},
            "actions": [reason(pack, str(action.get("rule") or ""),
                               str(action.get("page") or ""))
                        for action in decision.get("actions", [])]}


def _really(path: list[dict[str, Any]], alias: str, entity: Any) -> dict[str, Any]:
    """The chosen entity's counts as the turn really has them: a fact set from one of its
    fields (`actions_left` from `selected.actions`) and changed before the first action (an
    extra action a difficulty grants) is what it has, not what is printed."""
    if not isinstance(entity, dict):
        return {}
    tracked: dict[str, str] = {}
    now: dict[str, Any] = {}
    for step in path:
        outcome = step.get("outcome", {})
        if "action" in outcome:
            break
        for name, change in outcome.get("set", {}).items():
            source = str(change.get("by", "")).removeprefix(f"{alias}.")
            if source != change.get("by") and source in entity:
                tracked[name] = source
            if name in tracked:
                now[name] = change.get("to")
    return {field: now[name] for name, field in tracked.items()
            if now[name] != entity[field]}


def shown_in_full(engine: Engine, situation: Situation, trace: Trace) -> dict[str, Any]:
    """The whole trace's data: each judgment no rule established carries `not_by`, the rules
    that could have and why each did not (`whybot why`, the web page of a decision)."""
    from whybot.engine import unestablished

    data = shown(engine, trace)
    for name, rules in unestablished(engine, situation, trace).items():
        data["judgments"][name]["not_by"] = rules
    return data
