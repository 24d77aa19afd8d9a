"""What a command shows of a decision: the typed trace, and as data (what `--json` prints) the
trace with the pack's presentation (how its headline and columns read) and, for the full trace,
why each judgment the walk read at its fallback was not established — worked out only when a
trace is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whybot.engine import ActionFields, Decision, Engine, Pack, Situation, Trace
from whybot.facts.play.wording import reason, seed_title

from .reasons import entity_name, reasons


@dataclass(frozen=True)
class Shown:
    """A decision as the views read it: the trace; how the pack's actions read (`fields`);
    each action's target as the table names it (`named`, by the action's place); each chosen
    entity's counts as the turn really has them (`really`, by alias); and `data`, the JSON
    `--json` prints, which the path, judgment and reason views still read."""

    trace: Trace
    fields: ActionFields
    named: tuple[str | None, ...]
    really: dict[str, dict[str, Any]]
    data: dict[str, Any]
    # the instructions' snapshot wording (`snapshot:`) is for whoever writes snapshots; the
    # table (`play`) writes those fields itself
    hints: bool = True

    @property
    def presentation(self) -> dict[str, Any]:
        return self.data["presentation"]


def shown(engine: Engine, trace: Trace) -> Shown:
    """The decision as the short answer and the brief read it: the pack's presentation with
    the seed's title (a citation reads as it), and each action's target as the table names it
    (`named`: the naming fields of the kind the rule targets)."""
    data = trace.as_dict()
    pack = engine.pack
    decision = trace.decision
    named = tuple(entity_name(pack, action.rule, action.target)
                  if action.target is not None else None for action in decision.actions)
    if decision.actions:
        data["decision"]["actions"] = [
            {**action, "named": name} if isinstance(action.get("target"), dict) else action
            for action, name in zip(data["decision"]["actions"], named, strict=True)]
    really = {alias: found for alias, choice in decision.choices.items()
              if (found := _really(data["path"], alias, choice.entity))}
    if really:
        data["decision"]["choices"] = {
            alias: {**choice, "really": really[alias]} if alias in really else choice
            for alias, choice in data["decision"]["choices"].items()}
    data = {**data, "presentation": {**pack.presentation, "seed": seed_title(pack),
                                     "start": pack.start}}
    board = trace.derived_from[0] if trace.derived_from else {}
    data["reasons"] = reasons(pack, data, board)
    data["words"] = _words(pack, decision)
    return Shown(trace, pack.action_fields, named, really, data)


def _words(pack: Pack, decision: Decision) -> dict[str, Any]:
    """The rules that chose each entity and took each action, in the seed's words: their
    `says:` and citation (what the short answer shows instead of rule ids)."""
    return {"choices": {alias: reason(pack, choice.by or "", choice.page or "")
                        for alias, choice in decision.choices.items()},
            "actions": [reason(pack, action.rule or "", action.page or "")
                        for action in decision.actions]}


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


def shown_in_full(engine: Engine, situation: Situation, trace: Trace) -> Shown:
    """The whole trace's data: each judgment no rule established carries `not_by`, the rules
    that could have and why each did not (`whybot why`, the web page of a decision)."""
    from whybot.engine import unestablished

    full = shown(engine, trace)
    for name, rules in unestablished(engine, situation, trace).items():
        full.data["judgments"][name]["not_by"] = rules
    return full
