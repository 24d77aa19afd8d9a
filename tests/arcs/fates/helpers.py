"""Helpers for the Fate tests: what a Fate's derivation judged for judgments the decision's path
does not read (the ones the campaign's pages and the table read: Set Doctrine, Council decided,
...), the example map of the Pathfinder examples, and reading a Fate example with some of its
facts changed."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.arcs.helpers import decide
from tests.conftest import ROOT
from whybot.engine.explain.verdict import rule_verdict
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


EXAMPLES = ROOT / "facts" / "examples" / "arcs" / "fates"

# (symbol, cluster) -> resource type: the map the Pathfinder examples list
MAP = {
    ("hex", 1): "weapon", ("arrow", 1): "fuel", ("moon", 1): "material",
    ("hex", 2): "relic", ("arrow", 2): "psionic", ("moon", 2): "fuel",
    ("hex", 3): "material", ("arrow", 3): "weapon", ("moon", 3): "psionic",
    ("hex", 4): "fuel", ("arrow", 4): "relic", ("moon", 4): "weapon",
    ("hex", 5): "psionic", ("arrow", 5): "material", ("moon", 5): "relic",
    ("hex", 6): "weapon", ("arrow", 6): "psionic", ("moon", 6): "material",
}


def planets(tokens: dict[str, str] | None = None, flagship: str = "") -> str:
    """The `planets:` list of the whole map, with tokens ({"Hex 1": "check"}) and the Flagship."""
    tokens = tokens or {}
    lines = ["planets:"]
    for (symbol, cluster), resource in MAP.items():
        name = f"{symbol.capitalize()} {cluster}"
        extra = f", token: {tokens[name]}" if name in tokens else ""
        extra += ", flagship: true" if name == flagship else ""
        lines.append(f"  - {{name: {name}, symbol: {symbol}, cluster: {cluster}, "
                     f"resource: {resource}{extra}}}")
    return "\n".join(lines) + "\n"


def example(folder: str, name: str, **changes) -> dict:
    """A Fate example's snapshot (without its expect: block), with top-level facts changed."""
    data = yaml.safe_load((EXAMPLES / folder / f"{name}.yaml").read_text(encoding="utf-8"))
    data.pop("expect", None)
    data.pop("pack", None)
    data.update(changes)
    return data


def decide_data(engine, data: dict, seed: int = 1):
    return decide(engine, yaml.safe_dump(data, sort_keys=False), seed=seed)


def rules(trace) -> list[str]:
    return [a["rule"] for a in trace.decision["actions"]]


def chosen(trace) -> dict:
    return trace.decision["choices"]["selected"]["entity"]


__all__ = ["EXAMPLES", "MAP", "Path", "chosen", "decide_data", "derive", "example", "named",
           "planets", "rules", "verdict"]


def as_ability(data: dict, target: str, marker: dict, ability: bool) -> dict:
    """The snapshot with the option on `target` listed as a card ability (the `marker` fields,
    e.g. a Claim Fief), or as the plain action (readings R63)."""
    def change(option: dict) -> dict:
        if option["target"] != target:
            return option
        plain = {k: v for k, v in option.items() if k not in marker}
        return {**plain, **marker} if ability else plain
    return {**data, "options": [change(o) for o in data["options"]]}
