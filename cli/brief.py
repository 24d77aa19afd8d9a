"""`whybot why --brief` (and the page's Why): the answer, then the reasons in the player's
words (`reasons.py`: one line each, the seed's question and the table fact that settled it),
then the facts the snapshot left out. The full trace (`whybot why`) follows the same opening
with every page, rule and value."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from .decision_view import render_assumed, render_decision


def render_reasons(data: dict[str, Any]) -> Tree:
    """`why:` and one line per reason, in the order the walk settled them."""
    tree = Tree(Text("why:", style="bold"))
    for line in data.get("reasons", []):
        tree.add(Text(line))
    if not data.get("reasons"):
        tree.add(Text("no question decided this: the procedure's steps, in the full trace",
                      style="dim"))
    return tree


def opening(data: dict[str, Any]) -> list[RenderableType]:
    """The answer, its reasons, then what was assumed: how every `why` begins."""
    parts: list[RenderableType] = [render_decision(data, assumed_first=False),
                                   render_reasons(data)]
    if data.get("assumed"):
        parts.append(render_assumed(data["assumed"]))
    return parts


def render_brief(data: dict[str, Any]) -> RenderableType:
    return Group(*opening(data))
