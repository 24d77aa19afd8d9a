"""The inputs of `whybot batch`: snapshot files, folders of them and JSONL files, as Items.

Inputs are streamed, never all held in memory. A JSONL file is read as bytes, a line at a time
and never more than `line_bytes` of one line (a longer line is read past, not kept), so neither a
huge line nor bytes that are not UTF-8 can stop the batch: each becomes that line's error row.
Files that are the batch's own output (`Skip`) are never read.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from whybot.engine import Document, SnapshotError, parse_json_line, printable, read_document
from whybot.engine import current_limits as current

SUFFIXES = {".yaml", ".yml", ".json", ".jsonl"}
_CHUNK = 1 << 20  # how much of an over-long line is read at a time while skipping it


@dataclass(frozen=True)
class Item:
    """One snapshot to decide: a whole file, or one line of a JSONL file (`raw`, its bytes;
    None when the line was longer than `line_bytes`, whose length is then `length`)."""

    path: str
    line: int | None = None
    raw: bytes | None = None
    length: int = 0

    @property
    def origin(self) -> str:
        """How rows and errors name it: `file` or `file:line`, escaped to be printable."""
        where = printable(self.path)
        return f"{where}:{self.line}" if self.line else where

    def document(self) -> Document:
        if self.line is None:
            return read_document(Path(self.path), SnapshotError)
        if self.raw is None:  # it was longer than line_bytes when read, so this raises
            current().check("line_bytes", self.length, "bytes in the line", file=self.path,
                            line=self.line)
        return parse_json_line(self.raw or b"", self.path, self.line, SnapshotError)

    def digest(self) -> str:
        """A SHA-256 of the snapshot as it reads now, by which `--resume` tells an input edited
        since its row was written (a line too long to keep, by its length: its row says only
        that)."""
        if self.line is not None:
            return _sha256(self.raw if self.raw is not None else b"%d bytes" % self.length)
        return _file_digest(Path(self.path))


@dataclass(frozen=True)
class Skip:
    """Files a batch must not read: its output, by (device, inode) and by resolved path."""

    ids: frozenset[tuple[int, int]] = frozenset()
    paths: frozenset[Path] = field(default_factory=frozenset)

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, Path):
            return False
        try:
            info = path.stat()
            return (info.st_dev, info.st_ino) in self.ids or path.resolve() in self.paths
        except (OSError, RuntimeError):
            return False


def _files(path: Path, skip: Skip) -> list[Path]:
    found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file()) \
        if path.is_dir() else [path]
    return [p for p in found if p not in skip]


def _lines(stream: BinaryIO, path: str) -> Iterator[Item]:
    limit = current().line_bytes
    number = 0
    while raw := stream.readline(limit + 1):
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):  # too long: read past the rest
            length = len(raw)
            while not raw.endswith(b"\n"):
                raw = stream.readline(_CHUNK)
                if not raw:
                    break
                length += len(raw)
            yield Item(path, number, None, length - (1 if raw.endswith(b"\n") else 0))
        elif raw.strip():
            yield Item(path, number, raw.rstrip(b"\r\n"))


def iter_items(paths: Iterable[Path], skip: Skip = Skip()) -> Iterator[Item]:
    """Every snapshot under `paths`, in order. A JSONL file that cannot be opened as one is a
    single item, so its error (not a regular file, no permission) becomes a row."""
    for path in paths:
        for file in _files(path, skip):
            if file.suffix != ".jsonl" or not file.is_file():
                yield Item(str(file))
                continue
            try:
                stream = open(file, "rb")  # noqa: SIM115 (closed below; opening may fail)
            except OSError:
                yield Item(str(file))
                continue
            with stream:
                yield from _lines(stream, str(file))


def count_items(paths: Iterable[Path], skip: Skip = Skip()) -> int:
    """How many items `iter_items` will give (for the progress bar)."""
    return sum(1 for _ in iter_items(paths, skip))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path) -> str:
    """The SHA-256 of a file's size and of as much of it as a snapshot may hold (a longer one's
    row is its size, refused), or of why it cannot be read; a FIFO is never read."""
    try:
        with open(path, "rb", opener=lambda name, flags: os.open(name, flags | os.O_NONBLOCK),
                  ) as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):
                return _sha256(b"not a regular file")
            return _sha256(b"%d\0" % info.st_size + stream.read(current().file_bytes + 1))
    except OSError as exc:
        return _sha256(f"unreadable: {exc.strerror}".encode())


def file_key(path: Path) -> tuple[int, int] | None:
    """(device, inode) of an existing file, to recognise it under any name."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


__all__ = ["SUFFIXES", "Item", "Skip", "count_items", "file_key", "iter_items"]
