"""Deciding inline snapshots of the toy packs in engine tests."""

from __future__ import annotations

from whybot.facts.snapshot import parse_snapshot


def decide(engine, text: str, seed: int = 1, pack: str = "toy"):
    situation = parse_snapshot(f"pack: {pack}\n" + text, "inline.yaml", engine.pack)
    trace = engine.decide(situation, seed=seed)
    assert trace.disagreements == []
    return trace
