"""Choosing among candidates: the seed's "Prefer:" lists as ordered filters, then the dice.

"Narrow the possibilities to only those which meet the first priority, then the second
priority, and so on, until only one option remains" — and "if ... priorities fail to
differentiate between the options, pick randomly."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .conditions import parse
from .dice import Dice
from .evaluate import World, holds


@dataclass
class Choice:
    entity: dict[str, Any] | None
    candidates: int
    narrowing: list[str] = field(default_factory=list)
    guidance: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"chosen": self.entity, "candidates": self.candidates,
                                "narrowing": self.narrowing}
        if self.guidance:
            data["guidance"] = self.guidance
        return data


@cache
def _about_one(condition: str):
    return parse(f"exists it ({condition})")


def satisfies(condition: str, entity: dict[str, Any], world: World) -> bool:
    return holds(_about_one(condition), World(world.board, {"it": [entity]}))


def choose(spec: dict[str, Any], entities: dict[str, list[dict[str, Any]]], world: World,
           dice: Dice) -> Choice:
    kind = spec["from"]
    pool = list(entities.get(kind, []))
    if "where" in spec:
        pool = [e for e in pool if satisfies(spec["where"], e, world)]
    choice = Choice(entity=None, candidates=len(pool))
    if not pool:
        choice.narrowing.append(f"no {kind} matches {spec.get('where', 'anything')}")
        return choice
    for preference in spec.get("prefer", []):
        if isinstance(preference, str) or "when" not in preference:
            text = preference if isinstance(preference, str) else preference["says"]
            choice.guidance.append(text)
            continue
        kept = [e for e in pool if satisfies(preference["when"], e, world)]
        if kept and len(kept) < len(pool):
            choice.narrowing.append(f"prefer {preference['says']}: {len(pool)} → {len(kept)}")
            pool = kept
        else:
            reason = "none qualifies" if not kept else "all qualify"
            choice.narrowing.append(f"prefer {preference['says']}: {reason}")
    if "order" in spec and len(pool) > 1:
        name = spec["order"].lstrip("-")
        best = (max if spec["order"].startswith("-") else min)(e.get(name, 0) for e in pool)
        kept = [e for e in pool if e.get(name, 0) == best]
        word = "highest" if spec["order"].startswith("-") else "lowest"
        choice.narrowing.append(f"{word} {name} ({best}): {len(pool)} → {len(kept)}")
        pool = kept
    if len(pool) > 1:
        index = dice.pick(len(pool), f"random pick among {len(pool)} equal {kind} options")
        choice.narrowing.append(f"still {len(pool)} equal: picked #{index + 1} by the dice")
        pool = [pool[index]]
    choice.entity = pool[0]
    return choice
