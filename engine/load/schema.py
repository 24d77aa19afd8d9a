"""JSON Schemas of rule files and pack descriptions, published so editors can check YAML
(a rule's outcome: `outcome_schema.py`; checking a document against one: `validation.py`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..language.action_fields import SHOWN, TYPES, ActionFields
from .outcome_schema import (
    ACTIONS,
    EXPR,
    IDENT,
    NAME,
    OUTCOME_SCHEMA,
    PREFERENCE_ITEM,
    RULE_ID,
    TEXT,
)

_REFERENCE = r"^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$"

_FIELD = {
    "type": "object",
    "required": ["type"],
    "additionalProperties": False,
    "properties": {
        "type": {"enum": ["integer", "number", "boolean", "string"]},
        "says": TEXT,
        "enum": {"type": "array"},
        "minimum": {"type": "number"},
        "maximum": {"type": "number"},
        "default": {},
        "required": {"type": "boolean"},
        "derived": {"type": "boolean", "description": "established by derivation rules"},
        "pages": {"type": "string", "description": "also valid: every X that names a page "
                                                   "like this ({} for X), e.g. fate.{}."},
        "assumed": {"type": "boolean",
                    "description": "false: the default is the seed's own, not an assumption"},
        "refers": {"oneOf": [{"type": "string", "pattern": _REFERENCE},
                             {"type": "array", "items": {"type": "string",
                                                         "pattern": _REFERENCE}}],
                   "description": "a given value must be the KIND.FIELD of a listed entity "
                                  "(or one of the field's enum values, or its default)"},
        "unique": {"type": "boolean",
                   "description": "entity fields: no two entities of the kind share a value"},
        "required_when": {"type": "string",
                          "description": "a condition over board observations: when it holds, "
                                         "the snapshot must give this value"},
    },
}


FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "board": {"type": "object", "additionalProperties": _FIELD},
        "variables": {"type": "object", "additionalProperties": _FIELD},
        "judgments": {"type": "object", "additionalProperties": {
            "oneOf": [TEXT, _FIELD]}},
        "entities": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["fields"],
                "additionalProperties": False,
                "properties": {
                    "from": {"type": "string",
                             "description": "the snapshot key listing them"},
                    "created": {"type": "boolean",
                                "description": "no snapshot lists them: rules create "
                                               "them"},
                    "says": TEXT,
                    "label": {"oneOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string"}, "minItems": 1,
                         "uniqueItems": True}],
                        "description": "the field (or fields, in order) that name one in a "
                                       "trace"},
                    "fields": {"type": "object", "additionalProperties": _FIELD},
                },
            },
        },
    },
}


RULE_FILE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://whybot.invalid/schema/rule-file.json",
    "title": "whybot rule file",
    "description": "One page of a bot's procedure (or of an optional module, or a house "
                   "rule), as rules.",
    "type": "object",
    "required": ["procedure"],  # pack: a pack's own files take their folder's
    # a file that only drops rules (`disable:`) needs no `rules:`
    "if": {"not": {"required": ["disable"]}},
    "then": {"required": ["rules"]},
    "additionalProperties": False,
    "properties": {
        "pack": {"type": "string", "pattern": IDENT,
                 "description": "the pack it belongs to (a pack's own files: their folder's; "
                                "a house-rule file says it)"},
        "procedure": {"type": "string", "pattern": NAME,
                      "description": "the page this file adds rules to"},
        "title": TEXT,
        "kind": {"enum": ["decision", "derivation"], "default": "decision",
                 "description": "decision: fire the first applicable rule; derivation: "
                                "forward-chain judgments"},
        "salience": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0,
                     "description": "layer: optional modules and house rules sit above "
                                    "the base pages"},
        "source": {"type": "string", "description": "seed file § section"},
        "facts": {**FACTS_SCHEMA, "description": "observations, judgments, variables and "
                                                 "entity fields this file adds to the pack"},
        "actions": {**ACTIONS, "description": "actions this file's rules take that the pack "
                                               "does not declare (a house page's own)"},
        "repeat_while": {**EXPR, "description": "after an action, read the page again from "
                                                 "the top while this holds"},
        "after_action": {**OUTCOME_SCHEMA, "description": "effects applied after every action "
                                                          "of this page (before repeat_while "
                                                          "is checked): what one action uses up"},
        "defaults": {"type": "object", "additionalProperties": False,
                     "description": "what every rule's select/target/each of this file "
                                    "starts from (a rule's own keys win)",
                     "properties": {"select": {"type": "object"},
                                    "target": {"type": "object"},
                                    "each": {"type": "object"}}},
        "template": {"type": "string", "pattern": NAME,
                     "description": "the pack's page template this page takes (default: the "
                                    "first whose pages match its procedure; none: no "
                                    "template)"},
        "disable": {
            "type": "array",
            "items": {"type": "object", "required": ["id", "reason"],
                      "additionalProperties": False,
                      "properties": {"id": {"type": "string"}, "reason": TEXT}},
        },
        "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
    },
    "$defs": {
        "rule": {
            "type": "object",
            "required": ["id", "then"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": RULE_ID},
                "priority": {"type": "number", "minimum": 0,
                             "description": "the seed's own number for this line ([23], "
                                            "priority=4), shown in traces; rules are "
                                            "considered in the order of the file"},
                "when": {"type": ["string", "boolean"], "description": "condition"},
                "then": OUTCOME_SCHEMA,
                "says": {"type": "string", "description": "the seed's question, verbatim"},
                "cite": {"type": "string", "description": "§ section or [bracket] in the source"},
                "replaces": {"type": "string", "description": "id of the rule this one "
                                                              "replaces, in its place"},
                "before": {"type": "string", "description": "insert just before this rule"},
                "after": {"type": "string", "description": "insert just after this rule"},
            },
        },
    },
}

PACK_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "whybot pack description (pack.yaml)",
    "type": "object",
    "required": ["pack", "title", "start", "facts"],
    "additionalProperties": False,
    "properties": {
        "pack": {"type": "string", "pattern": IDENT},
        "title": TEXT,
        "start": {"type": "string", "description": "the page a decision starts on"},
        "seeds": {"type": "object", "additionalProperties": {"type": "string"}},
        "presentation": {
            "type": "object", "additionalProperties": False,
            "description": "how a decision of this pack reads: its headline and batch columns",
            "properties": {
                "lead": {"type": "array", "items": TEXT,
                         "description": "fields that name a chosen entity first"},
                "choices": {"type": "object", "additionalProperties": TEXT,
                            "description": "what a choice alias is called (selected: card)"},
                "columns": {"type": "object", "additionalProperties": TEXT,
                            "description": "batch row column → the choice alias it shows"},
            },
        },
        "coverage": {"type": "object", "description": "seed sections deliberately not encoded"},
        "check": {
            "type": "object", "additionalProperties": False,
            "description": "`rules check` findings the seed intends",
            "properties": {"excused": {
                "type": "object",
                "description": "finding (`gap PAGE`, `conflict RULE / RULE`, ...) → why the "
                               "seed intends it, and where it says so",
                "additionalProperties": {
                    "type": "object", "required": ["reason", "cite"],
                    "additionalProperties": False,
                    "properties": {"reason": TEXT, "cite": TEXT}}}}},
        "preferences": {"type": "object", "additionalProperties": PREFERENCE_ITEM,
                        "description": "Prefer lines rules use by name ({use: NAME})"},
        "templates": {
            "type": "object",
            "description": "page templates: what a kind of page says once "
                           "(engine/load/page_templates.py)",
            "additionalProperties": {
                "type": "object", "required": ["pages"], "additionalProperties": False,
                "properties": {
                    "pages": {"oneOf": [{"type": "string"},
                                        {"type": "array", "items": {"type": "string"},
                                         "minItems": 1}],
                              "description": "the pages it applies to: names or patterns "
                                             "(fate.*)"},
                    "says": TEXT,
                    "salience": RULE_FILE_SCHEMA["properties"]["salience"],
                    "repeat_while": RULE_FILE_SCHEMA["properties"]["repeat_while"],
                    "after_action": RULE_FILE_SCHEMA["properties"]["after_action"],
                    "defaults": RULE_FILE_SCHEMA["properties"]["defaults"],
                    "new": {"type": "object", "required": ["page", "rules", "example"],
                            "additionalProperties": False,
                            "description": "what `whybot rules new` writes for this kind of "
                                           "page ({name}, {Name}: the name given)",
                            "properties": {"page": {"type": "string"}, "title": TEXT,
                                           "source": TEXT, "rules": {"type": "array"},
                                           "example": {"type": "object"}}},
                },
            },
        },
        "actions": {**ACTIONS, "description": "every action the pack's rules take (`action:`); "
                                               "`rules lint` and loading refuse any other"},
        "action_fields": {
            "type": "object", "propertyNames": {"pattern": IDENT},
            "description": "what this pack's actions carry besides the generic goal, details "
                           "and budget: NAME → its type and where a decision shows it",
            "additionalProperties": {
                "type": "object", "required": ["type"], "additionalProperties": False,
                "properties": {"type": {"type": "string", "description": " | ".join(TYPES)},
                               "shown": {"type": "string", "default": "line",
                                         "description": " | ".join(SHOWN)},
                               "says": TEXT}}},
        "facts": FACTS_SCHEMA,
    },
}


@cache
def rule_file_schema(fields: ActionFields) -> dict[str, Any]:
    """The rule-file schema of a pack: its rules' actions may also carry its own fields."""
    if not fields.declared:
        return RULE_FILE_SCHEMA
    outcome = {**OUTCOME_SCHEMA, "properties": {**OUTCOME_SCHEMA["properties"],
                                                **fields.schema()}}
    rule = RULE_FILE_SCHEMA["$defs"]["rule"]
    return {**RULE_FILE_SCHEMA, "$defs": {"rule": {**rule, "properties": {
        **rule["properties"], "then": outcome}}}}
