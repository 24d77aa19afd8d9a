"""`whybot why --brief` (and the page's Why): the answer, then the reasons in the player's
words (`reasons.py`: one line each, the seed's question and the table fact that settled it),
then the facts the snapshot left out. The full trace (`whybot why`) follows the same opening
with every page, rule and value."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from .decision_view import render_assumed, render_decision
from .shown import Shown


def render_reasons(shown: Shown) -> Tree:
    """`why:` and one line per reason, in the order the walk settled them."""
    tree = Tree(Text("why:", style="bold"))
    reasons = shown.data["reasons"]
    for line in reasons:
        tree.add(Text(line))
    if not reasons:
        tree.add(Text("no question decided this: the procedure's steps, in the full trace",
                      style="dim"))
    return tree


def opening(shown: Shown) -> list[RenderableType]:
    """The answer, its reasons, then what was assumed: how every `why` begins."""
    parts: list[RenderableType] = [render_decision(shown, assumed_first=False),
                                   render_reasons(shown)]
    if shown.trace.assumed:
        parts.append(render_assumed(shown.trace.assumed))
    return parts


def render_brief(shown: Shown) -> RenderableType:
    return Group(*opening(shown))
