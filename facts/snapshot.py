"""Snapshots: what the player sees on the table, checked against the pack's fact schema.

A snapshot is a YAML or JSON mapping. Board observations sit at the top level, entity lists under
their key (`cards:`), judgments the player answers directly under `answers:`, pre-rolled dice
under `dice:`. Every value is checked against its field (`values.py`) and normalised before it
reaches the engine. What the snapshot leaves out takes the field's default, and the situation
remembers which: a decision that reads such a default shows it as an assumption.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from whybot.engine import (
    EID,
    GIVEN,
    Document,
    FieldSpec,
    Pack,
    Situation,
    SnapshotError,
    World,
    did_you_mean,
    holds,
    json_path,
    parse_text,
    read_document,
)
from whybot.engine import current_limits as limits

from .includes import with_includes
from .values import ValueProblem, check_value

RESERVED = {"pack", "name", "answers", "answers_after", "dice", "notes", "include", "expect",
            "variant"}


def _error(document: Document, path: tuple, message: str,
           hint: str | None = None) -> SnapshotError:
    return SnapshotError(message, **document.at(path), path=json_path(path), hint=hint)


def _checked(value: Any, spec: FieldSpec, pack: Pack, document: Document,
             path: tuple) -> Any:
    try:  # a `refers` field's enum values are allowed beside the names (see _refer)
        return check_value(value, spec, None if spec.refers else pack.allowed(spec))
    except ValueProblem as exc:
        raise _error(document, path, str(exc), exc.hint) from None


def _board(data: dict[str, Any], pack: Pack, document: Document,
           later: Collection[str] = ()) -> tuple[dict[str, Any], set[str]]:
    board: dict[str, Any] = {}
    defaulted: set[str] = set()
    for name, spec in pack.facts.board.items():
        if name in data:
            board[name] = _checked(data[name], spec, pack, document, (name,))
        elif spec.required and name not in later:
            raise _error(document, (), f"missing required fact {name!r}"
                         + (f" ({spec.says})" if spec.says else ""))
        else:
            board[name] = spec.default
            if spec.assumed and spec.default is not None:
                defaulted.add(name)
    return board, defaulted


def _entities(data: dict[str, Any], pack: Pack, document: Document,
              ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, set[str]]]:
    entities: dict[str, list[dict[str, Any]]] = {}
    defaulted: dict[str, set[str]] = {}
    eid = 0
    for kind, spec in pack.facts.entities.items():
        if spec.created:
            continue
        assert spec.key is not None  # not created: the snapshot lists it under its key
        raw_items = data.get(spec.key, [])
        if not isinstance(raw_items, list):
            raise _error(document, (spec.key,), f"{spec.key} is a list of {kind} entries")
        items = []
        for index, raw in enumerate(raw_items):
            where = (spec.key, index)
            if not isinstance(raw, dict):
                raise _error(document, where, f"each {kind} is a mapping of its fields")
            for name in raw:
                field = spec.fields.get(name)
                if field is None:
                    raise _error(document, (*where, name), f"unknown field {name!r} of {kind}",
                                 did_you_mean(str(name), set(spec.fields)))
            eid += 1
            item: dict[str, Any] = {EID: eid}
            given = []
            for name, field in spec.fields.items():
                if name in raw:
                    item[name] = _checked(raw[name], field, pack, document, (*where, name))
                    if field.derived:
                        given.append(name)
                elif field.required:
                    raise _error(document, where, f"{kind} needs its {name!r}")
                elif not field.derived:
                    item[name] = field.default
                    if field.assumed and field.default is not None:
                        defaulted.setdefault(kind, set()).add(name)
            if given:
                item[GIVEN] = frozenset(given)
            items.append(item)
        entities[kind] = items
    limits().check("entities", eid, "entities in the snapshot", file=document.file)
    return entities, defaulted


def _required(data: dict[str, Any], board: dict[str, Any], pack: Pack,
              document: Document, later: Collection[str] = ()) -> None:
    """`required_when`: a value this situation needs (a turn names whose turn it is)."""
    for name, spec in pack.facts.board.items():
        if spec.required_when is not None and name not in data and name not in later and \
                holds(spec.required_when, World(board)):
            raise _error(document, (), f"missing required fact {name!r}"
                         + (f" ({spec.says})" if spec.says else "")
                         + f": it is needed when {spec.required_text}")


def missing_required(data: dict[str, Any], pack: Pack) -> list[str]:
    """Board facts `data` must give but does not: required ones, and those whose
    `required_when` holds on the board it gives (its other facts at their defaults)."""
    board = {name: data.get(name, spec.default) for name, spec in pack.facts.board.items()}
    return [name for name, spec in pack.facts.board.items() if name not in data and (
        spec.required or (spec.required_when is not None
                          and holds(spec.required_when, World(board))))]


def _refer(value: Any, spec: FieldSpec, entities: dict[str, list[dict[str, Any]]],
           document: Document, path: tuple, unlisted: AbstractSet[str] = frozenset()) -> None:
    """A value of a `refers` field names a listed entity (or is an enum value, or unset);
    not checked while a kind it may name is `unlisted` (a snapshot being asked for)."""
    if not spec.refers or value is None or value == spec.default or value in (spec.enum or []):
        return
    if any(kind in unlisted for kind, _ in spec.refers):
        return
    known = {e.get(field) for kind, field in spec.refers for e in entities.get(kind, [])}
    if value in known:
        return
    what = " or ".join(f"{kind} {field}" for kind, field in spec.refers)
    besides = f" (nor {', '.join(map(str, spec.enum))})" if spec.enum else ""
    raise _error(document, path, f"{value!r} is not a listed {what}{besides}",
                 did_you_mean(str(value), {str(k) for k in known}))


def _references(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]], pack: Pack,
                document: Document, unlisted: AbstractSet[str] = frozenset()) -> None:
    """Values that must name listed entities (`refers`) or be one of a kind (`unique`)."""
    for name, spec in pack.facts.board.items():
        if spec.refers:  # most names: nothing to check
            _refer(board.get(name), spec, entities, document, (name,), unlisted)
    for kind, entity in pack.facts.entities.items():
        if kind not in entities:
            continue
        for name, spec in entity.fields.items():
            if not (spec.refers or spec.unique):
                continue
            seen: dict[Any, int] = {}
            for index, item in enumerate(entities.get(kind, [])):
                path = (entity.key, index, name)
                _refer(item.get(name), spec, entities, document, path, unlisted)
                if spec.unique and name in item:
                    if item[name] in seen:
                        raise _error(document, path, f"{item[name]!r} is listed twice "
                                     f"({entity.key}[{seen[item[name]]}] has it too): each "
                                     f"{kind} needs its own {name}")
                    seen[item[name]] = index


def _answers(answers: Any, pack: Pack, document: Document,
             path: tuple[str | int, ...] = ("answers",)) -> dict[str, Any]:
    if not isinstance(answers, dict):
        raise _error(document, path, "answers: is a mapping of judgment: value")
    checked = {}
    for name, value in answers.items():
        spec = pack.facts.judgments.get(name)
        if spec is None:
            raise _error(document, (*path, name), f"unknown judgment {name!r}",
                         did_you_mean(str(name), set(pack.facts.judgments)))
        checked[name] = _checked(value, spec, pack, document, (*path, name))
    return checked


def _answers_after(data: dict[str, Any], pack: Pack, document: Document,
                   ) -> list[dict[str, Any]]:
    """What the player said of the table after each action (a consultation's answers)."""
    layers = data.get("answers_after", [])
    if not isinstance(layers, list):
        raise _error(document, ("answers_after",), "answers_after: is a list of mappings of "
                                                   "judgment: value, one for each action")
    return [_answers(layer, pack, document, ("answers_after", index))
            for index, layer in enumerate(layers)]


def _dice(data: dict[str, Any], document: Document) -> list[int]:
    dice = data.get("dice", [])
    if not isinstance(dice, list):
        raise _error(document, ("dice",), "dice: is a list of pre-rolled faces")
    for index, face in enumerate(dice):
        if isinstance(face, bool) or not isinstance(face, int) or not \
                1 <= face <= limits().dice_sides:
            raise _error(document, ("dice", index), f"{face!r} is not a die face "
                                                     f"(1..{limits().dice_sides})")
    return list(dice)


def _known_keys(data: dict[str, Any], pack: Pack, document: Document) -> None:
    facts = pack.facts
    known = set(facts.board) | RESERVED | {
        e.key for e in facts.entities.values() if e.key}
    for name in data:
        if name not in known:
            hint = did_you_mean(str(name), known)
            if name in facts.judgments:
                hint = f"{name!r} is a judgment: give it under answers:"
            raise _error(document, (name,), f"unknown fact {name!r}", hint)


def unlisted_referred(data: dict[str, Any], pack: Pack) -> list[str]:
    """Entity lists `data` leaves out although a value it gives may name one of theirs (a
    border names provinces; a province's owner, players): asked before anything else."""
    facts, found = pack.facts, []
    specs = [(spec, data.get(name)) for name, spec in facts.board.items() if name in data]
    for entity in facts.entities.values():
        for item in data.get(entity.key or "", []) if entity.key else []:
            if isinstance(item, dict):
                specs += [(spec, item.get(n)) for n, spec in entity.fields.items() if n in item]
    for spec, value in specs:
        if value in (None, spec.default) or value in (spec.enum or []):
            continue
        for kind, _ in spec.refers:
            key = facts.entities[kind].key
            if key and key not in data and key not in found:
                found.append(key)
    return found


def situation_from(document: Document, pack: Pack, asking: bool = False,
                   later: Collection[str] = ()) -> Situation:
    """Validate a parsed snapshot and turn it into a Situation (normalised, ids given).
    `asking`: a snapshot still being asked for (`inquiry.py`), whose names of entities of a
    kind not listed yet are checked once the list is given; `later`: required facts it does
    not give yet because they are asked next (checking what is given, not deciding)."""
    document = with_includes(document)
    data = document.data
    if not isinstance(data, dict):
        raise SnapshotError("a snapshot is a mapping of observations", file=document.file,
                            line=1)
    if data.get("pack", pack.name) != pack.name:
        raise _error(document, ("pack",), f"this snapshot is for pack {data['pack']!r}, "
                                          f"not {pack.name!r}")
    _known_keys(data, pack, document)
    snapshot_variant(document)  # checked here; laid over the pack by whoever picks the engine
    board, defaulted = _board(data, pack, document, later)
    _required(data, board, pack, document, later)
    entities, defaulted_fields = _entities(data, pack, document)
    unlisted = {kind for kind, spec in pack.facts.entities.items()
                if spec.key and spec.key not in data}
    _references(board, entities, pack, document, unlisted if asking else set())
    name = data.get("name")
    return Situation(name=name if isinstance(name, str) and name else Path(document.file).stem,
                     board=board, entities=entities,
                     answers=_answers(data.get("answers", {}), pack, document),
                     answers_after=_answers_after(data, pack, document),
                     dice=_dice(data, document), defaulted=defaulted,
                     defaulted_fields=defaulted_fields,
                     unlisted=unlisted)


def snapshot_variant(document: Document) -> str:
    """The variant a snapshot asks for (`variant: NAME`, a variant its pack ships), or ""."""
    data = document.data
    variant = data.get("variant") if isinstance(data, dict) else None
    if variant is None:
        return ""
    if isinstance(variant, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", variant):
        return variant
    raise _error(document, ("variant",), "variant: names a variant the pack ships "
                                         "(e.g. draft-000)",
                 hint="a folder of your own is given on the command line: --variant DIR")


def load_snapshot(path: Path, pack: Pack) -> Situation:
    return situation_from(read_document(path, SnapshotError), pack)


def parse_snapshot(text: str, origin: str, pack: Pack) -> Situation:
    return situation_from(parse_text(text, origin, SnapshotError), pack)


__all__ = ["load_snapshot", "missing_required", "parse_snapshot", "situation_from",
           "snapshot_variant", "unlisted_referred"]
