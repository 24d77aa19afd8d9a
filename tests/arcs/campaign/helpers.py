"""Helpers for the campaign's decision points: inline snapshots and what they decided."""

from __future__ import annotations

from tests.arcs.helpers import decide


def run(engine, text: str, dice: list[int] | None = None, seed: int = 1):
    """Decide an inline campaign snapshot, with pre-rolled dice if given."""
    if dice is not None:
        text += f"dice: {dice}\n"
    return decide(engine, text, seed=seed)


def acted(trace) -> list[tuple[str, str]]:
    """Each action with the rule that took it."""
    return [(a.action, a.rule) for a in trace.decision.actions]


def targets(trace, action: str) -> list[str]:
    """The names of what each `action` aimed at, in order."""
    return [a.target["name"] for a in trace.decision.actions if a.action == action]


def said(trace) -> str:
    return "\n".join(trace.decision.say)


def judged(trace, name: str):
    """A judgment's value as the decision's trace lists it."""
    return trace.judgments[name].value


def matched(trace, rule: str, name: str):
    """What a fired rule read for `name` when it fired (a judgment's value then)."""
    return next(step.matched[name] for step in trace.steps if step.rule == rule)
