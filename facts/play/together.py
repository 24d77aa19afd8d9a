"""Facts the table shows side by side, asked as one question (play.yaml `together:`).

A player reads the bot's resources off one board ("material 2, fuel 1, …"); asked one by one
they are five questions. A pack names such groups as data: `together: {resources: {facts:
[material, fuel, weapon, relic, psionic], ask: "…"}}`. The grouping stays lazy: when the next
question is a fact of a group, the group's other facts that the same walk read (and nobody
gave) come with it, in the group's order, and nothing else; a fact of a group read alone is
asked alone. Each value is checked as its own question checks it; the answer gives every
fact of the group, or, where the game offers last time's values, only what changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whybot.engine import did_you_mean


@dataclass(frozen=True)
class Together:
    """A group: `name` is its question's id, `facts` in the order the player reads them."""

    name: str
    facts: tuple[str, ...]
    ask: str
    help: str = ""


def read_together(reader: Any, data: Any) -> dict[str, Together]:
    """The `together:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.names`): each group's `facts:` (board facts, each in one group) and `ask:`."""
    found: dict[str, Together] = {}
    taken: set[str] = set()
    pack = reader.pack
    for name, spec in reader.mapping(data, ("together",)).items():
        path = ("together", name)
        if name in reader.board or name in pack.facts.judgments or name in reader.lists:
            raise reader.fail(path, f"{name!r} is a fact's own name: name the group otherwise")
        spec = reader.mapping(spec, path)
        for key in spec:
            if key not in ("facts", "ask", "help"):
                raise reader.fail((*path, key), f"unknown key {key!r}",
                                  did_you_mean(str(key), {"facts", "ask", "help"}))
        facts = reader.names(spec.get("facts"), (*path, "facts"), reader.board, "fact")
        if len(facts) < 2 or taken & set(facts):
            raise reader.fail((*path, "facts"), "two or more facts, none of another group")
        if not spec.get("ask"):
            raise reader.fail(path, "a group is asked in the player's words (ask:)")
        taken |= set(facts)
        found[str(name)] = Together(str(name), tuple(facts), str(spec["ask"]),
                                    str(spec.get("help", "")))
    return found


__all__ = ["Together", "read_together"]
