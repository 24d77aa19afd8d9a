"""Where `whybot batch` writes its rows: never over an input, never half a file.

Rows go to stdout, or (`--out OUT`) to `OUT.partial` in OUT's folder, renamed to OUT once the
batch is complete: nobody ever sees a half-written OUT, and an interrupted run leaves
`OUT.partial`, whole rows of valid JSONL, which `--resume` continues (a device or FIFO is written
directly, and cannot be resumed: `outfile.py`). Beside it, `OUT.partial.run` records what the
run was asked (paths, pack, house rules, seed, include folders), so a resume with other inputs
or options is refused instead of mixed in; the rows already written must be the first inputs,
in order, or the resume is refused too; and each row holds the SHA-256 of its input
(`input_sha256`), so an input edited since is decided again, with every row after it.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from whybot.engine import WhybotError, excerpt

from .inputs import Item, Skip, file_key
from .outfile import card_of, checked_out, create, open_special, partial_of, reopen
from .stopping import Interrupted

OnRow = Callable[[dict[str, Any]], None]


def encode(row: dict[str, Any]) -> bytes:
    """One row as one line of UTF-8 JSON (the same bytes whichever process decided it)."""
    text = json.dumps(row, ensure_ascii=False, default=str) + "\n"
    return text.encode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class Done:
    """A row an interrupted run wrote: its snapshot, its input's digest, the row, and where
    it ends in the partial file."""

    snapshot: str
    digest: str | None
    row: dict[str, Any]
    end: int


@dataclass
class Results:
    """An open destination for rows: stdout (`target` None), OUT through OUT.partial, or a
    device or FIFO (`special`) written directly."""

    stream: BinaryIO
    target: Path | None = None
    done: list[Done] = field(default_factory=list)
    on_row: OnRow = lambda row: None
    special: bool = False
    rows: int = 0
    kept: int = 0  # rows of `done` kept (the rest are decided again)
    _digests: deque[str] = field(default_factory=deque)

    def skip(self) -> Skip:
        """The files this batch writes, which it must never read as inputs."""
        if self.target is None:
            key = _stdout_key()
            return Skip(frozenset([key] if key else []))
        mine = [self.target] if self.special else \
            [self.target, partial_of(self.target), card_of(self.target)]
        return Skip(frozenset(k for k in map(file_key, mine) if k), frozenset(mine))

    def resumed(self, items: Iterator[Item]) -> Iterator[Item]:
        """The inputs to decide: those after the rows already written, once these are checked
        to be the first inputs in order (the files may have changed since the run was
        interrupted), and from the first input whose content changed since its row, on."""
        changed, cut = 0, False
        for number, done in enumerate(self.done, 1):
            item = next(items, None)
            found = item.origin if item is not None else "no input"
            if item is None or found != done.snapshot:
                raise WhybotError(
                    f"--resume: row {number} of the partial results is "
                    f"{excerpt(done.snapshot, 80)!r} but input {number} is now "
                    f"{excerpt(found, 80)!r}", hint="the inputs changed: start over with --force")
            digest = item.digest()
            if not cut and digest == done.digest:
                self.kept += 1
                self.on_row(done.row)
                continue
            if not cut:
                self._cut(self.done[self.kept - 1].end if self.kept else 0)
                cut = True
            changed += digest != done.digest
            self._digests.append(digest)
            yield item
        if cut:
            after = len(self.done) - self.kept - changed
            print(f"--resume: {changed} snapshot(s) changed since the interrupted run: decided "
                  "again" + (f", and the {after} row(s) written after them" if after else ""),
                  file=sys.stderr)
        for item in items:
            self._digests.append(item.digest())
            yield item

    def _cut(self, offset: int) -> None:
        """Drop the rows from `offset` on: they are written again, in input order."""
        self.stream.flush()
        os.ftruncate(self.stream.fileno(), offset)

    def write(self, row: dict[str, Any]) -> None:
        """Write the row of the next input `resumed` gave, with that input's digest."""
        if self._digests:
            row["input_sha256"] = self._digests.popleft()
        try:
            self.stream.write(encode(row))
        except BrokenPipeError:  # stdout's reader left (`| head`): stop as a shell pipe does
            _silence_stdout()
            raise Interrupted(signal.SIGPIPE) from None
        self.rows += 1

    def finish(self) -> None:
        """All rows written: make them durable and, for --out, put OUT in place at once."""
        self.keep()
        if self.target is not None and not self.special:
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
            if not self.special:
                os.fsync(self.stream.fileno())
            self.stream.close()

    def where(self) -> str:
        """Where the rows so far are, for the line an interrupted run prints."""
        total = self.kept + self.rows
        if self.target is None:
            return f"{total} row(s) written"
        if self.special:
            return f"{total} row(s) written to {self.target}"
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


def _read_partial(target: Path, run: dict[str, Any]) -> tuple[BinaryIO, list[Done]]:
    """The partial rows of an interrupted run, open to append to, and the rows it wrote; a
    torn last line, cut by a hard kill, is dropped from the file and decided again."""
    partial, card = partial_of(target), card_of(target)
    if not os.path.lexists(partial):
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
    stream = reopen(partial)
    done: list[Done] = []
    offset = 0
    for number, raw in enumerate(iter(stream.readline, b""), 1):
        if not raw.endswith(b"\n"):
            stream.truncate(offset)
            break
        try:
            row = json.loads(raw)
            digest = row.get("input_sha256")
            done.append(Done(str(row["snapshot"]), digest if isinstance(digest, str) else None,
                             row, offset + len(raw)))
        except (ValueError, TypeError, KeyError, AttributeError):
            stream.close()
            raise WhybotError("--resume: not a result row", file=str(partial), line=number,
                              hint="start over with --force") from None
        offset += len(raw)
    return stream, done


def open_results(out: Path | None, paths: list[Path], *, force: bool, resume: bool,
                 run: dict[str, Any], on_row: OnRow) -> Results:
    """Where this batch's rows go, every refusal made before any snapshot is decided."""
    if out is None:
        if resume:
            raise WhybotError("--resume continues a run that wrote --out FILE",
                              hint="give the same --out as the interrupted run")
        _check_stdout(paths)
        sys.stdout.flush()
        return Results(sys.stdout.buffer)
    checked = checked_out(out, paths)
    target, partial = checked.target, partial_of(checked.target)
    if checked.special:
        if resume:
            raise WhybotError(f"--resume: {out} is a device or FIFO, written as the rows came",
                              hint="run without --resume")
        return Results(_opened(out, lambda: open_special(target)), target, special=True)
    if resume:
        stream, done = _read_partial(target, run)
        return Results(stream, target, done, on_row)
    if not force and target.exists():
        raise WhybotError(f"{out} already exists", hint="use --force to overwrite it")
    if not force and os.path.lexists(partial):
        raise WhybotError(f"an interrupted batch left {partial}",
                          hint="continue it with --resume, or start over with --force")
    with _opened(card_of(target), lambda: create(card_of(target))) as card:
        card.write(json.dumps(run).encode("utf-8"))
    return Results(_opened(partial, lambda: create(partial)), target)


def _opened(name: Path, opening: Callable[[], BinaryIO]) -> BinaryIO:
    """What `opening` opens, or one line saying why this batch cannot write there."""
    try:
        return opening()
    except OSError as exc:
        raise WhybotError(f"--out: cannot write here: {exc.strerror or exc}",
                          file=str(name)) from None


__all__ = ["Results", "encode", "open_results"]
