"""Snapshots: what the player sees on the table, checked against the pack's fact schema.

A snapshot is a YAML or JSON mapping. Board observations sit at the top level, entity lists under
their key (`cards:`), judgments the player answers directly under `answers:`, pre-rolled dice
under `dice:`. Types are checked (durable_rules would compare "5" equal to 5) and numbers are
normalised before they reach the engine (it mishandles exponent-form floats and huge ints).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from whybot.engine.errors import SnapshotError, did_you_mean
from whybot.engine.limits import current
from whybot.engine.model import FactSchema, FieldSpec, Pack
from whybot.engine.situation import Situation
from whybot.engine.sources import Document, excerpt, json_path, parse_text, read_document

RESERVED = {"pack", "name", "answers", "dice", "notes", "include"}
# Boards whybot ships (the examples include them): its own data, so always allowed to include.
SHIPPED_MAPS = Path(__file__).resolve().parent / "maps"
LIMIT = 10**9

_JSON = {"integer": "integer", "number": "number", "boolean": "boolean", "string": "string"}


def _field_schema(spec: FieldSpec) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": _JSON[spec.type]}
    if spec.says:
        schema["description"] = spec.says
    if spec.enum is not None:
        schema["enum"] = spec.enum
    if spec.type in ("integer", "number"):
        schema["minimum"] = spec.minimum if spec.minimum is not None else -LIMIT
        schema["maximum"] = spec.maximum if spec.maximum is not None else LIMIT
    if spec.default is not None:
        schema["default"] = spec.default
    return schema


def snapshot_schema(pack: Pack) -> dict[str, Any]:
    """The JSON Schema of a snapshot for this pack (published by `whybot facts schema`)."""
    facts = pack.facts
    properties: dict[str, Any] = {
        "pack": {"const": pack.name},
        "name": {"type": "string"},
        "notes": {"type": "string"},
        "include": {"type": ["string", "array"], "items": {"type": "string"},
                    "description": "files of observations to merge in (e.g. the map)"},
        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 100},
                 "description": "pre-rolled dice, used in order before any seeded roll"},
        "answers": {
            "type": "object",
            "description": "judgments given directly, overriding their derivation",
            "additionalProperties": False,
            "properties": {name: {"type": ["boolean", "integer", "string"], "description": q}
                           for name, q in facts.judgments.items()},
        },
    }
    required = ["pack"]
    for name, spec in facts.board.items():
        if spec.computed:
            continue
        properties[name] = _field_schema(spec)
        if spec.required:
            required.append(name)
    for kind, entity in facts.entities.items():
        if entity.computed:
            continue
        fields = {n: _field_schema(f) for n, f in entity.fields.items() if not f.computed}
        properties[entity.key] = {
            "type": "array",
            "description": entity.says or f"the {kind} entries",
            "items": {"type": "object", "additionalProperties": False, "properties": fields,
                      "required": [n for n, f in entity.fields.items()
                                   if f.required and not f.computed]},
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"whybot snapshot for the {pack.name} pack",
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": properties,
    }


def _number(value: Any, spec: FieldSpec, where: str, document: Document,
            path: tuple) -> Any:
    if spec.type == "integer":
        return int(value)
    if spec.type == "number":
        if isinstance(value, float) and not math.isfinite(value):
            raise SnapshotError("numbers must be finite", **document.at(path),
                                path=json_path(path))
        rounded = round(float(value), 4)
        return int(rounded) if rounded.is_integer() else rounded
    return value


def _check_types(document: Document, pack: Pack) -> None:
    """Type and name errors, the first one as a single line with file:line and field path."""
    import jsonschema

    data = document.data
    if not isinstance(data, dict):
        raise SnapshotError("a snapshot is a mapping of observations", file=document.file,
                            line=1)
    facts = pack.facts
    known = {n for n, s in facts.board.items() if not s.computed} | RESERVED | {
        e.key for e in facts.entities.values() if not e.computed}
    for name in data:
        if name not in known:
            hint = did_you_mean(str(name), known)
            if name in facts.judgments:
                hint = f"{name!r} is a judgment: give it under answers:"
            raise SnapshotError(f"unknown fact {name!r}", **document.at((name,)),
                                path=json_path((name,)), hint=hint)
    answers = data.get("answers")
    for name in answers if isinstance(answers, dict) else []:
        if name not in facts.judgments:
            raise SnapshotError(f"unknown judgment {name!r}", **document.at(("answers", name)),
                                path=json_path(("answers", name)),
                                hint=did_you_mean(name, set(facts.judgments)))
    validator = jsonschema.Draft202012Validator(snapshot_schema(pack))
    problems = sorted(validator.iter_errors(data), key=lambda e: len(list(e.absolute_path)))
    if problems:
        problem = problems[0]
        path = tuple(problem.absolute_path)
        message = problem.message
        if problem.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown field")
        if problem.validator == "type" and isinstance(problem.instance, bool | int | float | str):
            message = f"{problem.instance!r} is not of type {problem.validator_value!r}"
        raise SnapshotError(message, **document.at(path), path=json_path(path))


def _include_target(name: Any, document: Document, index: int,
                    allowed: tuple[Path, ...]) -> Path:
    """Where `include[index]` points, if it may be read: inside the snapshot's own folder tree
    (symlinks resolved), inside a folder the user allowed with --include-from, or a board
    whybot ships. An absolute path only into the last two."""
    where = {**document.at(("include", index)), "path": f"$.include[{index}]"}
    if not isinstance(name, str) or not name:
        raise SnapshotError("include: takes file names", **where)
    absolute = Path(name).is_absolute()
    try:
        home = Path(document.file).parent.resolve()
        target = (home / name).resolve()
        roots = [*([] if absolute else [home]), SHIPPED_MAPS,
                 *(Path(folder).resolve() for folder in allowed)]
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name the OS refuses
        raise SnapshotError(f"cannot resolve the included file {excerpt(name, 80)!r}",
                            **where) from None
    if not any(target.is_relative_to(root) for root in roots):
        problem = "is an absolute path" if absolute else "is outside the snapshot's folder"
        raise SnapshotError(f"included file {excerpt(name, 80)!r} {problem}", **where,
                            hint="to read from another folder, name it with --include-from DIR")
    if not target.is_file():
        raise SnapshotError(f"included file {excerpt(name, 80)!r} not found", **where)
    return target


def with_includes(document: Document, allowed: tuple[Path, ...] = ()) -> Document:
    """`include: [map.yaml]`: observations kept in other files (a board described once).

    Paths are relative to the snapshot and stay inside its folder tree, or inside a folder in
    `allowed` (`--include-from DIR`) or whybot's shipped maps, so a snapshot cannot make whybot
    read a system file. The
    snapshot's own keys win over included ones; an included file may not include further (so
    there are no cycles), each file is included once, and all of them together are at most
    `file_bytes`. Errors name the file a value really came from, but never quote the content of
    an included file.
    """
    data = document.data
    if not isinstance(data, dict) or "include" not in data:
        return document
    names = data["include"] if isinstance(data["include"], list) else [data["include"]]
    merged: dict[str, Any] = {}
    parts: dict[str, Document] = {}
    seen: set[Path] = set()
    budget = current().file_bytes
    for index, name in enumerate(names):
        path = _include_target(name, document, index, allowed)
        if path in seen:
            raise SnapshotError(f"file {excerpt(name, 80)!r} is included twice",
                                **document.at(("include", index)), path=f"$.include[{index}]")
        seen.add(path)
        budget -= path.stat().st_size
        if budget < 0:
            current().check("file_bytes", current().file_bytes - budget,
                            "bytes in the included files together",
                            **document.at(("include", index)), path=f"$.include[{index}]")
        part = read_document(path, SnapshotError, quote=False)
        if not isinstance(part.data, dict) or "include" in part.data:
            raise SnapshotError("an included file is a mapping of observations without its "
                                "own include:", file=part.file, line=1)
        for key, value in part.data.items():
            if key not in ("pack", "name", "notes"):
                merged[key] = value
                parts[key] = part
    for key, value in data.items():
        if key != "include":
            merged[key] = value
            parts.pop(key, None)
    return Document(data=merged, file=document.file, lines=document.lines, parts=parts)


def situation_from(document: Document, pack: Pack) -> Situation:
    """Validate a parsed snapshot and turn it into a Situation (normalised, computed)."""
    document = with_includes(document)
    _check_types(document, pack)
    data: dict[str, Any] = document.data
    facts: FactSchema = pack.facts
    board: dict[str, Any] = {}
    for name, spec in facts.board.items():
        if spec.computed:
            continue
        value = data.get(name, spec.default)
        board[name] = _number(value, spec, name, document, (name,)) if value is not None \
            else None
    entities: dict[str, list[dict[str, Any]]] = {}
    for kind, entity in facts.entities.items():
        if entity.computed:
            continue
        items = []
        for index, raw in enumerate(data.get(entity.key, [])):
            item = {}
            for name, spec in entity.fields.items():
                if spec.computed:
                    continue
                value = raw.get(name, spec.default)
                path = (entity.key, index, name)
                item[name] = _number(value, spec, name, document, path) \
                    if value is not None else None
            items.append(item)
        entities[kind] = items
    for function_name in facts.computed:
        try:
            pack.functions[function_name](board, entities, pack.data, pack.settings)
        except ValueError as exc:
            raise SnapshotError(str(exc), file=document.file) from None
    name = data.get("name") or Path(document.file).stem
    return Situation(name=name, board=board, entities=entities,
                     answers=dict(data.get("answers", {})), dice=list(data.get("dice", [])))


def load_snapshot(path: Path, pack: Pack) -> Situation:
    return situation_from(read_document(path, SnapshotError), pack)


def parse_snapshot(text: str, origin: str, pack: Pack) -> Situation:
    return situation_from(parse_text(text, origin, SnapshotError), pack)


def snapshot_pack(path: Path) -> str | None:
    """The pack a snapshot names (so `--pack` can be left out)."""
    document = read_document(path, SnapshotError)
    data = document.data
    return data.get("pack") if isinstance(data, dict) else None


__all__ = [
    "load_snapshot",
    "parse_snapshot",
    "situation_from",
    "snapshot_pack",
    "snapshot_schema",
    "with_includes",
]
