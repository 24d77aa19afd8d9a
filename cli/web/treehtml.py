"""The terminal's views of a decision and its trace (`cli/decision_view.py`,
`cli/trace_view.py`), as HTML nested lists.

The page shows exactly what `whybot decide` and `whybot why` print: it takes the same rich
renderables those commands build from the trace data and writes each Tree as a nested list
(a node with children is a `<details>` the player opens), each Text with its styles as CSS
classes. Nothing is derived again here, so the page and the terminal cannot disagree.
"""

from __future__ import annotations

from html import escape
from itertools import pairwise

from markupsafe import Markup
from rich.console import Group
from rich.style import Style
from rich.text import Text
from rich.tree import Tree

_WORDS = frozenset({"bold", "dim", "italic", "red", "green", "yellow", "cyan", "magenta"})


def _classes(style: str | Style | None) -> list[str]:
    words = str(style or "").split()
    return [f"t-{word}" for word in words if word in _WORDS]


def text_html(text: Text | str) -> str:
    """A Text as spans: each run of characters with the same styles gets their classes."""
    if isinstance(text, str):
        return escape(text)
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    base = _classes(text.style)
    parts = []
    for start, end in pairwise(cuts):
        if start >= end:
            continue
        classes = list(base)
        for span in text.spans:
            if span.start <= start and end <= span.end:
                classes += _classes(span.style)
        chunk = escape(plain[start:end])
        parts.append(f'<span class="{" ".join(dict.fromkeys(classes))}">{chunk}</span>'
                     if classes else chunk)
    return "".join(parts)


def _node(tree: Tree, open_depth: int, depth: int) -> str:
    label = text_html(tree.label) if isinstance(tree.label, Text | str) else ""
    if not tree.children:
        return f"<li>{label}</li>"
    children = "".join(_node(child, open_depth, depth + 1) for child in tree.children)
    opened = " open" if depth < open_depth and tree.expanded else ""  # folded: closed
    return (f"<li><details{opened}><summary>{label}</summary>"
            f"<ul>{children}</ul></details></li>")


def tree_html(renderable: object, open_depth: int = 1) -> Markup:
    """A Group, Tree or Text as HTML: trees as nested lists opened `open_depth` levels deep."""
    if isinstance(renderable, Group):
        return Markup("".join(tree_html(part, open_depth) for part in renderable.renderables))
    if isinstance(renderable, Tree):
        return Markup(f'<ul class="tree">{_node(renderable, open_depth, 0)}</ul>')
    if isinstance(renderable, Text | str):
        shown = text_html(renderable)
        return Markup(f'<p class="line">{shown}</p>' if shown.strip() else "")
    raise TypeError(f"cannot show {type(renderable).__name__} as HTML")
