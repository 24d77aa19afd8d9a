"""Named preferences: a Prefer line the pack says once, used by name in any rule.

A pack's `pack.yaml` declares `preferences:` (name → `{says, when}`, as a rule's own `prefer`
item is written); a rule's `prefer:` list may then hold `{use: NAME}`, which reads exactly as
that item written out. The same Faithful-card preference on a hundred lines is then one line
of the pack, and a change to it is made once.
"""

from __future__ import annotations

from typing import Any

from ..errors import RuleFileError, did_you_mean
from .sources import Document

CHOICES = ("select", "target")


def with_named(document: Document, preferences: dict[str, dict[str, Any]]) -> Document:
    """The rule file with each `{use: NAME}` of its rules' Prefer lists written out."""
    data = document.data
    rules = data.get("rules") if isinstance(data, dict) else None
    if not rules or not any(_uses(rule) for rule in rules):
        return document
    written = [_written(rule, preferences, document, ("rules", index))
               for index, rule in enumerate(rules)]
    return Document({**data, "rules": written}, document.file, document.lines, document.parts)


def _uses(rule: Any) -> bool:
    then = rule.get("then") if isinstance(rule, dict) else None
    return isinstance(then, dict) and any(
        isinstance(item, dict) and "use" in item
        for key in CHOICES if isinstance(then.get(key), dict)
        for item in then[key].get("prefer", []) or [])


def _written(rule: dict[str, Any], preferences: dict[str, dict[str, Any]],
             document: Document, path: tuple[str | int, ...]) -> dict[str, Any]:
    if not _uses(rule):
        return rule
    then = dict(rule["then"])
    for key in CHOICES:
        choice = then.get(key)
        if not isinstance(choice, dict) or not choice.get("prefer"):
            continue
        items = []
        for index, item in enumerate(choice["prefer"]):
            if isinstance(item, dict) and "use" in item:
                name = item["use"]
                if name not in preferences:
                    raise RuleFileError(
                        f"unknown preference {name!r}",
                        **document.at((*path, "then", key, "prefer", index, "use")),
                        hint=did_you_mean(str(name), set(preferences)) or
                        "the pack's pack.yaml declares its named preferences (preferences:)")
                item = preferences[name]
            items.append(item)
        then[key] = {**choice, "prefer": items}
    return {**rule, "then": then}


__all__ = ["with_named"]
