"""Helpers for the SUPERCAT tests: inline snapshots and what the decision says."""

from __future__ import annotations

from whybot.facts.snapshot import parse_snapshot


def decide(engine, text: str, seed: int = 1):
    """Decide an inline snapshot; the durable_rules walk and the evaluator must agree."""
    situation = parse_snapshot("pack: arcs\n" + text, "inline.yaml", engine.pack)
    trace = engine.decide(situation, seed=seed)
    assert trace.disagreements == []
    return trace


def selected(trace) -> dict:
    return trace.decision.choices["selected"].entity


def actions(trace) -> list[tuple[str, str]]:
    return [(a.action, a.fields.get("goal", "")) for a in trace.decision.actions]


def last_action(trace) -> dict:
    return trace.decision.actions[-1]


def one_card(suit: str, pips: int = 3, number: int = 1) -> str:
    """The bot leads with a single card of `suit` (no ambition for a 1): the suit page runs."""
    return (f"hand_counter: 3\ninitiative: true\n"
            f"cards: [{{suit: {suit}, number: {number}, pips: {pips}}}]\n")
