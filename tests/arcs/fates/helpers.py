"""Judgments the decision's path does not read (the ones the campaign's pages and the table
read: Set Doctrine, Council decided, ...): what a Fate's derivation judged, from an inline
snapshot."""

from __future__ import annotations

from whybot.engine.explain import rule_verdict
from whybot.facts.snapshot import parse_snapshot


def verdict(engine, text: str, rule_id: str, seed: int = 1) -> dict:
    """What one derivation rule judged, as the trace explains it."""
    situation = parse_snapshot("pack: arcs\n" + text, "inline.yaml", engine.pack)
    trace = engine.decide(situation, seed=seed)
    assert trace.disagreements == []
    return rule_verdict(engine, situation, trace, rule_id)


def derive(engine, text: str):
    """Every judgment and entity field the rules derive from these observations."""
    situation = parse_snapshot("pack: arcs\nhand_counter: 3\n" + text, "inline.yaml",
                               engine.pack)
    return engine.derive(engine.inputs(situation), situation.entities, situation.answers)


def named(derivation, kind: str, label: str, value: str) -> dict:
    return next(e for e in derivation.entities[kind] if e[label] == value)
