"""The JSON Schema of a pack's snapshots, published by `whybot facts schema` for editors.

whybot itself checks snapshots with `values.py` (faster, and its messages name the field);
a test checks that both accept the same snapshots.
"""

from __future__ import annotations

from typing import Any

from whybot.engine import FieldSpec, Pack

from .values import LIMIT

_JSON = {"integer": "integer", "number": "number", "boolean": "boolean", "string": "string"}


def field_schema(spec: FieldSpec, pack: Pack) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": _JSON[spec.type]}
    if spec.says:
        schema["description"] = spec.says
    allowed = pack.allowed(spec)
    if allowed is not None and not spec.refers:  # names of listed entities are allowed too
        schema["enum"] = allowed
    if spec.type in ("integer", "number"):
        schema["minimum"] = spec.minimum if spec.minimum is not None else -LIMIT
        schema["maximum"] = spec.maximum if spec.maximum is not None else LIMIT
    if spec.default is not None:
        schema["default"] = spec.default
    return schema


def snapshot_schema(pack: Pack) -> dict[str, Any]:
    """The JSON Schema of a snapshot for this pack."""
    facts = pack.facts
    answers = {"type": "object",
               "description": "judgments given directly, overriding their derivation",
               "additionalProperties": False,
               "properties": {name: field_schema(spec, pack)
                              for name, spec in facts.judgments.items()}}
    properties: dict[str, Any] = {
        "pack": {"const": pack.name},
        "name": {"type": "string"},
        "notes": {"type": "string"},
        "expect": {"type": "object", "description": "the expected decision (for tests)"},
        "include": {"type": ["string", "array"], "items": {"type": "string"},
                    "description": "files of observations to merge in (e.g. the map)"},
        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1},
                 "description": "pre-rolled dice, used in order before any seeded roll"},
        "answers": answers,
        "answers_after": {"type": "array", "items": answers,
                          "description": "judgments as the table stands after each action: "
                                         "the i-th map holds from the (i+1)-th action on"},
    }
    required = ["pack"]
    for name, spec in facts.board.items():
        properties[name] = field_schema(spec, pack)
        if spec.required:
            required.append(name)
    for kind, entity in facts.entities.items():
        if entity.created:
            continue
        assert entity.key is not None  # not created: the snapshot lists it under its key
        fields = {n: field_schema(f, pack) for n, f in entity.fields.items()}
        properties[entity.key] = {
            "type": "array",
            "description": entity.says or f"the {kind} entries",
            "items": {"type": "object", "additionalProperties": False, "properties": fields,
                      "required": [n for n, f in entity.fields.items()
                                   if f.required]},
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"whybot snapshot for the {pack.name} pack",
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": properties,
    }
