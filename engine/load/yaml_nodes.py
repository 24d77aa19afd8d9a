"""Composing YAML nodes under the limits, with the line of every value.

PyYAML's own composer recurses once per nesting level and shares aliased nodes, so a deep
document exhausts the stack and an alias bomb only explodes later, in whoever walks the data.
The composer here is iterative and counts each value as often as it will be seen."""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import WhybotError
from ..limits import current
from ..text import UNPRINTABLE, PathKey, check_text, excerpt, json_path

_ALLOWED_TAGS = {f"tag:yaml.org,2002:{name}"
                 for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge")}
_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
# Python refuses to convert integers of more than 4,300 digits; no whybot value needs 100.
NUMBER_CHARS = 100

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
        assert event.start_mark is not None  # the loader marks every event
        return {"file": self.file, "line": event.start_mark.line + 1}

    def _count(self, values: int, event: yaml.Event) -> None:
        self.values += values
        if self.values > self.limits.yaml_nodes:
            self.limits.check("yaml_nodes", self.values, "values with aliases expanded",
                              **self._where(event))

    def _depth(self, depth: int, event: yaml.Event) -> None:
        if depth > self.limits.depth:
            self.limits.check("depth", depth, "nesting depth", **self._where(event))

    def _tag(self, event: yaml.ScalarEvent | yaml.CollectionStartEvent, kind: type[yaml.Node],
             value: str | None) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            implicit = event.implicit
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
        if UNPRINTABLE.search(value) is not None:
            assert event.start_mark is not None  # the loader marks every event
            value = check_text(value, self.file, self.error, event.start_mark.line + 1)
        # types-PyYAML: events may carry the C parser's marks, nodes take only Python ones
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark,  # type: ignore[arg-type]
                               style=event.style)
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
        # types-PyYAML: events may carry the C parser's marks, nodes take only Python ones
        node = kind(self._tag(event, kind, None), [], event.start_mark,  # type: ignore[arg-type]
                    None, flow_style=event.flow_style)
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
                at = (*path, key)
                lines[at] = line
                todo.append((value_node, at))
        elif isinstance(node, yaml.SequenceNode):
            todo.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return lines


def compose(text: str, file: str, error: type[WhybotError], quote: bool,
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


def syntax_error(exc: yaml.MarkedYAMLError, file: str, error: type[WhybotError],
                  quote: bool) -> WhybotError:
    mark = exc.problem_mark or exc.context_mark
    detail = f": {excerpt(str(exc.problem or exc.context), 120)}" if quote else ""
    return error(f"not valid YAML/JSON{detail}", file=file, line=mark.line + 1 if mark else None)
