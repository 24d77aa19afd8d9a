"""What a derivation rule of a Fate judged, for judgments the decision's path does not read
(the ones the campaign's pages and the table read: Set Doctrine, Council decided, ...)."""

from __future__ import annotations

from whybot.engine.explain import rule_verdict
from whybot.facts.snapshot import parse_snapshot


def verdict(engine, text: str, rule_id: str, seed: int = 1) -> dict:
    situation = parse_snapshot("pack: arcs\n" + text, "inline.yaml", engine.pack)
    trace = engine.decide(situation, seed=seed)
    assert trace.disagreements == []
    return rule_verdict(engine, situation, trace, rule_id)
