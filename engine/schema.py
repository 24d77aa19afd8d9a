"""JSON Schemas of rule files and pack descriptions, published so editors can check YAML.

Validation reports the first problem as `file:line (field path)`, the jsonschema convention.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from .errors import WhybotError
from .sources import Document, json_path

NAME = r"^[a-z][a-z0-9_]*(\.[a-z0-9_{}]+)*$"
RULE_ID = r"^[a-z0-9][a-z0-9_.\-]*$"

_CHOICE = {
    "type": "object",
    "description": "Choose one entity: filter, prefer in order, then order; ties go to the dice.",
    "required": ["from"],
    "additionalProperties": False,
    "properties": {
        "from": {"type": "string", "description": "entity kind, e.g. play or option"},
        "where": {"type": "string", "description": "condition over the entity's fields"},
        "prefer": {"type": "array", "items": {"$ref": "#/$defs/preference"}},
        "order": {"type": "string", "pattern": r"^-?[a-z_][a-z0-9_]*$",
                  "description": "field to maximise (-field) or minimise (field)"},
        "as": {"type": "string", "pattern": r"^[a-z_][a-z0-9_]*$",
               "description": "board prefix the chosen entity's fields are stored under"},
        "says": {"type": "string"},
    },
}

RULE_FILE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://whybot.invalid/schema/rule-file.json",
    "title": "whybot rule file",
    "description": "One page of a bot's procedure (or a Fate, or a house rule), as rules.",
    "type": "object",
    "required": ["pack", "procedure", "rules"],
    "additionalProperties": False,
    "properties": {
        "pack": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "procedure": {"type": "string", "pattern": NAME,
                      "description": "the page this file adds rules to"},
        "title": {"type": "string"},
        "kind": {"enum": ["decision", "derivation"], "default": "decision",
                 "description": "decision: fire the first applicable rule; derivation: "
                                "forward-chain judgments"},
        "salience": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0,
                     "description": "layer: Fates and house rules sit above the base pages"},
        "source": {"type": "string", "description": "seed file § section"},
        "disable": {
            "type": "array",
            "items": {"type": "object", "required": ["id", "reason"],
                      "additionalProperties": False,
                      "properties": {"id": {"type": "string"}, "reason": {"type": "string"}}},
        },
        "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
    },
    "$defs": {
        "preference": {
            "oneOf": [
                {"type": "string", "description": "guidance shown to the player"},
                {"type": "object", "required": ["says"], "additionalProperties": False,
                 "properties": {"says": {"type": "string"}, "when": {"type": "string"}}},
            ],
        },
        "choice": _CHOICE,
        "rule": {
            "type": "object",
            "required": ["id", "priority", "when", "then"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": RULE_ID},
                "priority": {"type": "number", "minimum": 0,
                             "description": "the seed's own order or bracket number; lower first"},
                "when": {"type": ["string", "boolean"], "description": "condition"},
                "then": {"$ref": "#/$defs/outcome"},
                "says": {"type": "string", "description": "the seed's question, verbatim"},
                "cite": {"type": "string", "description": "§ section or [bracket] in the source"},
                "replaces": {"type": "string", "description": "id of the rule this one replaces"},
            },
        },
        "outcome": {
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {
                "action": {"type": "string", "description": "what the bot does"},
                "goal": {"type": "string"},
                "suit": {"type": "string"},
                "details": {"type": "string"},
                "prefer": {"type": "array", "items": {"$ref": "#/$defs/preference"}},
                "target": {"$ref": "#/$defs/choice"},
                "select": {"$ref": "#/$defs/choice"},
                "roll": {"type": "object", "required": ["dice", "as"],
                         "additionalProperties": False,
                         "properties": {"dice": {"type": "string", "pattern": r"^\d*d\d+$"},
                                        "as": {"type": "string", "pattern": NAME},
                                        "says": {"type": "string"}}},
                "set": {"type": "object", "additionalProperties": {"type": ["string", "number",
                                                                            "boolean"]}},
                "say": {"type": "string", "description": "an instruction for the player"},
                "call": {"type": "string", "description": "run this page, then read on here"},
                "goto": {"type": "string", "description": "go to this page for good"},
                "continue": {"type": "boolean", "description": "a statement: read on"},
                "stop": {"type": "string", "description": "the turn ends here, with this result"},
                "budget": {"type": "string", "description": "how many actions this page may use"},
                "compute": {"type": "string",
                            "description": "call the pack's computation of this name"},
                "rederive": {"type": "boolean",
                             "description": "derive the judgments again from the board now"},
                "each": {"type": "object", "required": ["from", "call"],
                         "additionalProperties": False,
                         "description": "run a page once per entity, fields bound under `as`",
                         "properties": {"from": {"type": "string"}, "where": {"type": "string"},
                                        "order": {"type": "string"},
                                        "as": {"type": "string",
                                               "pattern": r"^[a-z_][a-z0-9_]*$"},
                                        "call": {"type": "string"}}},
                "judge": {"type": "string", "pattern": NAME,
                          "description": "derivations: the judgment this rule establishes"},
                "value": {"type": ["string", "number", "boolean"]},
            },
        },
    },
}

_FIELD = {
    "type": "object",
    "required": ["type"],
    "additionalProperties": False,
    "properties": {
        "type": {"enum": ["integer", "number", "boolean", "string"]},
        "says": {"type": "string"},
        "enum": {"type": "array"},
        "minimum": {"type": "number"},
        "maximum": {"type": "number"},
        "default": {},
        "required": {"type": "boolean"},
        "computed": {"type": "boolean", "description": "filled in by a pack function"},
    },
}

PACK_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "whybot pack description (pack.yaml)",
    "type": "object",
    "required": ["pack", "title", "start", "facts"],
    "additionalProperties": False,
    "properties": {
        "pack": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "title": {"type": "string"},
        "start": {"type": "string", "description": "the page a decision starts on"},
        "seeds": {"type": "object", "additionalProperties": {"type": "string"}},
        "functions": {"type": "string", "description": "module of computations (built-in packs)"},
        "settings": {"type": "object"},
        "data": {"type": "object"},
        "facts": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "board": {"type": "object", "additionalProperties": _FIELD},
                "variables": {"type": "object", "additionalProperties": _FIELD},
                "judgments": {"type": "object", "additionalProperties": {"type": "string"}},
                "computed": {"type": "array", "items": {"type": "string"}},
                "entities": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["from", "fields"],
                        "additionalProperties": False,
                        "properties": {
                            "from": {"type": "string"},
                            "says": {"type": "string"},
                            "label": {"type": "string",
                                      "description": "the field that names one in a trace"},
                            "fields": {"type": "object", "additionalProperties": _FIELD},
                        },
                    },
                },
            },
        },
    },
}


def validate(document: Document, schema: dict[str, Any], error: type[WhybotError]) -> None:
    """Raise the first schema violation as one line naming file, line and field path."""
    problems = list(iter_problems(document, schema, error))
    if problems:
        raise problems[0]


def iter_problems(document: Document, schema: dict[str, Any], error: type[WhybotError]):
    validator = jsonschema.Draft202012Validator(schema)
    found = sorted(validator.iter_errors(document.data), key=lambda e: list(map(str, e.path)))
    for problem in found:
        path = tuple(problem.absolute_path)
        yield error(_message(problem), file=document.file, line=document.line(path),
                    path=json_path(path))


def _message(problem: jsonschema.ValidationError) -> str:
    if problem.validator == "additionalProperties":
        return problem.message.replace("Additional properties are not allowed", "unknown field")
    if problem.validator == "oneOf" and problem.context:
        return min(problem.context, key=lambda e: len(e.message)).message
    return problem.message
