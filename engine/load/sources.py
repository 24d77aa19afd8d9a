"""Reading YAML/JSON documents safely, while remembering the line of every value.

Errors about rule files and snapshots must name `file:line`, so a document is kept with a map
from each value's path (`("rules", 3, "when")`) to the line it starts on.

Every file is user input, so reading is bounded before the work is done (the limits of
`limits.py`): the file's size before it is read; then, while the parser's events are composed
into nodes (iteratively, so nesting can never exhaust the stack), the nesting depth, the alias
references, the number of values with aliases expanded (a 500-byte alias bomb is refused after a
few thousand values, never expanded), and the length of each text. Text must be what the engine
can carry: valid UTF-8, no control characters, no lone surrogates (a JSON-style surrogate pair
escape is combined into its character). Values are plain data only: a YAML tag other than
str/int/float/bool/null/seq/map is refused, so reading a file never builds anything else.

Errors quote at most a short, escaped excerpt of the file (`excerpt`), and with `quote=False`
(files a snapshot includes) nothing of its content at all.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from ..errors import WhybotError
from ..limits import LimitError, Limits, current
from ..text import (
    UNPRINTABLE,
    PathKey,
    check_text,
    clean_text,
    decode_text,
    excerpt,
    first_bad,
    json_path,
    printable,
)
from .yaml_nodes import compose, syntax_error

# libyaml's C parser when PyYAML was built with it; the pure-Python one otherwise.
FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RISKY_ESCAPE = re.compile(r"\\[ubf]")  # JSON escapes that may decode to a bad character

# Where libyaml refuses what the pure-Python parser reads, that parser reads it again: the JSON
# surrogate-pair escape (which we combine), and nesting deeper than libyaml's own cap (from
# PyYAML 6.0.4), so that whybot's `depth` limit, not the library, names the refusal.
_C_ONLY_REFUSALS = {"found invalid Unicode character escape code",
                    "exceeded maximum nesting depth"}
_JSON_SIGNS = re.compile(r'[\[\]{}"\\]')


@dataclass
class Document:
    """A parsed file: its data, its name, and where each value came from."""

    data: Any
    file: str
    lines: dict[PathKey, int] = field(default_factory=dict)
    parts: dict[str, Document] = field(default_factory=dict)

    def at(self, path: PathKey) -> dict[str, Any]:
        """`file` and `line` of the value at `path`, in the file it really came from."""
        path = tuple(path)
        if path and path[0] in self.parts:
            part = self.parts[path[0]]
            return {"file": part.file, "line": part.line(path)}
        return {"file": self.file, "line": self.line(path)}

    def line(self, path: PathKey) -> int | None:
        """The line of the value at `path`, or of its nearest enclosing value."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)


def parse_text(text: str, file: str, error: type[WhybotError] = WhybotError, *,
               quote: bool = True) -> Document:
    """Parse one YAML (or JSON) document; any problem becomes one line naming file:line.

    `quote=False` keeps the file's content out of the messages (a file the user did not
    write by hand, e.g. one a snapshot includes)."""
    current().check("file_bytes", len(text), "characters in the file", file=file)
    text = check_text(text, file, error)
    try:
        try:
            data, lines = compose(text, file, error, quote, FAST_LOADER)
        except yaml.MarkedYAMLError as exc:
            if FAST_LOADER is yaml.SafeLoader or exc.problem not in _C_ONLY_REFUSALS:
                raise
            data, lines = compose(text, file, error, quote, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise syntax_error(exc, file, error, quote) from None
    except yaml.YAMLError as exc:  # a reader error: the position, not a mark
        position = getattr(exc, "position", None)
        line = text.count("\n", 0, position) + 1 if isinstance(position, int) else None
        raise error("not valid YAML/JSON: unreadable character", file=file, line=line) from None
    return Document(data=data, file=file, lines=lines)


# --- JSON lines: the fast path ---------------------------------------------------------------


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _json_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text (strings skipped), without parsing it.

    One pass over the brackets, quotes and backslashes (a regex for whole strings would
    backtrack quadratically over a line of escaped quotes)."""
    depth = deepest = 0
    in_string = False
    skip = -1
    for match in _JSON_SIGNS.finditer(text):
        at, sign = match.start(), match.group()
        if at < skip:
            continue
        if in_string:
            if sign == "\\":
                skip = at + 2
            elif sign == '"':
                in_string = False
        elif sign == '"':
            in_string = True
        elif sign in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif sign in "]}":
            depth -= 1
    return deepest


def _check_json_values(data: Any, file: str, line: int, error: type[WhybotError]) -> Any:
    """Count the values, bound and clean every text (keys too); the data with pairs combined."""
    limits = current()
    values = 0
    where: dict[str, Any] = {"file": file, "line": line}

    def text(value: str, path: PathKey) -> str:
        limits.check("string_chars", len(value), "characters in one text", **where,
                     path=json_path(path))
        cleaned = clean_text(value)
        if cleaned is None:
            raise error((first_bad(value) or (0, "text is not valid Unicode"))[1], **where,
                        path=json_path(path))
        return cleaned

    root: list[Any] = [data]
    todo: list[tuple[Any, int | str, Any, PathKey]] = [(root, 0, data, ())]
    while todo:
        holder, slot, value, path = todo.pop()
        values += 1
        limits.check("yaml_nodes", values, "values in the line", **where)
        if isinstance(value, str):
            holder[slot] = text(value, path)
        elif isinstance(value, list):
            todo.extend((value, index, item, (*path, index)) for index, item in enumerate(value))
        elif isinstance(value, dict):
            renamed = {text(key, (*path, key)): item for key, item in value.items()}
            if list(renamed) != list(value):
                value.clear()
                value.update(renamed)
            todo.extend((value, key, item, (*path, key)) for key, item in value.items())
    return root[0]


def parse_json_line(raw: bytes, file: str, line: int,
                    error: type[WhybotError] = WhybotError) -> Document:
    """One line of a JSONL file: bounded, decoded, parsed with json.loads, every text checked.

    Every value of the document is placed on `line` (a JSON line has no finer map)."""
    limits = current()
    limits.check("line_bytes", len(raw), "bytes in the line", file=file, line=line)
    text = decode_text(raw, file, error, line).lstrip("\ufeff")
    if text.count("[") + text.count("{") > limits.depth:
        limits.check("depth", _json_depth(text), "nesting depth", file=file, line=line)
    try:
        data = json.loads(text, object_pairs_hook=_pairs)
    except _DuplicateKey as exc:
        raise error(f"key {excerpt(exc.key, 60)!r} appears twice", file=file, line=line,
                    path=json_path((exc.key,))) from None
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file,
                    line=line) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
        raise error(f"not valid JSON: {excerpt(str(exc), 120)}", file=file, line=line) from None
    if not _plainly_clean(text, limits):
        data = _check_json_values(data, file, line, error)
    return Document(data=data, file=file, lines={(): line})


def _plainly_clean(text: str, limits: Limits) -> bool:
    """Whether every text of a JSON line is clean and within the limits without looking at
    each: no unprintable character, no escape that can decode to one (`\\u`, `\\b`, `\\f`;
    `\\n` and `\\"` are fine), and too short a line for any text or count of values to pass
    a limit (a value takes at least one character)."""
    return len(text) <= min(limits.string_chars, limits.yaml_nodes) and \
        _RISKY_ESCAPE.search(text) is None and UNPRINTABLE.search(text) is None


# --- files -------------------------------------------------------------------------------------


def read_bytes(path: Path, error: type[WhybotError] = WhybotError) -> bytes:
    """The bytes of a regular file, refused before reading if larger than `file_bytes`.

    Opened without blocking, so a FIFO or a device named as a snapshot is refused, not waited
    on (or read forever)."""
    file = str(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", file=file) from None
    with os.fdopen(descriptor, "rb") as stream:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise error("cannot read: not a regular file", file=file)
        limit = current().file_bytes
        current().check("file_bytes", info.st_size, "bytes in the file", file=file)
        try:
            data = stream.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read: {exc.strerror}", file=file) from None
    if len(data) > limit:  # it grew while we looked
        raise LimitError(f"more than {limit:,} bytes in the file exceed the limit "
                         f"file_bytes = {limit:,}", file=file)
    return data


STDIN = "-"  # the file name that means standard input, as in most Unix tools


def read_stream(stream: BinaryIO, file: str) -> bytes:
    """Bytes from a pipe, refused once they pass `file_bytes` (never read to the end first)."""
    limit = current().file_bytes
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise LimitError(f"more than {limit:,} bytes exceed the limit file_bytes = {limit:,}",
                         file=file)
    return data


def read_document(path: Path, error: type[WhybotError] = WhybotError, *,
                  quote: bool = True) -> Document:
    """Read and parse one file (or standard input, named `-`): bounded, UTF-8, one YAML or JSON
    document. Standard input reads as if it were a file in the current folder (`include:`
    resolves from there)."""
    if str(path) == STDIN:
        file = "<stdin>"
        data = read_stream(sys.stdin.buffer, file)
    else:
        file = str(path)
        data = read_bytes(path, error)
    return parse_text(decode_text(data, file, error), file, error, quote=quote)


__all__ = ["Document", "clean_text", "decode_text", "excerpt", "json_path", "parse_json_line",
           "parse_text", "printable", "read_bytes", "read_document"]
