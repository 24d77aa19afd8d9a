"""Snapshots for hand-worked situations on an invented 3x3 board (north_rank 1 = top row).

    Ashford   Birchwood  Cedarfall     (north_rank 1)
    Dunmere   Elmgate    Fernvale      (north_rank 2)
    Glenrock  Hollow     Ironmoor      (north_rank 3)
"""

from __future__ import annotations

from typing import Any

import yaml

from whybot.engine.trace import Said
from whybot.facts.snapshot import parse_snapshot

ROWS = [["Ashford", "Birchwood", "Cedarfall"], ["Dunmere", "Elmgate", "Fernvale"],
        ["Glenrock", "Hollow", "Ironmoor"]]
GRID_BORDERS = (
    [{"from": row[i], "to": row[i + 1], "direction": "E"} for row in ROWS for i in range(2)]
    + [{"from": ROWS[r][c], "to": ROWS[r + 1][c], "direction": "S"}
       for r in range(2) for c in range(3)])


def grid(**overrides: dict[str, Any]) -> list[dict[str, Any]]:
    """The nine provinces, neutral with 2 Infantry unless overridden by name."""
    provinces = []
    for rank, row in enumerate(ROWS, start=1):
        for name in row:
            province = {"name": name, "owner": "neutral", "units": 2, "north_rank": rank}
            province.update(overrides.get(name, {}))
            provinces.append(province)
    return provinces


def snapshot(engine, *, provinces, borders=None, dice=(), bots=("Red", "Blue"),
             players=({"name": "Liu"},), **board):
    data = {"pack": "yellow_scarves", "name": "test", "dice": list(dice),
            "bots": [b if isinstance(b, dict) else {"name": b} for b in bots],
            "players": list(players), "provinces": provinces,
            "borders": GRID_BORDERS if borders is None else borders}
    data.update(board)
    return parse_snapshot(yaml.safe_dump(data, sort_keys=False), "test.yaml", engine.pack)


def decide(engine, **kwargs):
    """Decide with the pre-rolled dice only: every die must come from `dice`, all used."""
    trace = engine.decide(snapshot(engine, **kwargs), seed=None)
    assert trace.disagreements == []
    used = [face for r in trace.dice for face in r.faces]
    assert all(r.source.startswith("pre-rolled") for r in trace.dice), trace.dice
    assert used == list(kwargs.get("dice", ())), trace.dice
    return trace


def said(trace) -> str:
    """Everything the decision tells the players, actions included, as one text."""
    lines = []
    for step in trace.decision.steps:
        if isinstance(step, Said):
            lines.append(step.say)
        else:
            lines.append(f"ACTION {step.action}: {step.fields.get('details', '')}")
    return "\n".join(lines)


def rolls(trace) -> list[tuple[str, int]]:
    return [(r.purpose, r.total) for r in trace.dice]
