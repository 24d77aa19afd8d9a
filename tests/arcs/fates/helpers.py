"""Judgments the campaign's pages will read: derived from an inline snapshot, no decision."""

from __future__ import annotations

from whybot.facts.snapshot import parse_snapshot


def derive(engine, text: str):
    """Every judgment and entity field the rules derive from these observations."""
    situation = parse_snapshot("pack: arcs\nhand_counter: 3\n" + text, "inline.yaml",
                               engine.pack)
    return engine.derive(engine.inputs(situation), situation.entities, situation.answers)


def named(derivation, kind: str, label: str, value: str) -> dict:
    return next(e for e in derivation.entities[kind] if e[label] == value)
