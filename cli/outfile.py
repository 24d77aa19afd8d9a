"""The file `batch --out OUT` names: checked, and opened without ever harming an input.

A regular OUT is written through `OUT.partial` (and its run card `OUT.partial.run`), renamed
over OUT when the batch is complete (`results.py`). A character device or a FIFO (`/dev/null`,
a named pipe) is written directly: renaming a file over it would replace the device itself. OUT
is resolved through links before it is compared with the inputs; an existing OUT inside an
input folder is one of its inputs (unless it holds rows: a batch's earlier output); and a temp
file is always created afresh, never opened through a link someone left at its name.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from whybot.engine import WhybotError

from .inputs import SUFFIXES, file_key

_CARD = ".partial.run"  # the longest name the batch adds to OUT's
_NEVER = "a batch never writes over its inputs: choose another file"


def partial_of(target: Path) -> Path:
    return target.with_name(target.name + ".partial")


def card_of(target: Path) -> Path:
    return target.with_name(target.name + _CARD)


@dataclass(frozen=True)
class Out:
    """OUT resolved through links; `special` when it is a device or FIFO, written directly."""

    target: Path
    special: bool = False


def checked_out(out: Path, paths: list[Path]) -> Out:
    """OUT resolved (rows go where the name really leads), refused when it is a folder or a
    block device, when its folder is missing, when its temp names would be too long, or when
    it, or a temp file of its, is one of the inputs."""
    try:
        target = out.resolve()
    except (OSError, RuntimeError):
        raise WhybotError("--out: cannot resolve this path", file=str(out)) from None
    if not _stat(target.parent) or not target.parent.is_dir():
        raise WhybotError(f"--out: the folder {target.parent} does not exist",
                          hint="create it first")
    info = _stat(target)
    if info and stat.S_ISDIR(info.st_mode):
        raise WhybotError("--out: this is a folder, not a file", file=str(out))
    if info and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
        _check_inputs(out, target, [target], paths)
        return Out(target, special=True)
    if info and not stat.S_ISREG(info.st_mode):
        raise WhybotError("--out: this is neither a file, a character device nor a FIFO",
                          file=str(out), hint="give a file to write the rows to")
    if info and not os.access(target, os.W_OK):
        raise WhybotError("--out: cannot write here: permission denied", file=str(out))
    _check_length(out, target)
    _check_inputs(out, target, [target, partial_of(target), card_of(target)], paths)
    return Out(target)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _check_length(out: Path, target: Path) -> None:
    """A name the file system takes whose `.partial.run` it would not is refused up front,
    not met as an internal error once rows are written."""
    try:
        longest = os.pathconf(target.parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(card_of(target).name)) > longest:
        raise WhybotError(f"--out: the name is too long for this batch's temp files (at most "
                          f"{longest - len(_CARD)} bytes here)", file=str(out),
                          hint="choose a shorter name")


def _check_inputs(out: Path, target: Path, mine: list[Path], paths: list[Path]) -> None:
    """Refuse OUT when it or its temp files are an input, under any name; an existing OUT in
    an input folder is read as an input too (a batch's own new files there are skipped)."""
    keys = {k for k in map(file_key, mine) if k}
    for path in paths:
        try:
            folder = path.resolve() if path.is_dir() else None
            same = not folder and (path.resolve() in mine or file_key(path) in keys)
        except (OSError, RuntimeError):
            continue  # an input that cannot be resolved is that input's error row
        inside = folder is not None and target.is_relative_to(folder) \
            and target.suffix in SUFFIXES and target.is_file() and not _is_rows(target)
        if same or inside:
            raise WhybotError(f"--out {out} would replace the input "
                              f"{path if same else target}", hint=_NEVER)


def _is_rows(path: Path) -> bool:
    """Whether a file begins with a result row: an earlier batch's output, which a batch of
    its folder skips, and not a snapshot (a snapshot has no `ok`)."""
    try:
        with open(path, "rb") as stream:
            first = json.loads(stream.readline(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and {"snapshot", "ok"} <= first.keys()


def create(path: Path) -> BinaryIO:
    """A new, empty temp file at `path`: whatever was there (a link, a file left by an earlier
    run) is removed first, and the file is created, never opened through a link."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        raise OSError(21, "a folder is in the way", str(path)) from None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.fdopen(os.open(path, flags, 0o666), "wb")


def reopen(path: Path) -> BinaryIO:
    """The partial rows of an interrupted run, to read, cut and append to; refused when it
    is a link or not a regular file (they were written as one)."""
    flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise WhybotError(f"--resume: cannot read the partial rows: {exc.strerror}",
                          file=str(path), hint="start over with --force") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise WhybotError("--resume: the partial rows are not a regular file", file=str(path),
                          hint="start over with --force")
    return os.fdopen(descriptor, "r+b")


def open_special(target: Path) -> BinaryIO:
    """A device or FIFO, written as it is: not created, not truncated, not replaced."""
    return os.fdopen(os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC), "wb")


__all__ = ["Out", "card_of", "checked_out", "create", "open_special", "partial_of", "reopen"]
