"""The JSON Schema of a game file: the shape and type of every field whybot reads from it.

Reading a game file validates it against `GAME_FILE_SCHEMA` once (the first problem, as
`file:line ($.field.path)`), so no later code meets a value of the wrong type; what only the
pack can say (which facts, kinds and fields exist, each value's range) is checked after it, in
`game_check.py`. A field the format gains is added here, in its part below, and to `as_data`.
"""

from __future__ import annotations

from typing import Any

from whybot.engine import Document, WhybotError, validate

_NAME = {"type": "string", "minLength": 1}
_TEXT = {"type": "string"}
_NAMES = {"type": "array", "items": _TEXT}
_ANY: dict[str, Any] = {}  # any value: the pack's check of its field says more
_SCALAR = {"type": ["string", "integer", "number", "boolean", "null"]}


def _keyed(values: dict[str, Any], what: str) -> dict[str, Any]:
    """A mapping from names to `values`."""
    return {"type": "object", "propertyNames": _NAME, "additionalProperties": values,
            "description": what}


_FACTS = _keyed(_ANY, "kept facts by name: the pack's facts, each of its type and range")
_KEPT = _keyed(_ANY, "kept by name: the pack's facts, each of its type and range, and lists "
                     "of its entities fixed for the game (the optional modifiers)")
_ENTITIES = _keyed(_keyed(_keyed(_FACTS, "by label: the kept fields of one entity"),
                          "by entity kind"),
                   "by owner: `game`, or a bot")
_CARRIED = _keyed(_ANY, "what a stopped card carries to its bot's next play: facts of the "
                        "pack, and lists of its entities")

CHANGE = {
    "type": "object", "required": ["path", "after"], "additionalProperties": False,
    "description": "one value the turn set: `undo` sets `before` back (removes it if absent)",
    "properties": {"path": {"type": "array", "items": _NAME, "minItems": 2, "maxItems": 5},
                   "before": _ANY, "after": _ANY},
}
DECISION = {
    "type": "object", "additionalProperties": False,
    "description": "the decision in short (what the log lists and a replay compares)",
    "properties": {
        "result": _TEXT,
        "choices": _keyed(_TEXT, "each choice alias, and the label of what it chose"),
        "actions": {"type": "array", "items": {
            "type": "object", "required": ["action"], "additionalProperties": False,
            "properties": {"action": _TEXT, "rule": {"type": ["string", "null"]},
                           "target": _TEXT}}},
        "fired": _NAMES,
    },
}
TURN: dict[str, Any] = {
    "type": "object", "required": ["turn", "bot", "snapshot", "decision"],
    "additionalProperties": False,
    "properties": {
        "turn": {"type": "integer"}, "bot": _NAME, "point": _SCALAR,
        "asked": {"type": "array", "items": {
            "type": "object", "required": ["id", "value"], "additionalProperties": False,
            "properties": {"id": _NAME, "value": _ANY, "said": {
                "type": "object", "description": "what the answer said of each question it "
                "answered: a pick of the first of several, the one picked yes and those above "
                "it no; a page after an action, each judgment on it (yes/no, or a count)",
                "additionalProperties": {"type": ["boolean", "integer", "number"]}},
                "target": {"type": "object", "description": "what its yeses pick, by the "
                           "judgment answered yes, as the player named it (the action's target)",
                           "additionalProperties": {"type": "string", "minLength": 1}},
                "after": {"type": "integer", "minimum": 1, "description": "with a target: "
                          "the actions taken before its yes"}}}},
        "unasked": {"type": "array", "description": "answers the table gave, not the player",
                    "items": {"type": "object", "required": ["id", "after", "value", "why"],
                              "additionalProperties": False,
                              "properties": {"id": _NAME, "after": {"type": "integer"},
                                             "value": _ANY, "why": _TEXT}}},
        "given": {"type": "object", "description": "kept facts the player gave again, not "
                                                    "asked (a turn decided again is given them)"},
        "flow": {"type": "object", "description": "the flow's questions answered on the way "
                                                   "to the turn (a turn decided again is "
                                                   "offered the same)"},
        "snapshot": {"type": "object", "description": "checked as a snapshot of the pack when "
                                                      "the turn is decided again"},
        "decision": DECISION,
        "dice": {"type": "array", "items": {"type": "integer"}},
        "changes": {"type": "array", "items": CHANGE},
        "tells": {"type": "object", "description": "what the turn told the rest of its "
                                                    "round (play.yaml round:)"},
        "carried": {"type": "object", "additionalProperties": False,
                    "properties": {"before": _CARRIED, "after": _CARRIED}},
    },
}

GAME_FILE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "whybot game file",
    "type": "object",
    "required": ["whybot", "version", "pack", "seed", "revision", "bots", "state"],
    "additionalProperties": False,
    "properties": {
        "whybot": {"const": "whybot game"}, "version": {"const": 1},  # KIND and VERSION
        "pack": _NAME,
        "name": {"type": ["string", "null"]},
        "rules": {**_NAMES, "type": ["array", "null"]},
        "include": {**_NAMES, "type": ["array", "null"]},
        "seed": {"type": "integer"}, "revision": {"type": "integer"},
        "bots": {"type": "array", "items": _NAME, "minItems": 1, "uniqueItems": True},
        "state": {"type": "object", "additionalProperties": False, "properties": {
            "game": _KEPT, "bots": _keyed(_KEPT, "by bot"), "entities": _ENTITIES,
            "said": _keyed(_CARRIED, "by owner (`game`, or a bot): what the player said last "
                                     "that holds until the table changes (offered as defaults)"),
        }},
        "pending": {**_keyed(_CARRIED, "by bot"), "type": ["object", "null"]},
        "log": {"type": ["array", "null"], "items": TURN},
        "undone": {"type": ["array", "null"], "items": TURN,
                   "description": "turns `undo` took back, newest last: what `redo` puts back"},
    },
}


def check_shape(document: Document, error: type[WhybotError]) -> None:
    """The first schema problem of a parsed game file, as one line (file:line, field path)."""
    validate(document, GAME_FILE_SCHEMA, error)


__all__ = ["GAME_FILE_SCHEMA", "TURN", "check_shape"]
