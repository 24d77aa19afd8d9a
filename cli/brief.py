"""`whybot why --brief`: the decision, then one line per rule on the path — the short why a
player reads at the table. Only the rules that chose a card or an action list the higher rules
that did not apply (the full trace, `whybot why`, lists them for every rule, with the values
each matched)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .decision_view import render_decision


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:max(width - 1, 0)].rstrip() + "…"


def _deciding(data: dict[str, Any]) -> set[str]:
    """The rules that chose something the decision shows: a card, a target, an action."""
    decision = data.get("decision", {})
    return ({c.get("by") for c in decision.get("choices", {}).values()}
            | {a.get("rule") for a in decision.get("actions", [])}) - {None}


def _step(number: int, step: dict[str, Any], deciding: set[str], width: int) -> list[Text]:
    head = f"{'  ' * step.get('depth', 0)}{number:>2}. "
    rule = step.get("rule")
    if not rule:
        note = "; ".join(step.get("notes", [])) or "no rule applies"
        return [Text.assemble((head, "dim"), (_cut(f"{step['page']}: {note}",
                                                   width - len(head)), "yellow"))]
    line = Text.assemble((head, "dim"), (rule, "bold green" if rule in deciding else "bold"))
    room = width - len(line) - 3
    if step.get("says") and room > 10:
        line.append(f" — {_cut(step['says'], room)}", style="italic")
    lines = [line]
    if rule in deciding:
        pad = " " * (len(head) + 2)
        for skipped in step.get("skipped", []):
            reason = skipped.get("why", ["did not apply"])[0]
            lines.append(Text.assemble(pad, ("not ", "dim"), (skipped["rule"], "red"),
                                       (_cut(f": {reason}", width - len(pad) - 4
                                             - len(skipped["rule"])), "dim")))
    return lines


def render_brief(data: dict[str, Any], width: int = 80) -> RenderableType:
    """`width`: the terminal's, so every rule stays on one line."""
    deciding = _deciding(data)
    lines: list[RenderableType] = [
        render_decision(data), Text(""),
        Text("why, in short (every value and reason: whybot why without --brief):",
             style="bold")]
    for number, step in enumerate(data.get("path", []), 1):
        lines += _step(number, step, deciding, width)
    return Group(*lines)
