"""JSON Schemas of rule files and pack descriptions, published so editors can check YAML.

Validation reports the first problem as `file:line (field path)`, the jsonschema convention;
`rules lint` reports them all. Validators are built once per schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any, TypeVar

from .action_fields import GENERIC_FIELDS, SHOWN, TYPES, ActionFields
from .errors import WhybotError
from .sources import Document, json_path

_Error = TypeVar("_Error", bound=WhybotError)

NAME = r"^[a-z][a-z0-9_]*(\.[a-z0-9_{}]+)*$"
RULE_ID = r"^[a-z0-9][a-z0-9_.\-]*$"
IDENT = r"^[a-z_][a-z0-9_]*$"
_REFERENCE = r"^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$"
_TEXT = {"type": "string"}
_ACTIONS = {"type": "array", "items": {"type": "string", "pattern": IDENT}, "uniqueItems": True}
_EXPR = {"type": ["string", "number", "boolean"], "description": "a value or a condition"}
_ORDER = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "field(s) to order by: `-number` highest first, `rank` lowest first; "
                         "later keys break ties"}
_PREFERENCE_ITEM = {"type": "object", "required": ["says"], "additionalProperties": False,
                    "properties": {"says": _TEXT, "when": _EXPR}}
_PREFERENCE = {
    "oneOf": [
        {"type": "string", "description": "guidance shown to the player"},
        _PREFERENCE_ITEM,
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
        "where": {**_EXPR, "description": "condition over the entity's own fields"},
        "prefer": {"type": "array", "items": _PREFERENCE},
        "order": _ORDER,
        "as": {"type": "string", "pattern": IDENT,
               "description": "board prefix the chosen entity's fields are stored under"},
        "says": _TEXT,
        "optional": {"type": "boolean",
                     "description": "the rule applies even with no candidate: then nothing is "
                                    "chosen (the alias is unbound) and the trace says so"},
        "replace": {"type": "boolean",
                    "description": "this `where` replaces the file's default `where` instead "
                                   "of being added to it"},
    },
}
_ASSIGNS = {"type": "object", "additionalProperties": _EXPR}

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
                                "as": {"type": "string", "pattern": NAME}, "says": _TEXT,
                                "success": {**_EXPR, "description": "count the dice whose "
                                            "`face` satisfies this (face >= 4) instead of "
                                            "adding them up"}}},
        "draw": {"type": "object", "required": ["from", "as"], "additionalProperties": False,
                 "description": "draw one item at random from a counted pool (a bag of "
                                "cubes): one d(total), the items counted in the order listed",
                 "properties": {"from": {"type": "object", "minProperties": 1,
                                         "propertyNames": {"pattern": IDENT},
                                         "additionalProperties": _EXPR,
                                         "description": "{NAME: count}: how many of each "
                                                        "(a value read from the board)"},
                                "as": {"type": "string", "pattern": NAME,
                                       "description": "gets the NAME drawn"},
                                "says": _TEXT}},
        "set": {**_ASSIGNS, "description": "board values (turn variables) to set"},
        "update": {"type": "object", "additionalProperties": _ASSIGNS,
                   "description": "fields of a bound entity to change: {ALIAS: {field: value}}"},
        "distribute": {
            "type": "object", "required": ["amount", "over", "field"],
            "additionalProperties": False,
            "description": "spread an amount evenly over entities (leftovers one each, in "
                           "order; caps respected)",
            "properties": {"amount": _EXPR, "over": _TEXT, "where": _EXPR, "order": _ORDER,
                           "field": {"type": "string", "pattern": IDENT},
                           "cap": {"type": "string"}, "rest": {"type": "string",
                                                               "pattern": NAME},
                           "even": {"type": "boolean",
                                    "description": "only the even shares: the leftovers go "
                                                   "to `rest` (spread them later, in an "
                                                   "order decided then)"},
                           "says": _TEXT}},
        "remove": {"type": "string", "pattern": r"^[a-z_][a-z0-9_]*\??$",
                   "description": "the bound entity is used up (gone for the rest of the turn)"},
        "say": {"type": "string", "description": "an instruction for the player"},
        "call": {"type": "string", "description": "read this page, then read on here"},
        "missing": {"type": "string",
                    "description": "if the called page does not exist (a Fate with no section "
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
                 "properties": {"from": _TEXT, "where": _EXPR, "order": _ORDER,
                                "as": {"type": "string", "pattern": IDENT}, "call": _TEXT}},
        "judge": {"type": "string", "pattern": NAME,
                  "description": "derivations: the judgment established (a board judgment, "
                                 "or ALIAS.FIELD of an entity the condition binds)"},
        "value": {**_EXPR, "description": "derivations: the value judged (default true)"},
        "create": {"type": "string", "description": "derivations: create an entity of this "
                                                    "kind"},
        "with": {**_ASSIGNS, "description": "the created entity's fields"},
    },
}

_FIELD = {
    "type": "object",
    "required": ["type"],
    "additionalProperties": False,
    "properties": {
        "type": {"enum": ["integer", "number", "boolean", "string"]},
        "says": _TEXT,
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
            "oneOf": [_TEXT, _FIELD]}},
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
                    "says": _TEXT,
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
    "description": "One page of a bot's procedure (or a Fate, or a house rule), as rules.",
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
        "title": _TEXT,
        "kind": {"enum": ["decision", "derivation"], "default": "decision",
                 "description": "decision: fire the first applicable rule; derivation: "
                                "forward-chain judgments"},
        "salience": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0,
                     "description": "layer: Fates and house rules sit above the base pages"},
        "source": {"type": "string", "description": "seed file § section"},
        "facts": {**FACTS_SCHEMA, "description": "observations, judgments, variables and "
                                                 "entity fields this file adds to the pack"},
        "actions": {**_ACTIONS, "description": "actions this file's rules take that the pack "
                                               "does not declare (a house Fate's own)"},
        "repeat_while": {**_EXPR, "description": "after an action, read the page again from "
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
                      "properties": {"id": {"type": "string"}, "reason": _TEXT}},
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
        "title": _TEXT,
        "start": {"type": "string", "description": "the page a decision starts on"},
        "seeds": {"type": "object", "additionalProperties": {"type": "string"}},
        "presentation": {
            "type": "object", "additionalProperties": False,
            "description": "how a decision of this pack reads: its headline and batch columns",
            "properties": {
                "lead": {"type": "array", "items": _TEXT,
                         "description": "fields that name a chosen entity first"},
                "choices": {"type": "object", "additionalProperties": _TEXT,
                            "description": "what a choice alias is called (selected: card)"},
                "columns": {"type": "object", "additionalProperties": _TEXT,
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
                    "properties": {"reason": _TEXT, "cite": _TEXT}}}}},
        "preferences": {"type": "object", "additionalProperties": _PREFERENCE_ITEM,
                        "description": "Prefer lines rules use by name ({use: NAME})"},
        "templates": {
            "type": "object",
            "description": "page templates: what a kind of page says once (engine/templates.py)",
            "additionalProperties": {
                "type": "object", "required": ["pages"], "additionalProperties": False,
                "properties": {
                    "pages": {"oneOf": [{"type": "string"},
                                        {"type": "array", "items": {"type": "string"},
                                         "minItems": 1}],
                              "description": "the pages it applies to: names or patterns "
                                             "(fate.*)"},
                    "says": _TEXT,
                    "salience": RULE_FILE_SCHEMA["properties"]["salience"],
                    "repeat_while": RULE_FILE_SCHEMA["properties"]["repeat_while"],
                    "after_action": RULE_FILE_SCHEMA["properties"]["after_action"],
                    "defaults": RULE_FILE_SCHEMA["properties"]["defaults"],
                    "new": {"type": "object", "required": ["page", "rules", "example"],
                            "additionalProperties": False,
                            "description": "what `whybot rules new` writes for this kind of "
                                           "page ({name}, {Name}: the name given)",
                            "properties": {"page": {"type": "string"}, "title": _TEXT,
                                           "source": _TEXT, "rules": {"type": "array"},
                                           "example": {"type": "object"}}},
                },
            },
        },
        "actions": {**_ACTIONS, "description": "every action the pack's rules take (`action:`); "
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
                               "says": _TEXT}}},
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


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def _validator(schema: dict[str, Any]) -> Any:
    """One validator per schema (a module's constant), built when first used."""
    import jsonschema

    found = _VALIDATORS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _VALIDATORS[id(schema)] = schema, jsonschema.Draft202012Validator(schema)
    return found[1]


def validate(document: Document, schema: dict[str, Any], error: type[WhybotError]) -> None:
    """Raise the first schema violation as one line naming file, line and field path."""
    for problem in iter_problems(document, schema, error):
        raise problem


def iter_problems(document: Document, schema: dict[str, Any], error: type[_Error],
                  ) -> Iterator[_Error]:
    found = sorted(_validator(schema).iter_errors(document.data),
                   key=lambda e: list(map(str, e.path)))
    for problem in found:
        path = tuple(problem.absolute_path)
        yield error(_message(problem), file=document.file, line=document.line(path),
                    path=json_path(path))


def _message(problem: Any) -> str:
    if problem.validator == "additionalProperties":
        return problem.message.replace("Additional properties are not allowed", "unknown field")
    if problem.validator == "oneOf" and problem.context:
        return min(problem.context, key=lambda e: len(e.message)).message
    return problem.message
