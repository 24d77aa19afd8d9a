"""One rule's verdict in the terminal (`whybot why --rule`): whether it fired, did not apply,
was outranked or never reached, and why, from `rule_verdict`'s data only.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from .render import show
from .trace_view import why_not_reasons


def render_verdict(verdict: dict[str, Any]) -> RenderableType:
    status = verdict["status"]
    if status == "disabled":
        return Text.assemble(("rule ", "bold"), (verdict["rule"], "bold cyan"),
                             (" is disabled by a house rule: ", "bold yellow"),
                             verdict["why"][0])
    head = Text.assemble(("rule ", "bold"), (verdict["rule"], "bold cyan"),
                         (f"  on page {verdict['page']}  ({verdict['file']})", "dim"))
    tree = Tree(head)
    if verdict.get("says"):
        tree.add(Text(verdict["says"], style="italic"))
    tree.add(Text.assemble(("when: ", "bold"), verdict["when"]))
    if status == "fired":
        line = "FIRED" + (f" at step {verdict['step']}" if "step" in verdict else "")
        if "judgment" in verdict:
            line += f": established {verdict['judgment']} = {show(verdict['value'])}"
        node = tree.add(Text(line, style="bold green"))
        matched = verdict.get("matched", {})
        items = matched if isinstance(matched, list) else [
            {k: v for k, v in matched.items() if k != "entities"},
            *matched.get("entities", [])]
        for item in items:
            if item:
                node.add(Text("matched: " + ", ".join(f"{k} = {show(v)}"
                                                       for k, v in item.items())))
    elif status in ("skipped", "overridden"):
        text = "did NOT apply" + (f" at step {verdict['step']}" if "step" in verdict else "")
        if status == "overridden":
            text = f"not used: {verdict['judgment']} was given in the snapshot"
        elif "judgment" in verdict:
            text += (f": {verdict['judgment']} = {show(verdict['value'])} "
                     f"({verdict['origin']})")
        why_not_reasons(tree.add(Text(text, style="bold red")), verdict)
    elif status == "outranked":
        node = tree.add(Text(f"not considered: page {verdict['page']} was read (step "
                             f"{verdict['step']}), but a rule above it fired first",
                             style="bold yellow"))
        for fired in verdict["fired_instead"]:
            node.add(Text(f"fired instead: {fired}"))
    else:
        node = tree.add(Text(f"not considered: page {verdict['page']} was never reached",
                             style="bold yellow"))
        node.add(Text("pages read: " + " → ".join(verdict["path"])))
    return Group(tree)
