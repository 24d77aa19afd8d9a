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

from .errors import WhybotError
from .limits import LimitError, Limits, current

PathKey = tuple[str | int, ...]

# libyaml's C parser when PyYAML was built with it; the pure-Python one otherwise.
FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# What YAML itself calls printable (PyYAML's Reader uses the same set): anything else in a file
# or in a value (after escapes) is refused. Tab, newline and carriage return are text.
_RISKY_ESCAPE = re.compile(r"\\[ubf]")  # JSON escapes that may decode to a bad character
_UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ALLOWED_TAGS = {f"tag:yaml.org,2002:{name}"
                 for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge")}
_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
# Python refuses to convert integers of more than 4,300 digits; no whybot value needs 100.
NUMBER_CHARS = 100
_C_SURROGATE_ESCAPE = "found invalid Unicode character escape code"
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


def json_path(path: PathKey) -> str:
    """`("rules", 3, "when")` → `$.rules[3].when`, the jsonschema convention."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


# What may stand in one line of an error: printable, and no line break of any kind.
_NOT_ONE_LINE = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd"
                           "\U00010000-\U0010ffff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: str) -> str:
    """`text` as one printable line: line breaks, tabs, control characters and lone surrogates
    escaped (`\\n`, `\\x00`, `\\ud83d`). Any other character, non-ASCII included, is kept:
    a planet's name reads as written."""
    return _NOT_ONE_LINE.sub(_escape, text)


def excerpt(text: str, limit: int | None = None) -> str:
    """A short, escaped quote of the user's text for an error message (limit `message_chars`).

    Error lines are read on a terminal and stored in batch rows: a 50 MB line, or bytes that
    would garble the terminal, must never reach them."""
    limit = current().message_chars if limit is None else limit
    escaped = printable(text[: limit + 1])
    return escaped if len(escaped) <= limit and len(text) <= limit else escaped[:limit] + "…"


# --- text the engine can carry --------------------------------------------------------------


def _first_bad(text: str) -> tuple[int, str] | None:
    """Offset and description of the first character the engine cannot carry, if any.

    A high surrogate followed by a low one is a pair (the JSON escape of one character), not a
    problem; either half alone is."""
    for match in _UNPRINTABLE.finditer(text):
        start, code = match.start(), ord(match.group())
        after = ord(text[start + 1]) if start + 1 < len(text) else 0
        before = ord(text[start - 1]) if start else 0
        if 0xD800 <= code <= 0xDBFF and 0xDC00 <= after <= 0xDFFF:
            continue
        if 0xDC00 <= code <= 0xDFFF and 0xD800 <= before <= 0xDBFF:
            continue
        if 0xD800 <= code <= 0xDFFF:
            return start, f"lone surrogate \\u{code:04x} (half of a character) in text"
        return start, f"control character U+{code:04X} is not allowed in text"
    return None


def clean_text(value: str) -> str | None:
    """`value` with surrogate pairs combined, or None if a lone surrogate or control remains.

    PyYAML turns the JSON escape `\\ud83d\\udca5` into two lone surrogates; a valid pair is
    the one character it encodes."""
    if _UNPRINTABLE.search(value) is None:
        return value
    if _first_bad(value) is not None:
        return None
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def decode_text(data: bytes, file: str, error: type[WhybotError] = WhybotError,
                line: int = 1) -> str:
    """UTF-8 bytes → text; invalid bytes are one error naming the line they are on."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise error(f"not valid UTF-8: byte 0x{data[exc.start]:02x} at column {column}",
                    file=file, line=line + before.count(b"\n")) from None


def _check_text(text: str, file: str, error: type[WhybotError], line: int = 1) -> str:
    """`text` with pairs combined; else one error naming the line of the bad character."""
    cleaned = clean_text(text)
    if cleaned is None:
        offset, problem = _first_bad(text) or (0, "text is not valid Unicode")
        raise error(problem, file=file, line=line + text.count("\n", 0, offset))
    return cleaned


# --- YAML: composing nodes under limits ------------------------------------------------------


class _Frame:
    """A collection being composed: its node, where its count started, its tallest child."""

    __slots__ = ("anchor", "height", "key", "node", "start")

    def __init__(self, node: yaml.CollectionNode, start: int, anchor: str | None) -> None:
        self.node = node
        self.start = start
        self.anchor = anchor
        self.height = 0
        self.key: yaml.Node | None = None


class _Composer:
    """Builds the node graph from parser events without recursion, refusing over-limit input.

    PyYAML's own composer recurses once per nesting level and shares aliased nodes, so a deep
    document exhausts the stack and an alias bomb only explodes later, in whoever walks the
    data. Here each value is counted as often as it will be seen (aliases expanded) as soon as
    its event arrives."""

    def __init__(self, loader: yaml.SafeLoader, file: str, error: type[WhybotError],
                 quote: bool) -> None:
        self.loader = loader
        self.file = file
        self.error = error
        self.quote = quote
        self.limits = current()
        self.values = 0
        self.aliases = 0
        self.anchors: dict[str, tuple[yaml.Node, int | None, int]] = {}
        self.tags: dict[tuple[Any, ...], str] = {}
        self.stack: list[_Frame] = []
        self.root: yaml.Node | None = None

    def compose(self) -> yaml.Node | None:
        loader = self.loader
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # document start
        while True:
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent):
                self._alias(event)
            elif isinstance(event, yaml.ScalarEvent):
                self._scalar(event)
            elif isinstance(event, yaml.CollectionStartEvent):
                self._start(event)
            else:  # a collection's end
                self._end(event)
            if not self.stack:
                break
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.get_event()
            raise self.error("not valid YAML/JSON: a file holds one document, found a second",
                             file=self.file, line=event.start_mark.line + 1)
        return self.root

    def _where(self, event: yaml.Event) -> dict[str, Any]:
        return {"file": self.file, "line": event.start_mark.line + 1}

    def _count(self, values: int, event: yaml.Event) -> None:
        self.values += values
        if self.values > self.limits.yaml_nodes:
            self.limits.check("yaml_nodes", self.values, "values with aliases expanded",
                              **self._where(event))

    def _depth(self, depth: int, event: yaml.Event) -> None:
        if depth > self.limits.depth:
            self.limits.check("depth", depth, "nesting depth", **self._where(event))

    def _tag(self, event: yaml.NodeEvent, kind: type[yaml.Node], value: str | None) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            implicit = event.implicit  # type: ignore[attr-defined]
            key = (kind, value, implicit if kind is yaml.ScalarNode else None)
            tag = self.tags.get(key)
            if tag is None:  # resolving is regex work: the same short value resolves once
                tag = self.loader.resolve(kind, value, implicit)
                if value is None or len(value) <= 32:
                    self.tags[key] = tag
        if tag not in _ALLOWED_TAGS:
            short = tag.replace("tag:yaml.org,2002:", "!!")
            shown = f" {excerpt(short, 40)}" if self.quote else ""
            raise self.error(f"the YAML tag{shown} is not allowed: values are text, numbers, "
                             "true/false, null, lists and mappings (quote a date)",
                             **self._where(event))
        return tag

    def _anchor(self, event: yaml.NodeEvent) -> None:
        if event.anchor in self.anchors:
            raise self.error("not valid YAML/JSON: an anchor (&name) is defined twice",
                             **self._where(event))

    def _alias(self, event: yaml.AliasEvent) -> None:
        self.aliases += 1
        self.limits.check("yaml_aliases", self.aliases, "alias references (*name)",
                          **self._where(event))
        if event.anchor not in self.anchors:
            raise self.error("not valid YAML/JSON: an alias (*name) refers to no anchor",
                             **self._where(event))
        node, size, height = self.anchors[event.anchor]
        if size is None:
            raise self.error("an alias (*name) refers to the value that contains it",
                             **self._where(event))
        self._count(size, event)
        self._depth(len(self.stack) + height, event)
        self._attach(node, height, event)

    def _scalar(self, event: yaml.ScalarEvent) -> None:
        value = event.value
        if len(value) > self.limits.string_chars:
            self.limits.check("string_chars", len(value), "characters in one text",
                              **self._where(event))
        tag = self._tag(event, yaml.ScalarNode, value)
        if tag in _NUMBER_TAGS and len(value) > NUMBER_CHARS:
            raise self.error(f"a number of more than {NUMBER_CHARS} characters",
                             **self._where(event))
        if _UNPRINTABLE.search(value) is not None:
            value = _check_text(value, self.file, self.error, event.start_mark.line + 1)
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, style=event.style)
        self._count(1, event)
        if event.anchor is not None:
            self._anchor(event)
            self.anchors[event.anchor] = (node, 1, 0)
        self._attach(node, 0, event)

    def _start(self, event: yaml.CollectionStartEvent) -> None:
        if event.anchor is not None:
            self._anchor(event)
        sequence = isinstance(event, yaml.SequenceStartEvent)
        kind = yaml.SequenceNode if sequence else yaml.MappingNode
        node = kind(self._tag(event, kind, None), [], event.start_mark, None,
                    flow_style=event.flow_style)
        self._depth(len(self.stack) + 1, event)
        self._count(1, event)
        if event.anchor is not None:
            self.anchors[event.anchor] = (node, None, 0)
        self.stack.append(_Frame(node, self.values - 1, event.anchor))

    def _end(self, event: yaml.Event) -> None:
        frame = self.stack.pop()
        frame.node.end_mark = event.end_mark
        height = frame.height + 1
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.node, self.values - frame.start, height)
        self._attach(frame.node, height, event)

    def _attach(self, node: yaml.Node, height: int, event: yaml.Event) -> None:
        if not self.stack:
            self.root = node
            return
        parent = self.stack[-1]
        parent.height = max(parent.height, height)
        if isinstance(parent.node, yaml.SequenceNode):
            parent.node.value.append(node)
        elif parent.key is None:
            if not isinstance(node, yaml.ScalarNode):
                raise self.error("a key must be a plain value, not a list or mapping",
                                 **self._where(event))
            parent.key = node
        else:
            parent.node.value.append((parent.key, node))
            parent.key = None


def _line_map(root: yaml.Node, file: str, error: type[WhybotError],
              quote: bool) -> dict[PathKey, int]:
    """Path → line for every value (walked without recursion), refusing duplicate keys."""
    lines: dict[PathKey, int] = {}
    todo: list[tuple[yaml.Node, PathKey]] = [(root, ())]
    while todo:
        node, path = todo.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, value_node in node.value:
                key = key_node.value
                line = key_node.start_mark.line + 1
                if key in seen:
                    shown = f"key {excerpt(key, 60)!r}" if quote else "a key"
                    raise error(f"{shown} appears twice (first on line {seen[key]})",
                                file=file, line=line,
                                path=json_path((*path, key)) if quote else None)
                seen[key] = line
                lines[(*path, key)] = line
                todo.append((value_node, (*path, key)))
        elif isinstance(node, yaml.SequenceNode):
            todo.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return lines


def _compose(text: str, file: str, error: type[WhybotError], quote: bool,
             loader_class: type[yaml.SafeLoader]) -> tuple[Any, dict[PathKey, int]]:
    loader = loader_class(text)
    try:
        node = _Composer(loader, file, error, quote).compose()
        if node is None:
            return None, {}
        lines = _line_map(node, file, error, quote)
        return loader.construct_document(node), lines
    except (ValueError, OverflowError) as exc:  # an escape or a value Python cannot represent
        line = getattr(loader, "line", None)  # the pure-Python reader knows where it is
        detail = f": {excerpt(str(exc), 120)}" if quote else ""
        raise error(f"not valid YAML/JSON{detail}", file=file,
                    line=line + 1 if isinstance(line, int) else None) from None
    finally:
        loader.dispose()


def _syntax_error(exc: yaml.MarkedYAMLError, file: str, error: type[WhybotError],
                  quote: bool) -> WhybotError:
    mark = exc.problem_mark or exc.context_mark
    detail = f": {excerpt(str(exc.problem or exc.context), 120)}" if quote else ""
    return error(f"not valid YAML/JSON{detail}", file=file, line=mark.line + 1 if mark else None)


def parse_text(text: str, file: str, error: type[WhybotError] = WhybotError, *,
               quote: bool = True) -> Document:
    """Parse one YAML (or JSON) document; any problem becomes one line naming file:line.

    `quote=False` keeps the file's content out of the messages (a file the user did not
    write by hand, e.g. one a snapshot includes)."""
    current().check("file_bytes", len(text), "characters in the file", file=file)
    text = _check_text(text, file, error)
    try:
        try:
            data, lines = _compose(text, file, error, quote, FAST_LOADER)
        except yaml.MarkedYAMLError as exc:
            # libyaml refuses the JSON surrogate-pair escape that PyYAML reads (and we combine)
            if FAST_LOADER is yaml.SafeLoader or exc.problem != _C_SURROGATE_ESCAPE:
                raise
            data, lines = _compose(text, file, error, quote, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file, error, quote) from None
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
    where = {"file": file, "line": line}

    def text(value: str, path: PathKey) -> str:
        limits.check("string_chars", len(value), "characters in one text", **where,
                     path=json_path(path))
        cleaned = clean_text(value)
        if cleaned is None:
            raise error((_first_bad(value) or (0, "text is not valid Unicode"))[1], **where,
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
        _RISKY_ESCAPE.search(text) is None and _UNPRINTABLE.search(text) is None


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
