"""The games folder `whybot serve` was given: the only files a request can name.

A request names a game by its file's stem (`my-game` for `my-game.yaml`), never by a path: the
name is checked against a short pattern (letters, digits, space, `_`, `-`, `.`; no slash, no
leading dot), joined to the folder, resolved (links followed) and must still lie directly in
the folder. A name that fails any of these is refused before any file is touched. Game files
over the limit `game_bytes` are not opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from whybot.engine import WhybotError
from whybot.engine import current_limits as limits

SUFFIX = ".yaml"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}")


class NotInFolder(WhybotError):
    """A request named a game that is not a file of the games folder (or not a valid name)."""


class NoSuchGame(WhybotError):
    """The name is valid, but no such game file exists (any more)."""


@dataclass(frozen=True)
class Entry:
    """One game file of the folder, as the games page lists it."""

    name: str
    path: Path
    size: int
    modified: float


@dataclass(frozen=True)
class GamesFolder:
    root: Path

    @classmethod
    def at(cls, root: Path) -> GamesFolder:
        root = root.resolve()
        if not root.is_dir():
            raise WhybotError(f"{root}: not a folder (give the folder that holds the games)")
        return cls(root)

    def path(self, name: str, exists: bool = True) -> Path:
        """The file of game `name`, inside the folder; NotInFolder / NoSuchGame otherwise."""
        if not NAME.fullmatch(name) or name.endswith(".") or ".." in name:
            raise NotInFolder("not a game name: use letters, digits, spaces, _ - and . "
                              "(at most 80), no slash", path="name")
        path = self.root / f"{name}{SUFFIX}"
        try:
            real = path.resolve()
        except (OSError, RuntimeError):  # a link loop
            raise NotInFolder("this game file is a link that leads nowhere") from None
        if real.parent != self.root:
            raise NotInFolder("this game file is a link to a file outside the games folder")
        if not exists:
            if path.exists() or path.is_symlink():
                raise WhybotError(f"a game named {name!r} already exists", path="name")
            return path
        if not real.is_file():
            raise NoSuchGame(f"no game named {name!r} in this folder")
        size = real.stat().st_size
        limit = limits().game_bytes
        if size > limit:
            raise WhybotError(f"the game file is {size:,} bytes, over the limit game_bytes = "
                              f"{limit:,}", file=path.name,
                              hint="raise it with --limit game_bytes=N")
        return path

    def games(self) -> list[Entry]:
        """The game files directly in the folder (not in sub-folders), newest first."""
        entries = []
        for path in self.root.glob(f"*{SUFFIX}"):
            name = path.name[:-len(SUFFIX)]
            if not NAME.fullmatch(name):
                continue
            try:
                self.path(name)
            except WhybotError:
                continue  # a link out of the folder, or over the size limit: not offered
            stat = path.stat()
            entries.append(Entry(name, path, stat.st_size, stat.st_mtime))
        return sorted(entries, key=lambda e: (-e.modified, e.name))

    def delete(self, name: str) -> None:
        self.path(name).unlink()
