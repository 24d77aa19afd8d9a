"""What a pack and its rule files declare about the facts: board observations, entity kinds
and their fields, judgments and variables — additive across files, checked as they are added."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RuleFileError, did_you_mean
from ..language.action_fields import SHOWN, TYPES, ActionField, ActionFields
from ..language.pack import EntitySpec, FactSchema, FieldSpec, Pack
from ..language.parser import parse
from ..language.tokens import ConditionSyntaxError
from ..language.tree_queries import all_refs, depth
from ..limits import current as limits
from .outcome_schema import OUTCOME_SCHEMA
from .pack_files import PACK_FILE
from .page_templates import read_templates
from .schema import PACK_SCHEMA
from .sources import Document, json_path, read_document
from .validation import validate

RESERVED_FIELDS = {"t", "kind", "k", "sid", "id", "eid"}  # the compiler's own fact keys


def fail(document: Document, path: tuple, message: str, hint: str | None = None,
         ) -> RuleFileError:
    """One error naming the file, line and field path of the value at `path`."""
    return RuleFileError(message, file=document.file, line=document.line(path),
                         path=json_path(path), hint=hint)


def condition(text: Any, document: Document, path: tuple, kinds: frozenset[str]) -> Any:
    """A condition of a rule file parsed under the limits, or one error naming where."""
    if isinstance(text, bool):
        text = "true" if text else "false"
    if len(text) > limits().condition_chars:
        raise fail(document, path, f"condition of {len(text):,} characters, over the limit "
                                   f"condition_chars = {limits().condition_chars:,}")
    try:
        node = parse(text, kinds, max_depth=limits().depth)
    except ConditionSyntaxError as exc:
        raise fail(document, path, f"condition: {exc}") from None
    if depth(node) > limits().depth * 2:
        raise fail(document, path, f"condition nested deeper than the limit depth = "
                                   f"{limits().depth}")
    return node


def _field(name: str, spec: dict[str, Any], document: Document, where: tuple) -> FieldSpec:
    required_when = None
    if "required_when" in spec:
        required_when = condition(spec["required_when"], document, (*where, "required_when"),
                                   frozenset())
    return FieldSpec(name=name, type=spec["type"], says=spec.get("says", ""),
                     enum=spec.get("enum"), minimum=spec.get("minimum"),
                     maximum=spec.get("maximum"), default=spec.get("default"),
                     required=spec.get("required", False), derived=spec.get("derived", False),
                     assumed=spec.get("assumed", True), pages=spec.get("pages"),
                     refers=_refers(spec.get("refers", [])),
                     unique=spec.get("unique", False), required_when=required_when,
                     required_text=str(spec.get("required_when", "")))


def _refers(raw: str | list[str]) -> tuple[tuple[str, str], ...]:
    """`refers: province.name` or a list of them, as (kind, field) pairs."""
    items = [raw] if isinstance(raw, str) else raw
    return tuple((kind, field) for kind, _, field in (item.partition(".") for item in items))


def _check_references(schema: FactSchema, document: Document) -> None:
    """`refers: KIND.FIELD` names a field of a kind snapshots list; `required_when` reads
    only board observations."""
    tables = [(("facts", "board"), schema.board)] + [
        (("facts", "entities", kind, "fields"), spec.fields)
        for kind, spec in schema.entities.items()]
    for where, table in tables:
        for name, spec in table.items():
            path = (*where, name)
            for kind, field in spec.refers:
                target = schema.entities.get(kind)
                if target is None or target.created or field not in target.fields:
                    raise fail(document, (*path, "refers"),
                               f"refers to {kind}.{field}, which is not a field of a kind "
                               "snapshots list")
            if spec.required_when is not None:
                unknown = [r for r in all_refs(spec.required_when)
                           if r.scope is not None or r.name not in schema.board]
                if unknown:
                    raise fail(document, (*path, "required_when"),
                               f"required_when reads {unknown[0]}, which is not a board "
                               "observation")


def _judgment(name: str, spec: str | dict[str, Any], document: Document) -> FieldSpec:
    if isinstance(spec, str):
        return FieldSpec(name=name, type="boolean", says=spec, default=False, derived=True)
    return _field(name, {**spec, "derived": True}, document, ("facts", "judgments", name))


def _entity(kind: str, spec: dict[str, Any], document: Document, where: tuple) -> EntitySpec:
    if ("from" in spec) == bool(spec.get("created")):
        raise fail(document, where, "an entity kind is either listed by snapshots (`from: "
                                    "KEY`) or created by rules (`created: true`)")
    label = spec.get("label", ())
    return EntitySpec(kind=kind, key=spec.get("from"), says=spec.get("says", ""), fields={},
                      label=(label,) if isinstance(label, str) else tuple(label))


def add_facts(schema: FactSchema, facts: dict[str, Any], document: Document,
              in_pack: bool = True) -> None:
    """Declarations of `pack.yaml` — or of a rule file (an optional module, a house rule)
    adding its own observations, judgments and fields. Additive only: a name declared twice is
    an error."""
    root = ("facts",)
    tables = (("board", schema.board), ("variables", schema.variables),
              ("judgments", schema.judgments))
    for section, table in tables:
        for name, spec in facts.get(section, {}).items():
            if name in schema.board_names():
                raise fail(document, (*root, section, name),
                           f"{name!r} is already declared (by the pack or another file)")
            table[name] = _judgment(name, spec, document) if section == "judgments" else \
                _field(name, spec, document, (*root, section, name))
    for kind, spec in facts.get("entities", {}).items():
        where = (*root, "entities", kind)
        if kind not in schema.entities:
            schema.entities[kind] = _entity(kind, spec, document, where)
        elif set(spec) - {"fields"}:
            raise fail(document, where, f"entity kind {kind!r} is already declared: a file "
                                        "may only add fields to it")
        fields = schema.entities[kind].fields
        for name, field_spec in spec.get("fields", {}).items():
            path = (*where, "fields", name)
            if name in RESERVED_FIELDS:
                raise fail(document, path, f"entity field name {name!r} is reserved by the "
                                           "engine")
            if name in fields:
                raise fail(document, path, f"{kind} already has a field {name!r}")
            fields[name] = _field(name, field_spec, document, path)
        _check_label(schema.entities[kind], document, where)
    _check_references(schema, document)


def _check_label(entity: EntitySpec, document: Document, where: tuple) -> None:
    """A label names fields of its kind (declared with it: a later file only adds fields)."""
    for index, name in enumerate(entity.label):
        if name not in entity.fields:
            path = (*where, "label", index) if len(entity.label) > 1 else (*where, "label")
            raise fail(document, path, f"{entity.kind} has no field {name!r} to label it by",
                       did_you_mean(name, set(entity.fields)))


def read_action_fields(document: Document) -> ActionFields:
    """The action fields a pack.yaml declares (`action_fields:`), each type and place known."""
    declared = []
    for name, spec in document.data.get("action_fields", {}).items():
        where = ("action_fields", name)
        if name in OUTCOME_SCHEMA["properties"]:
            raise fail(document, where, f"{name!r} is already a field of a rule's outcome")
        field = ActionField(name, spec["type"], spec.get("shown", ActionField.shown),
                            spec.get("says", ""))
        for key, value, known in (("type", field.type, tuple(TYPES)),
                                  ("shown", field.shown, SHOWN)):
            if value not in known:
                raise fail(document, (*where, key), f"unknown action field {key} {value!r} "
                                                    f"(one of: {', '.join(known)})",
                           did_you_mean(str(value), set(known)))
        declared.append(field)
    return ActionFields(tuple(declared))


def load_pack_description(folder: Path) -> Pack:
    document = read_document(folder / PACK_FILE, RuleFileError)
    validate(document, PACK_SCHEMA, RuleFileError)
    data = document.data
    schema = FactSchema(board={}, entities={}, judgments={}, variables={})
    add_facts(schema, data["facts"], document)
    return Pack(name=data["pack"], title=data["title"], start=data["start"], root=str(folder),
                facts=schema, pages={}, presentation=data.get("presentation", {}),
                coverage=data.get("coverage", {}), check=data.get("check", {}),
                files=[document.file],
                actions=set(data["actions"]) if "actions" in data else None,
                action_fields=read_action_fields(document),
                templates=read_templates(document),
                preferences=dict(data.get("preferences") or {}))
