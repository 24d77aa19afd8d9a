"""The game file: one game at the table, as readable YAML, written so that no turn is ever lost.

It holds the pack, the house-rule folders, the game's dice seed, the bots, the standing state
(what persists between turns: per game, per bot, and kept fields of listed entities by label),
what a stopped card carries into its bot's next play (`pending`), the append-only log of
turns (each with the snapshot it was decided on, dice included, the questions asked, the
decision and the changes it made — what `undo` reverts), and the turns taken back that `redo`
can put back (`undone`, only while there are any).

Reading checks every part against the schema (`game_schema.py`), then the pack
(`game_check.py`), and names the field path and line of a problem (`GameFileError`, exit 2).
Writing is atomic (a temporary file in the same folder, then a rename), under a lock,
and refused when the file on disk is not the one read: damaged or hand-edited since, or saved
by someone else in between (its `revision` moved on) — so a damaged file is never overwritten
and two writers never lose a turn.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from whybot.engine import Document, WhybotError, read_document

from .game_check import KIND, VERSION, Check, GameFileError

HEADER = ("# A whybot game file: `whybot play` reads and writes it, `whybot log` lists its\n"
          "# turns. state: what persists between turns; log: every turn, append-only\n"
          "# (`whybot undo` takes the last one back). whybot checks this file when it reads it.\n")


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
    lines: dict[tuple, int] = field(default_factory=dict, repr=False)  # of the file read

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


def _as_game_file(exc: WhybotError, where: dict[str, Any], path: str | None = None,
                  ) -> GameFileError:
    if isinstance(exc, GameFileError):
        return exc
    return GameFileError(exc.message, file=exc.file or where["file"],
                         line=exc.line or where.get("line"), path=exc.path or path,
                         hint=exc.hint)


def read_game(path: Path, pack_of: Any) -> Game:
    """Read and check a game file; `pack_of(name)` gives the Pack (checking the name)."""
    if not path.is_file():
        raise GameFileError("no such game file" if not path.exists() else "not a file",
                            file=str(path), hint="start one with `whybot new PACK GAME.yaml`")
    try:
        check = Check(read_document(path, GameFileError))
    except WhybotError as exc:  # e.g. beyond a limit: still this file's problem
        raise _as_game_file(exc, {"file": str(path)}) from None
    data = check.header()
    try:
        pack = pack_of(data["pack"])
    except WhybotError as exc:
        raise _as_game_file(exc, check.document.at(("pack",)), "$.pack") from None
    check.pack_parts(data, pack)
    for index, folder in enumerate(data.get("rules") or []):
        if not (path.parent / folder).is_dir():
            raise check.fail(("rules", index), f"no folder {folder!r} of house rules (a path "
                                               "from the game file's folder)")
    game = Game(pack=pack.name, name=data.get("name") or "", bots=data["bots"],
                rules=data.get("rules") or [], include=data.get("include") or [],
                seed=data["seed"], revision=data["revision"], state=data["state"],
                pending=data.get("pending") or {}, log=data.get("log") or [],
                undone=data.get("undone") or [], path=path, lines=check.document.lines)
    return game


def logged_snapshot(game: Game, number: int) -> Document:
    """Turn `number`'s snapshot as a document of its own (checked when it is decided again),
    its lines those of the game file."""
    prefix = ("log", number - 1, "snapshot")
    lines = {key[3:]: line for key, line in game.lines.items() if key[:3] == prefix}
    return Document(data=copy.deepcopy(game.log[number - 1]["snapshot"]),
                    file=str(game.path or "game"), lines=lines)


def in_game_file(exc: WhybotError, game: Game, number: int) -> WhybotError:
    """A logged snapshot's problem as the game file's (its path from the file's top); one
    from a file the snapshot includes stays that file's."""
    if exc.file != str(game.path or "game"):
        return exc
    inner = (exc.path or "$")[1:]
    return GameFileError(exc.message, file=exc.file, line=exc.line if game.lines else None,
                         path=f"$.log[{number - 1}].snapshot{inner}", hint=exc.hint)


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


def check_new(path: Path) -> None:
    """A new game file goes into a folder that exists, and never over a file."""
    if not path.parent.is_dir():
        raise GameFileError(f"no folder {str(path.parent)!r} to write the game file into",
                            file=str(path), hint="create the folder first, or choose another")
    if path.exists() or path.is_symlink():
        raise GameFileError("a file of that name exists: it is not overwritten",
                            file=str(path), hint="choose another name, or delete it first")


def write_game(game: Game, path: Path, pack_of: Any, *, new: bool = False) -> None:
    """Save atomically (temp file + rename); `new`: the file must not exist yet. Otherwise
    the file on disk must be the revision this game was read at (a damaged file, or one saved
    by another writer since, is refused and left as it is). Raises the revision by one."""
    path = Path(path)
    if new:
        check_new(path)
    with _locked(path):
        if new:
            check_new(path)  # again, under the lock: another writer may have been first
        else:
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
            game.lines = {}  # the lines of the file read: they may have moved
        except BaseException:
            game.revision -= 1
            with contextlib.suppress(OSError):
                os.unlink(handle.name)
            raise
    game.path = path


__all__ = ["Game", "GameFileError", "check_new", "dump", "in_game_file", "logged_snapshot",
           "read_game", "write_game"]
