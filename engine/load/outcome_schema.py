"""The JSON Schema of a rule's outcome (`then:`), with the name patterns and parts the rule-file
and pack schemas (`schema.py`) share."""

from __future__ import annotations

from typing import Any

from ..language.action_fields import GENERIC_FIELDS

NAME = r"^[a-z][a-z0-9_]*(\.[a-z0-9_{}]+)*$"


RULE_ID = r"^[a-z0-9][a-z0-9_.\-]*$"


IDENT = r"^[a-z_][a-z0-9_]*$"


TEXT = {"type": "string"}


ACTIONS = {"type": "array", "items": {"type": "string", "pattern": IDENT}, "uniqueItems": True}


EXPR = {"type": ["string", "number", "boolean"], "description": "a value or a condition"}


_ORDER = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "field(s) to order by: `-number` highest first, `rank` lowest first; "
                         "later keys break ties"}


PREFERENCE_ITEM = {"type": "object", "required": ["says"], "additionalProperties": False,
                    "properties": {"says": TEXT, "when": EXPR}}


_PREFERENCE = {
    "oneOf": [
        {"type": "string", "description": "guidance shown to the player"},
        PREFERENCE_ITEM,
        {"type": "object", "required": ["use"], "additionalProperties": False,
         "properties": {"use": {"type": "string", "description": "a preference the pack "
                                                                 "names (preferences:)"}}},
    ],
}


_CHOICE = {
    "type": "object",
    "description": "Choose one entity: filter (`where`), prefer in order, then order keys; "
                   "ties go to the dice. The rule applies only if a candidate exists.",
    "additionalProperties": False,
    "properties": {
        "from": {"type": "string", "description": "entity kind, e.g. play or option"},
        "where": {**EXPR, "description": "condition over the entity's own fields"},
        "prefer": {"type": "array", "items": _PREFERENCE},
        "order": _ORDER,
        "as": {"type": "string", "pattern": IDENT,
               "description": "board prefix the chosen entity's fields are stored under"},
        "says": TEXT,
        "optional": {"type": "boolean",
                     "description": "the rule applies even with no candidate: then nothing is "
                                    "chosen (the alias is unbound) and the trace says so"},
        "replace": {"type": "boolean",
                    "description": "this `where` replaces the file's default `where` instead "
                                   "of being added to it"},
    },
}


_ASSIGNS = {"type": "object", "additionalProperties": EXPR}


OUTCOME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "action": {"type": "string", "description": "what the bot does"},
        **GENERIC_FIELDS.schema(),
        "prefer": {"type": "array", "items": _PREFERENCE},
        "target": _CHOICE,
        "select": _CHOICE,
        "roll": {"type": "object", "required": ["dice", "as"], "additionalProperties": False,
                 "properties": {"dice": {"type": "string",
                                         "description": "2d6, or {NAME}d6 for a count read "
                                                        "from the board"},
                                "as": {"type": "string", "pattern": NAME}, "says": TEXT,
                                "success": {**EXPR, "description": "count the dice whose "
                                            "`face` satisfies this (face >= 4) instead of "
                                            "adding them up"}}},
        "draw": {"type": "object", "required": ["from", "as"], "additionalProperties": False,
                 "description": "draw one item at random from a counted pool (a bag of "
                                "cubes): one d(total), the items counted in the order listed",
                 "properties": {"from": {"type": "object", "minProperties": 1,
                                         "propertyNames": {"pattern": IDENT},
                                         "additionalProperties": EXPR,
                                         "description": "{NAME: count}: how many of each "
                                                        "(a value read from the board)"},
                                "as": {"type": "string", "pattern": NAME,
                                       "description": "gets the NAME drawn"},
                                "says": TEXT}},
        "set": {**_ASSIGNS, "description": "board values (turn variables) to set"},
        "update": {"type": "object", "additionalProperties": _ASSIGNS,
                   "description": "fields of a bound entity to change: {ALIAS: {field: value}}"},
        "distribute": {
            "type": "object", "required": ["amount", "over", "field"],
            "additionalProperties": False,
            "description": "spread an amount evenly over entities (leftovers one each, in "
                           "order; caps respected)",
            "properties": {"amount": EXPR, "over": TEXT, "where": EXPR, "order": _ORDER,
                           "field": {"type": "string", "pattern": IDENT},
                           "cap": {"type": "string"}, "rest": {"type": "string",
                                                               "pattern": NAME},
                           "even": {"type": "boolean",
                                    "description": "only the even shares: the leftovers go "
                                                   "to `rest` (spread them later, in an "
                                                   "order decided then)"},
                           "says": TEXT}},
        "remove": {"type": "string", "pattern": r"^[a-z_][a-z0-9_]*\??$",
                   "description": "the bound entity is used up (gone for the rest of the turn)"},
        "say": {"type": "string", "description": "an instruction for the player"},
        "snapshot": {"type": "string",
                     "description": "with say: the same instruction for whoever writes "
                                    "snapshots by hand (the fields to give); decide and why "
                                    "show it, the table does not"},
        "call": {"type": "string", "description": "read this page, then read on here"},
        "missing": {"type": "string",
                    "description": "if the called page does not exist (a module with no section "
                                   "for this Act), note this and read on"},
        "goto": {"type": "string", "description": "go to this page for good"},
        "choose": {"oneOf": [{"type": "string", "pattern": IDENT},
                             {"type": "array", "items": {"type": "string", "pattern": IDENT}}],
                   "description": "with call: read that page only to choose — the first rule "
                                  "there that applies makes its choices bound as these "
                                  "aliases and its set: of these variables, nothing else, "
                                  "and the page ends"},
        "continue": {"type": "boolean", "description": "a statement: read on"},
        "stop": {"type": "string", "description": "the turn ends here, with this result"},
        "rederive": {"type": "boolean",
                     "description": "derive the judgments again from the board now"},
        "each": {"type": "object", "required": ["from", "call"], "additionalProperties": False,
                 "description": "read a page once per entity, its fields bound under `as`",
                 "properties": {"from": TEXT, "where": EXPR, "order": _ORDER,
                                "as": {"type": "string", "pattern": IDENT}, "call": TEXT}},
        "judge": {"type": "string", "pattern": NAME,
                  "description": "derivations: the judgment established (a board judgment, "
                                 "or ALIAS.FIELD of an entity the condition binds)"},
        "value": {**EXPR, "description": "derivations: the value judged (default true)"},
        "create": {"type": "string", "description": "derivations: create an entity of this "
                                                    "kind"},
        "with": {**_ASSIGNS, "description": "the created entity's fields"},
    },
}
