"""The game file: one game at the table, as readable YAML, written so that no turn is ever lost.

It holds the pack, the house-rule folders, the game's dice seed, the bots, the standing state
(what persists between turns: per game, per bot, and kept fields of listed entities by label),
what a stopped card carries into its bot's next play (`pending`), the append-only log of
turns (each with the snapshot it was decided on, dice included, the questions asked, the
decision and the changes it made — what `undo` reverts), and the turns taken back that `redo`
can put back (`undone`, only while there are any).

Reading checks every part and names the field path and line of a problem (`GameFileError`,
exit 2). Writing is atomic (a temporary file in the same folder, then a rename), under a lock,
and refused when the file on disk is not the one read: damaged or hand-edited since, or saved
by someone else in between (its `revision` moved on) — so a damaged file is never overwritten
and two writers never lose a turn.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from whybot.engine.errors import WhybotError, did_you_mean
from whybot.engine.model import Pack
from whybot.engine.sources import Document, json_path, read_document

from .values import ValueProblem, check_value

KIND = "whybot game"
VERSION = 1
HEADER = ("# A whybot game file: `whybot play` reads and writes it, `whybot log` lists its\n"
          "# turns. state: what persists between turns; log: every turn, append-only\n"
          "# (`whybot undo` takes the last one back). whybot checks this file when it reads it.\n")
TOP = ("whybot", "version", "pack", "name", "rules", "include", "seed", "revision", "bots",
       "state", "pending", "log", "undone")
ENTRY = ("turn", "bot", "point", "asked", "snapshot", "decision", "dice", "changes", "carried")


class GameFileError(WhybotError):
    """A game file that cannot be read as one (or could not be written safely)."""


@dataclass
class Game:
    """A game in memory; `path` and `revision` say which file (and which version of it)."""

    pack: str
    name: str
    seed: int
    bots: list[str]
    rules: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)  # files every snapshot includes (a map)
    state: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    # turns `undo` took back, newest last: what `redo` puts back (emptied by a new turn)
    undone: list[dict[str, Any]] = field(default_factory=list)
    revision: int = 0
    path: Path | None = None

    def __post_init__(self) -> None:
        self.state.setdefault("game", {})
        self.state.setdefault("bots", {})
        self.state.setdefault("entities", {})
        for bot in self.bots:
            self.state["bots"].setdefault(bot, {})

    def as_data(self) -> dict[str, Any]:
        return {"whybot": KIND, "version": VERSION, "pack": self.pack, "name": self.name,
                "rules": self.rules, "include": self.include, "seed": self.seed,
                "revision": self.revision, "bots": self.bots, "state": self.state,
                "pending": self.pending, "log": self.log,
                **({"undone": self.undone} if self.undone else {})}


# --- reading ---------------------------------------------------------------------------------


class _Check:
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

    def facts(self, values: Any, pack: Pack, path: tuple) -> None:
        """Kept facts: each a fact of the pack, of its type and range."""
        for name, value in self.mapping(values, path).items():
            spec = pack.facts.board.get(name)
            if spec is None:
                raise self.fail((*path, name), f"unknown fact {name!r} of pack {pack.name!r}",
                                did_you_mean(str(name), set(pack.facts.board)))
            try:
                check_value(value, spec, None if spec.refers else pack.allowed(spec))
            except ValueProblem as exc:
                raise self.fail((*path, name), str(exc), exc.hint) from None

    def game(self, pack_of: Any) -> Game:
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
        pack = pack_of(self.typed(data, "pack", str, "a pack name"))
        bots = self.typed(data, "bots", list, "a list of bot names")
        if not bots or not all(isinstance(b, str) and b for b in bots) or \
                len(set(bots)) != len(bots):
            raise self.fail(("bots",), "bots must be a list of different names")
        rules, include = data.get("rules") or [], data.get("include") or []
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise self.fail(("rules",), "rules must be a list of house-rule folders")
        if not isinstance(include, list) or not all(isinstance(r, str) for r in include):
            raise self.fail(("include",), "include must be a list of files (relative to the "
                                          "game file)")
        state = self.mapping(data.get("state"), ("state",))
        self.facts(state.get("game", {}), pack, ("state", "game"))
        for bot, values in self.mapping(state.get("bots", {}), ("state", "bots")).items():
            if bot not in bots:
                raise self.fail(("state", "bots", bot), f"{bot!r} is not one of the bots",
                                did_you_mean(str(bot), set(bots)))
            self.facts(values, pack, ("state", "bots", bot))
        self.mapping(state.get("entities", {}), ("state", "entities"))
        pending = self.mapping(data.get("pending") or {}, ("pending",))
        log = data.get("log") or []
        if not isinstance(log, list):
            raise self.fail(("log",), "log must be a list of turns")
        for index, entry in enumerate(log):
            self.entry(entry, index, bots)
        undone = data.get("undone") or []
        if not isinstance(undone, list):
            raise self.fail(("undone",), "undone must be a list of turns taken back")
        for index, entry in enumerate(undone):  # newest last: the next turn to redo
            self.entry(entry, index, bots, ("undone", index), len(log) + len(undone) - index)
        return Game(pack=pack.name, name=str(data.get("name") or ""), bots=bots, rules=rules,
                    include=include,
                    seed=self.typed(data, "seed", int, "a whole number"),
                    revision=self.typed(data, "revision", int, "a whole number"),
                    state=state, pending=pending, log=log, undone=undone)

    def entry(self, entry: Any, index: int, bots: list[str], path: tuple = (),
              number: int = 0) -> None:
        """One turn of the log (or of `undone`, at `path`, turn `number`)."""
        path = path or ("log", index)
        number = number or index + 1
        entry = self.mapping(entry, path)
        for key in entry:
            if key not in ENTRY:
                raise self.fail((*path, key), f"unknown key {key!r} in a turn",
                                did_you_mean(str(key), set(ENTRY)))
        if entry.get("turn") != number:
            raise self.fail((*path, "turn"), f"turn {number} expected here (the log is "
                                             "append-only: turns in order, none missing)")
        if entry.get("bot") not in bots:
            raise self.fail((*path, "bot"), f"{entry.get('bot')!r} is not one of the bots")
        self.mapping(entry.get("snapshot"), (*path, "snapshot"))
        self.mapping(entry.get("decision"), (*path, "decision"))
        for key in ("asked", "changes"):
            if not isinstance(entry.get(key, []), list):
                raise self.fail((*path, key), f"{key} must be a list")


def read_game(path: Path, pack_of: Any) -> Game:
    """Read and check a game file; `pack_of(name)` gives the Pack (checking the name)."""
    if not path.is_file():
        raise GameFileError("no such game file" if not path.exists() else "not a file",
                            file=str(path), hint="start one with `whybot new PACK GAME.yaml`")
    game = _Check(read_document(path, GameFileError)).game(pack_of)
    game.path = path
    return game


# --- writing ---------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Plain YAML: a value written twice is written twice (no &anchors for a reader)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump(game: Game) -> str:
    text = yaml.dump(game.as_data(), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=100, default_flow_style=None)
    return HEADER + text


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One writer at a time per game file (a lock file beside it, held while writing)."""
    lock = path.with_name(f".{path.name}.lock")
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _on_disk_revision(path: Path, pack_of: Any) -> int:
    try:
        return read_game(path, pack_of).revision
    except WhybotError as exc:
        raise GameFileError(f"the game file on disk cannot be read ({exc.message}): it is not "
                            "overwritten", file=str(path), line=exc.line, path=exc.path,
                            hint="fix it by hand or restore it, then play again") from None


def write_game(game: Game, path: Path, pack_of: Any, *, new: bool = False) -> None:
    """Save atomically (temp file + rename); `new`: the file must not exist yet. Otherwise
    the file on disk must be the revision this game was read at (a damaged file, or one saved
    by another writer since, is refused and left as it is). Raises the revision by one."""
    path = Path(path)
    with _locked(path):
        if new and path.exists():
            raise GameFileError("a file of that name exists: it is not overwritten",
                                file=str(path), hint="choose another name, or delete it first")
        if not new:
            found = _on_disk_revision(path, pack_of)
            if found != game.revision:
                raise GameFileError(f"the game file changed since it was read (revision {found},"
                                    f" read at {game.revision}): nothing saved", file=str(path),
                                    hint="another window or command saved a turn: reload")
        game.revision += 1
        text = dump(game)
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (renamed, or removed below)
            "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp",
            delete=False)
        try:
            with handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(handle.name, path)
        except BaseException:
            game.revision -= 1
            with contextlib.suppress(OSError):
                os.unlink(handle.name)
            raise
    game.path = path


__all__ = ["Game", "GameFileError", "dump", "read_game", "write_game"]
