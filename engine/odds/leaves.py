"""Tallying the leaves of an odds walk: which decisions count as the same, and the dice to each.

A decision is told apart at one of three grains (`GRAINS`): its `result` only; its `actions`
(the result, the entity each choice settled on, and every action with its goal, suit, target
and details); or the whole `table` (that, and every instruction the bot gives the player). Leaves
with the same decision are summed into one `Outcome`, and the dice paths leading to it are
merged where they differ in one roll only, so that "1d6: 4, 5, 6" reads as one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

GRAINS = ("result", "actions", "table")
ACTION_FIELDS = ("action", "goal", "suit", "target", "details", "budget")


def decision_of(decision: dict[str, Any], by: str) -> dict[str, Any]:
    """The part of a trace's decision that tells outcomes apart at grain `by`."""
    told: dict[str, Any] = {"result": decision.get("result", "decided")}
    if by == "result":
        return told
    told["choices"] = {alias: choice.get("entity")
                       for alias, choice in decision.get("choices", {}).items()}
    told["actions"] = [{k: a[k] for k in ACTION_FIELDS if a.get(k) not in (None, "")}
                       for a in decision.get("actions", [])]
    if by == "table":
        told["say"] = list(decision.get("say", []))
    return told


def key_of(told: dict[str, Any]) -> str:
    """A canonical text for a decision (or an error): equal decisions, equal keys."""
    return json.dumps(told, sort_keys=True, ensure_ascii=False, default=str)


class RollSpec(NamedTuple):
    """One roll as a table would name it: its dice, what it decides, and how it counts."""

    dice: str
    purpose: str
    counting: str  # "" for a total; the success condition when it counts successes
    labels: tuple[str, ...] = ()  # a draw: the names it may draw, its values their places

    def every_value(self) -> frozenset[int]:
        """Every value the roll can hand the procedure: successes 0..n, totals n..n·s, or the
        places of the names a draw may draw."""
        if self.labels:
            return frozenset(range(1, len(self.labels) + 1))
        count, _, sides = self.dice.partition("d")
        n, s = int(count), int(sides)
        return frozenset(range(n + 1) if self.counting else range(n, n * s + 1))

    def shown(self, value: int) -> str:
        """A value as the table reads it: the name drawn, or the number."""
        return self.labels[value - 1] if self.labels else str(value)


class Rolled(NamedTuple):
    """A roll on the way to an outcome and the values it came to (its total, its successes
    or the number picked) there."""

    spec: RollSpec
    values: frozenset[int]


Path = tuple[Rolled, ...]


@dataclass(frozen=True)
class Leaf:
    """One way the dice can fall (after merging equal values), and the decision it leads to."""

    probability: Fraction
    path: Path
    decision: dict[str, Any]


@dataclass
class Outcome:
    """One decision, how likely it is, and the dice that lead to it."""

    decision: dict[str, Any]
    probability: Fraction = Fraction(0)
    paths: list[Path] = field(default_factory=list)
    hits: int = 0  # leaves (or samples) that reached it


def tally(leaves: Iterable[Leaf]) -> list[Outcome]:
    """The leaves summed by decision, likeliest first (then by key, so the order is stable)."""
    found: dict[str, Outcome] = {}
    for leaf in leaves:
        outcome = found.setdefault(key_of(leaf.decision), Outcome(leaf.decision))
        outcome.probability += leaf.probability
        outcome.paths.append(leaf.path)
        outcome.hits += 1
    for outcome in found.values():
        outcome.paths = compact(outcome.paths)
    return [found[k] for k in sorted(found, key=lambda k: (-found[k].probability, k))]


def compact(paths: list[Path]) -> list[Path]:
    """The same set of dice in fewer paths: two paths equal but for the values of one roll
    become one path with the union of those values (a union of products that share every
    other factor is their product with the union), until no two can be merged."""
    paths = list(dict.fromkeys(paths))
    merged = True
    while merged and len(paths) > 1:
        merged = False
        for at in range(max(len(p) for p in paths)):
            groups: dict[tuple[Any, ...], list[Path]] = {}
            for path in paths:
                where = (path[:at], path[at].spec, path[at + 1:]) if len(path) > at else (path,)
                groups.setdefault(where, []).append(path)
            if len(groups) < len(paths):
                merged = True
                paths = [group[0] if len(group) == 1 else
                         (*group[0][:at], Rolled(group[0][at].spec,
                                                 frozenset().union(*(p[at].values
                                                                     for p in group))),
                          *group[0][at + 1:])
                         for group in groups.values()]
    return sorted(paths, key=lambda p: [(r.spec, sorted(r.values)) for r in p])


def essential(paths: list[Path]) -> list[Path]:
    """The paths without the rolls that may show anything there (they constrain nothing), merged
    again: "A: 1 · C: any" and "A: 3" read as "A: 1, 3"."""
    return compact([tuple(step for step in path if step.values != step.spec.every_value())
                    for path in paths])


__all__ = ["GRAINS", "Leaf", "Outcome", "Path", "RollSpec", "Rolled", "compact",
           "decision_of", "essential", "key_of", "tally"]
