"""Choosing among candidates: the seed's "Prefer:" lists as ordered filters, then the dice.

"Narrow the possibilities to only those which meet the first priority, then the second
priority, and so on, until only one option remains" — and "if ... priorities fail to
differentiate between the options, pick randomly." Order keys (highest number, then lowest
rank, ...) break ties in turn before the dice do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..evaluator.evaluate import World, holds, number, value_of
from ..language.expressions import Condition
from ..language.outcomes import OrderKey
from .dice import Dice


@dataclass
class Choice:
    entity: dict[str, Any] | None
    candidates: int
    narrowing: list[str] = field(default_factory=list)
    guidance: list[str] = field(default_factory=list)

    def as_dict(self, shown: dict[str, Any] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"chosen": shown if shown is not None else self.entity,
                                "candidates": self.candidates, "narrowing": self.narrowing}
        if self.guidance:
            data["guidance"] = self.guidance
        return data


def satisfies(condition: Condition | None, scope: str, entity: Mapping[str, Any],
              world: World) -> bool:
    return condition is None or holds(condition, world, {scope: entity})


def ordered(pool: list[dict[str, Any]], keys: tuple[OrderKey, ...], scope: str,
            world: World) -> list[dict[str, Any]]:
    """Sort by each key in turn (stable, first key strongest); absent values go last."""
    for spec in reversed(keys):
        values = [(value_of(spec.value, world, {scope: e}), e) for e in pool]
        present = [(v, e) for v, e in values if v is not None]
        present.sort(key=lambda pair: pair[0], reverse=spec.descending)
        pool = [e for _, e in present] + [e for v, e in values if v is None]
    return pool


def narrow_by_order(pool: list[dict[str, Any]], keys: tuple[OrderKey, ...], scope: str,
                    world: World, notes: list[str]) -> list[dict[str, Any]]:
    """Keep only the best by each key in turn (the seed's "Prefer: higher number")."""
    for spec in keys:
        if len(pool) < 2:
            break
        values = [value_of(spec.value, world, {scope: e}) for e in pool]
        present = [v for v in values if number(v)]
        if not present:
            continue
        best = max(present) if spec.descending else min(present)
        kept = [e for e, v in zip(pool, values, strict=True) if v == best]
        shown = str(spec).replace(f"{scope}.", "")  # the candidate's own field: `value`
        notes.append(f"{shown} ({_plain(best)}): {len(pool)} → {len(kept)}")
        pool = kept
    return pool


def choose(kind: str, scope: str, where: Condition | None, prefer: tuple, keys: tuple,
           items: list[dict[str, Any]], world: World, dice: Dice,
           name: Callable[[dict[str, Any]], str] = lambda e: "") -> Choice:
    """One entity; a tie after the preferences and order keys goes to the dice, which the
    trace shows with the options it picked among (`name` tells them apart)."""
    pool = [e for e in items if satisfies(where, scope, e, world)]
    choice = Choice(entity=None, candidates=len(pool))
    if not pool:
        choice.narrowing.append(f"no {kind} matches {where if where else 'anything'}")
        return choice
    for preference in prefer:
        if preference.when is None:
            choice.guidance.append(preference.says)
            continue
        kept = [e for e in pool if satisfies(preference.when, scope, e, world)]
        if kept and len(kept) < len(pool):
            choice.narrowing.append(f"prefer {preference.says}: {len(pool)} → {len(kept)}")
            pool = kept
        else:
            reason = "none qualifies" if not kept else "all qualify"
            choice.narrowing.append(f"prefer {preference.says}: {reason}")
    pool = narrow_by_order(pool, keys, scope, world, choice.narrowing)
    if len(pool) > 1:
        names = [name(e) or f"#{i}" for i, e in enumerate(pool, 1)]
        index = dice.pick(len(pool), f"random pick among {len(pool)} equal {kind} options: "
                                     + ", ".join(f"{i} {n}" for i, n in enumerate(names, 1)))
        choice.narrowing.append(f"still {len(pool)} equal: the dice picked #{index + 1}, "
                                f"{names[index]}")
        pool = [pool[index]]
    choice.entity = pool[0]
    return choice


def _plain(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
