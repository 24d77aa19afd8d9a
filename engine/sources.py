"""Reading YAML/JSON documents while remembering the line of every value.

Errors about rule files and snapshots must name `file:line`, so a document is kept with a map
from each value's path (`("rules", 3, "when")`) to the line it starts on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import WhybotError

PathKey = tuple[str | int, ...]


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


def _walk(node: yaml.Node, path: PathKey, lines: dict[PathKey, int], file: str,
          error: type[WhybotError]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in seen:
                raise error(f"key {key!r} appears twice (first on line {seen[key]})",
                            file=file, line=line, path=json_path((*path, key)))
            seen[key] = line
            _walk(value_node, (*path, key), lines, file, error)
            lines[(*path, key)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines, file, error)


def parse_text(text: str, file: str, error: type[WhybotError] = WhybotError) -> Document:
    """Parse one YAML (or JSON) document; syntax errors become one line naming file:line."""
    loader = None
    try:
        loader = yaml.SafeLoader(text)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise error(f"not valid YAML/JSON: {exc.problem or exc.context}", file=file,
                    line=line) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise error(f"not valid YAML/JSON: {first}", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()
    lines: dict[PathKey, int] = {}
    if node is not None:
        _walk(node, (), lines, file, error)
    return Document(data=data, file=file, lines=lines)


def read_document(path: Path, error: type[WhybotError] = WhybotError) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read: {exc.strerror if isinstance(exc, OSError) else exc}",
                    file=str(path)) from None
    return parse_text(text, str(path), error)
