"""Deciding hand-worked snapshots with pre-rolled dice only (a success: a face of success_from,
by default 4, or more)."""

from __future__ import annotations

from typing import Any

import yaml

from whybot.facts.snapshot import parse_snapshot

HIT, MISS = 5, 2  # a success and a failure under the default success_from = 4


def decide(engine, decision: str, *, dice=(), bot: str = "sparta", **board: Any):
    """Decide with the pre-rolled dice only: every die must come from `dice`, all used."""
    data = {"pack": "sparta_athens", "name": "test", "decision": decision, "bot": bot,
            "dice": list(dice)}
    data.update(board)
    situation = parse_snapshot(yaml.safe_dump(data, sort_keys=False), "test.yaml", engine.pack)
    trace = engine.decide(situation, seed=None)
    assert trace.disagreements == []
    used = [face for r in trace.dice for face in r.faces]
    assert all(r.source.startswith("pre-rolled") for r in trace.dice), trace.dice
    assert used == list(dice), trace.dice
    return trace


def result(trace) -> str:
    return trace.decision.result


def actions(trace) -> list[str]:
    return [a.action for a in trace.decision.actions]


def details(trace) -> str:
    return "\n".join(a.fields.get("details", "") for a in trace.decision.actions)


def said(trace) -> str:
    return "\n".join(trace.decision.say)


def chosen(trace, alias: str) -> dict[str, Any]:
    return trace.decision.choices[alias].entity


def rolled(trace) -> list[int]:
    """How many dice each roll used, in order."""
    return [len(r.faces) for r in trace.dice]
