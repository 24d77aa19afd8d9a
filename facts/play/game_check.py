"""Checking a game file when it is read: its shape (`game_schema.py`), then what the pack says.

The schema makes sure every field has the type the code reads; here each kept fact, entity
field, carried value and change is checked against the pack (a fact or field it declares, of
its type and range, owned by `game` or a bot of the game). The first problem is one
`GameFileError` naming the file, line and field path.
"""

from __future__ import annotations

from typing import Any, cast

from whybot.engine import Document, FieldSpec, Pack, WhybotError, did_you_mean, json_path

from ..values import ValueProblem, check_value
from .game_schema import GAME_FILE_SCHEMA, TURN, check_shape

KIND = GAME_FILE_SCHEMA["properties"]["whybot"]["const"]
VERSION = GAME_FILE_SCHEMA["properties"]["version"]["const"]
TOP = tuple(GAME_FILE_SCHEMA["properties"])
ENTRY = tuple(TURN["properties"])
_CHANGE_PATHS = ("[game, FACT], [bots, BOT, FACT], [said, OWNER, FACT] or "
                 "[entities, OWNER, KIND, LABEL, FIELD]")


class GameFileError(WhybotError):
    """A game file that cannot be read as one (or could not be written safely)."""


class Check:
    """Field-path checks of one game file's data."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def fail(self, path: tuple, message: str, hint: str | None = None) -> GameFileError:
        return GameFileError(message, **self.document.at(path), path=json_path(path),
                             hint=hint)

    def typed(self, data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str,
              path: tuple = ()) -> Any:
        value = data.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise self.fail((*path, key), f"{key} must be {what}")
        return value

    def mapping(self, value: Any, path: tuple) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "expected a mapping")
        return value

    def header(self) -> dict[str, Any]:
        """The parts named first, with their own messages (then the schema checks the rest)."""
        data = self.mapping(self.document.data, ())
        for key in data:
            if key not in TOP:
                raise self.fail((key,), f"unknown key {key!r} in a game file",
                                did_you_mean(str(key), set(TOP)))
        if data.get("whybot") != KIND:
            raise self.fail(("whybot",), f"not a whybot game file (it needs `whybot: {KIND}`)")
        if data.get("version") != VERSION:
            raise self.fail(("version",), f"game file version {data.get('version')!r}: this "
                                          f"whybot reads version {VERSION}")
        self.typed(data, "pack", str, "a pack name")
        bots = self.typed(data, "bots", list, "a list of bot names")
        if not bots or not all(isinstance(b, str) and b for b in bots) or \
                len(set(bots)) != len(bots):
            raise self.fail(("bots",), "bots must be a list of different names")
        for key in ("seed", "revision"):
            self.typed(data, key, int, "a whole number")
        for path, number, entry in _turns(data):
            if isinstance(entry, dict):
                self.entry_names(entry, path, number, bots)
        check_shape(self.document, GameFileError)
        return data

    def entry_names(self, entry: dict[str, Any], path: tuple, number: int,
                    bots: list[str]) -> None:
        for key in entry:
            if key not in ENTRY:
                raise self.fail((*path, key), f"unknown key {key!r} in a turn",
                                did_you_mean(str(key), set(ENTRY)))
        if entry.get("turn") != number:
            raise self.fail((*path, "turn"), f"turn {number} expected here (the log is "
                                             "append-only: turns in order, none missing; "
                                             "undone: the newest last)")
        if entry.get("bot") not in bots:
            raise self.fail((*path, "bot"), f"{entry.get('bot')!r} is not one of the bots")

    # --- against the pack --------------------------------------------------------------------

    def value(self, value: Any, spec: FieldSpec, pack: Pack, path: tuple) -> None:
        try:
            check_value(value, spec, None if spec.refers else pack.allowed(spec))
        except ValueProblem as exc:
            raise self.fail(path, str(exc), exc.hint) from None

    def fact(self, name: str, pack: Pack, path: tuple) -> FieldSpec:
        spec = pack.facts.board.get(name)
        if spec is None:
            raise self.fail(path, f"unknown fact {name!r} of pack {pack.name!r}",
                            did_you_mean(str(name), set(pack.facts.board)))
        return spec

    def facts(self, values: dict[str, Any], pack: Pack, path: tuple, lists: bool = False,
              judged: bool = False) -> None:
        """Kept facts: each a fact of the pack, of its type and range; with `lists`, lists of
        the pack's entities too (what a stopped card carries); with `judged`, the judgments
        the player said too (what the game remembers)."""
        keys = {spec.key: spec for spec in pack.facts.entities.values() if spec.key}
        for name, value in values.items():
            if judged and name in pack.facts.judgments:
                self.value(value, pack.facts.judgments[name], pack, (*path, name))
                continue
            if lists and name in keys:
                if not isinstance(value, list):
                    raise self.fail((*path, name), f"{name} must be a list")
                for index, item in enumerate(value):
                    self.fields(item, keys[name].fields, pack, (*path, name, index))
                continue
            self.value(value, self.fact(name, pack, (*path, name)), pack, (*path, name))

    def fields(self, item: Any, fields: dict[str, FieldSpec], pack: Pack, path: tuple) -> None:
        """One entity's fields: each a field of its kind, of its type and range."""
        for name, value in self.mapping(item, path).items():
            if name not in fields:
                raise self.fail((*path, name), f"unknown field {name!r}",
                                did_you_mean(str(name), set(fields)))
            self.value(value, fields[name], pack, (*path, name))

    def owner(self, owner: str, bots: list[str], path: tuple) -> None:
        if owner != "game" and owner not in bots:
            raise self.fail(path, f"{owner!r} is neither `game` nor one of the bots",
                            did_you_mean(str(owner), {"game", *bots}))

    def kind(self, kind: str, pack: Pack, path: tuple) -> dict[str, FieldSpec]:
        spec = pack.facts.entities.get(kind)
        if spec is None:
            raise self.fail(path, f"unknown entity kind {kind!r} of pack {pack.name!r}",
                            did_you_mean(str(kind), set(pack.facts.entities)))
        return spec.fields

    def state(self, state: dict[str, Any], pack: Pack, bots: list[str]) -> None:
        self.facts(state.get("game", {}), pack, ("state", "game"), lists=True)
        for bot, values in state.get("bots", {}).items():
            self.bot(bot, bots, ("state", "bots", bot))
            self.facts(values, pack, ("state", "bots", bot), lists=True)
        for owner, kinds in state.get("entities", {}).items():
            self.owner(owner, bots, ("state", "entities", owner))
            for kind, labels in kinds.items():
                fields = self.kind(kind, pack, ("state", "entities", owner, kind))
                for label, item in labels.items():
                    self.fields(item, fields, pack, ("state", "entities", owner, kind, label))
        for owner, values in state.get("said", {}).items():
            self.owner(owner, bots, ("state", "said", owner))
            self.facts(values, pack, ("state", "said", owner), lists=True, judged=True)

    def bot(self, bot: str, bots: list[str], path: tuple) -> None:
        if bot not in bots:
            raise self.fail(path, f"{bot!r} is not one of the bots",
                            did_you_mean(str(bot), set(bots)))

    def turn(self, entry: dict[str, Any], path: tuple, pack: Pack, bots: list[str]) -> None:
        """A logged (or undone) turn's changes and carried values, against the pack."""
        for number, change in enumerate(entry.get("changes", [])):
            self.change(change, pack, bots, (*path, "changes", number))
        for key, values in entry.get("carried", {}).items():
            self.facts(values, pack, (*path, "carried", key), lists=True)
        self.facts(entry.get("given", {}), pack, (*path, "given"), lists=True)

    def change(self, change: dict[str, Any], pack: Pack, bots: list[str], path: tuple) -> None:
        """A change's path names a kept fact or entity field; its values fit it."""
        keys = change["path"]
        where = (*path, "path")
        lists = {spec.key for spec in pack.facts.entities.values() if spec.key}
        if keys[0] in ("game", "bots") and keys[-1] in lists:  # a list kept for the game
            if keys[0] == "bots":
                self.bot(keys[1], bots, (*where, 1))
            for key in ("before", "after"):
                if key in change:
                    self.facts({keys[-1]: change[key]}, pack, (*path, key), lists=True)
            return
        if keys[0] == "game" and len(keys) == 2:
            spec = self.fact(keys[1], pack, (*where, 1))
        elif keys[0] == "bots" and len(keys) == 3:
            self.bot(keys[1], bots, (*where, 1))
            spec = self.fact(keys[2], pack, (*where, 2))
        elif keys[0] == "said" and len(keys) == 3:
            self.owner(keys[1], bots, (*where, 1))
            for key in ("before", "after"):
                if key in change:
                    self.facts({keys[2]: change[key]}, pack, (*path, key), lists=True,
                               judged=True)
            return
        elif keys[0] == "entities" and len(keys) == 5:
            self.owner(keys[1], bots, (*where, 1))
            fields = self.kind(keys[2], pack, (*where, 2))
            if keys[4] not in fields:
                raise self.fail((*where, 4), f"unknown field {keys[4]!r}",
                                did_you_mean(keys[4], set(fields)))
            spec = fields[keys[4]]
        else:
            raise self.fail(where, f"a change's path is {_CHANGE_PATHS}")
        for key in ("before", "after"):
            if key in change:
                self.value(change[key], spec, pack, (*path, key))

    def pack_parts(self, data: dict[str, Any], pack: Pack) -> None:
        """Everything the pack decides: state, what is pending, each turn's changes."""
        bots = data["bots"]
        self.state(data["state"], pack, bots)
        for bot, values in (data.get("pending") or {}).items():
            self.bot(bot, bots, ("pending", bot))
            self.facts(values, pack, ("pending", bot), lists=True)
        for path, _, entry in _turns(data):
            self.turn(entry, path, pack, bots)


def _turns(data: dict[str, Any]) -> list[tuple[tuple, int, Any]]:
    """Each turn of the log, then each of `undone` (newest last, so numbered backwards from
    the log's end), with its path and the turn number it must carry."""
    log = cast(list[Any], data.get("log")) if isinstance(data.get("log"), list) else []
    undone = cast(list[Any], data.get("undone")) if isinstance(data.get("undone"), list) else []
    return ([(("log", index), index + 1, entry) for index, entry in enumerate(log)]
            + [(("undone", index), len(log) + len(undone) - index, entry)
               for index, entry in enumerate(undone)])


__all__ = ["ENTRY", "KIND", "TOP", "VERSION", "Check", "GameFileError"]
