"""Where `whybot batch` writes its rows: never over an input, never half a file.

Rows go to stdout, or (`--out OUT`) to `OUT.partial` in OUT's folder, renamed to OUT once the
batch is complete: nobody ever sees a half-written OUT, and an interrupted run leaves
`OUT.partial`, whole rows of valid JSONL, which `--resume` continues. Beside it,
`OUT.partial.run` records what the run was asked (paths, pack, house rules, seed, include
folders), so a resume with other inputs or options is refused instead of mixed in; and the rows
already written must be the first inputs, in order, or the resume is refused too.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from whybot.engine.errors import WhybotError
from whybot.engine.sources import excerpt

from .inputs import Item, Skip, file_key
from .stopping import Interrupted


def encode(row: dict[str, Any]) -> bytes:
    """One row as one line of UTF-8 JSON (the same bytes whichever process decided it)."""
    text = json.dumps(row, ensure_ascii=False, default=str) + "\n"
    return text.encode("utf-8", "backslashreplace")


def partial_of(target: Path) -> Path:
    return target.with_name(target.name + ".partial")


def card_of(target: Path) -> Path:
    return target.with_name(target.name + ".partial.run")


@dataclass
class Results:
    """An open destination for rows: stdout (`target` None) or OUT through OUT.partial."""

    stream: BinaryIO
    target: Path | None = None
    done: list[str] = field(default_factory=list)
    rows: int = 0

    def skip(self) -> Skip:
        """The files this batch writes, which it must never read as inputs."""
        if self.target is None:
            key = _stdout_key()
            return Skip(frozenset([key] if key else []))
        mine = [self.target, partial_of(self.target), card_of(self.target)]
        return Skip(frozenset(k for k in map(file_key, mine) if k), frozenset(mine))

    def resumed(self, items: Iterator[Item]) -> Iterator[Item]:
        """The inputs after those already written, once the written rows are checked to be the
        first inputs in order (the files may have changed since the run was interrupted)."""
        for number, expected in enumerate(self.done, 1):
            item = next(items, None)
            found = item.origin if item is not None else "no input"
            if found != expected:
                raise WhybotError(
                    f"--resume: row {number} of the partial results is {excerpt(expected, 80)!r}"
                    f" but input {number} is now {excerpt(found, 80)!r}",
                    hint="the inputs changed: start over with --force")
        yield from items

    def write(self, row: dict[str, Any]) -> None:
        try:
            self.stream.write(encode(row))
        except BrokenPipeError:  # stdout's reader left (`| head`): stop as a shell pipe does
            _silence_stdout()
            raise Interrupted(signal.SIGPIPE) from None
        self.rows += 1

    def finish(self) -> None:
        """All rows written: make them durable and, for --out, put OUT in place at once."""
        self.keep()
        if self.target is not None:
            os.replace(partial_of(self.target), self.target)
            card_of(self.target).unlink(missing_ok=True)

    def keep(self) -> None:
        """Make what was written durable (an interrupted run stops here)."""
        if self.stream.closed:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            _silence_stdout()
        if self.target is not None:
            os.fsync(self.stream.fileno())
            self.stream.close()

    def where(self) -> str:
        """Where the rows so far are, for the line an interrupted run prints."""
        total = len(self.done) + self.rows
        if self.target is None:
            return f"{total} row(s) written"
        return (f"{total} row(s) are in {partial_of(self.target)}: continue with the same "
                "command and --resume")


def _stdout_key() -> tuple[int, int] | None:
    """(device, inode) of stdout when it is a regular file (`whybot batch ... >> rows.jsonl`)."""
    try:
        info = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # a test's captured stdout has no descriptor
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def _check_stdout(paths: list[Path]) -> None:
    """Rows appended to a file that is also an input would be read back, forever."""
    key = _stdout_key()
    for path in paths:
        if key is not None and not path.is_dir() and file_key(path) == key:
            raise WhybotError(f"stdout is the input {path}",
                              hint="a batch never writes over its inputs: use --out FILE")


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail loudly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file descriptor (e.g. a test's captured stdout): nothing to silence


def _target(out: Path, paths: list[Path]) -> Path:
    """OUT resolved (through symlinks: rows go where the name really leads), refused when its
    folder is missing, or when it, its partial file or their run card is one of the inputs."""
    try:
        target = out.resolve()
    except (OSError, RuntimeError):
        raise WhybotError("--out: cannot resolve this path", file=str(out)) from None
    if not target.parent.is_dir():
        raise WhybotError(f"--out: the folder {target.parent} does not exist",
                          hint="create it first")
    if target.is_dir():
        raise WhybotError("--out: this is a folder, not a file", file=str(out))
    mine = {target, partial_of(target), card_of(target)}
    keys = {k for k in map(file_key, mine) if k}
    for path in paths:
        if path.is_dir():
            continue  # a folder's files are searched; the batch's own files are skipped there
        if path.resolve() in mine or file_key(path) in keys:
            raise WhybotError(f"--out {out} would replace the input {path}",
                              hint="a batch never writes over its inputs: choose another file")
    return target


def _read_partial(target: Path, run: dict[str, Any],
                  on_row: Callable[[dict[str, Any]], None]) -> list[str]:
    """The snapshots an interrupted run already wrote (each row also given to `on_row`); a
    torn last line, cut by a hard kill, is dropped from the file and decided again."""
    partial, card = partial_of(target), card_of(target)
    if not partial.is_file():
        raise WhybotError(f"--resume: there is no interrupted run of {target.name} "
                          f"(no {partial.name})", hint="run without --resume")
    try:
        recorded = json.loads(card.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = None
    if recorded != run:
        which = next((k for k in run if not isinstance(recorded, dict)
                      or recorded.get(k) != run[k]), "options")
        then = f": {excerpt(json.dumps(recorded[which]), 120)}" \
            if isinstance(recorded, dict) and which in recorded else ""
        raise WhybotError(f"--resume: {partial.name} was written by a batch with other "
                          f"{which}{then}", hint="give the same paths and options (paths as "
                          "written then), or start over with --force")
    done: list[str] = []
    with open(partial, "r+b") as stream:
        offset = 0
        for number, raw in enumerate(iter(stream.readline, b""), 1):
            if not raw.endswith(b"\n"):
                stream.truncate(offset)
                break
            try:
                row = json.loads(raw)
                done.append(str(row["snapshot"]))
                on_row(row)
            except (ValueError, TypeError, KeyError, AttributeError):
                raise WhybotError("--resume: not a result row", file=str(partial), line=number,
                                  hint="start over with --force") from None
            offset += len(raw)
    return done


def open_results(out: Path | None, paths: list[Path], *, force: bool, resume: bool,
                 run: dict[str, Any], on_row: Callable[[dict[str, Any]], None]) -> Results:
    """Where this batch's rows go, every refusal made before any snapshot is decided."""
    if out is None:
        if resume:
            raise WhybotError("--resume continues a run that wrote --out FILE",
                              hint="give the same --out as the interrupted run")
        _check_stdout(paths)
        sys.stdout.flush()
        return Results(sys.stdout.buffer)
    target = _target(out, paths)
    partial = partial_of(target)
    done: list[str] = []
    if resume:
        done = _read_partial(target, run, on_row)
    elif not force and target.exists():
        raise WhybotError(f"{out} already exists", hint="use --force to overwrite it")
    elif not force and partial.exists():
        raise WhybotError(f"an interrupted batch left {partial}",
                          hint="continue it with --resume, or start over with --force")
    try:
        stream = open(partial, "ab" if resume else "wb")  # noqa: SIM115 (a Results owns it)
        if not resume:
            card_of(target).write_text(json.dumps(run), encoding="utf-8")
    except OSError as exc:
        raise WhybotError(f"--out: cannot write here: {exc.strerror}",
                          file=str(partial)) from None
    return Results(stream, target, done)


__all__ = ["Results", "card_of", "encode", "open_results", "partial_of"]
