"""`whybot why --rule ID`: did one rule fire, where and on what; if not, why not.

The answer is data first (`rule_verdict`, printed as JSON with --json), then a small tree.
Statuses: fired, skipped (considered, its condition failed: the failing parts), outranked (its
page was read but a rule above it fired first), page not reached (with the pages read),
overridden (a derivation whose judgment the snapshot gave), disabled (by a house-rule file).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from rich.tree import Tree

from whybot.engine.evaluate import World, failures
from whybot.engine.model import DERIVATION

from . import render
from .common import find_rule, rel


def rule_verdict(engine: Any, situation: Any, data: dict[str, Any], rule_id: str
                 ) -> dict[str, Any]:
    """Did `rule_id` fire in this trace? If not: skipped (why), outranked, or page not reached."""
    if rule_id in engine.pack.disabled:
        return {"rule": rule_id, "status": "disabled", "why": [engine.pack.disabled[rule_id]]}
    rule = find_rule(engine.pack, rule_id)
    verdict: dict[str, Any] = {"rule": rule.id, "page": rule.procedure, "says": rule.says,
                               "when": rule.when_text, "file": f"{rel(rule.file)}:{rule.line}"}
    path = data["path"]
    if rule.kind == DERIVATION:
        judgments = engine.derive(situation)
        judgment = judgments.get(rule.then["judge"])
        by = [s for s in (judgment.by if judgment else []) if s.get("rule") == rule.id]
        if by:
            return {**verdict, "status": "fired", "judgment": rule.then["judge"],
                    "value": judgment.value, "matched": by[0].get("facts", [])}
        state = {**situation.board, **{n: j.value for n, j in judgments.items()}}
        world = World(state, situation.entities)
        status = "overridden" if judgment and judgment.origin == "given" else "skipped"
        why = failures(rule.when, world) or [
            "its condition holds, but another rule had already established "
            f"{rule.then['judge']} = {render.show(judgment.value if judgment else None)}"]
        return {**verdict, "status": status, "judgment": rule.then["judge"],
                "value": judgment.value if judgment else None,
                "origin": judgment.origin if judgment else "unknown", "why": why}
    for number, step in enumerate(path, 1):
        if step.get("rule") == rule.id:
            return {**verdict, "status": "fired", "step": number,
                    "matched": step.get("matched", {}), "outcome": step.get("outcome", {})}
    for number, step in enumerate(path, 1):
        for skipped in step.get("skipped", []):
            if skipped["rule"] == rule.id:
                return {**verdict, "status": "skipped", "step": number, "why": skipped["why"]}
    visits = [(n, s) for n, s in enumerate(path, 1) if s["page"] == rule.procedure]
    pages = [s["page"] for s in path]
    if not visits:
        return {**verdict, "status": "page not reached",
                "path": list(dict.fromkeys(pages))}
    number, step = visits[0]
    return {**verdict, "status": "outranked", "step": number,
            "fired_instead": [s.get("rule") for _, s in visits]}


def render_verdict(verdict: dict[str, Any], data: dict[str, Any]) -> Any:
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
            line += f": established {verdict['judgment']} = {render.show(verdict['value'])}"
        node = tree.add(Text(line, style="bold green"))
        matched = verdict.get("matched", {})
        items = matched if isinstance(matched, list) else [
            {k: v for k, v in matched.items() if k != "entities"},
            *matched.get("entities", [])]
        for item in items:
            if item:
                node.add(Text("matched: " + ", ".join(f"{k} = {render.show(v)}"
                                                       for k, v in item.items())))
    elif status in ("skipped", "overridden"):
        text = "did NOT apply" + (f" at step {verdict['step']}" if "step" in verdict else "")
        if status == "overridden":
            text = f"not used: {verdict['judgment']} was given in the snapshot"
        elif "judgment" in verdict:
            text += (f": {verdict['judgment']} = {render.show(verdict['value'])} "
                     f"({verdict['origin']})")
        node = tree.add(Text(text, style="bold red"))
        for reason in verdict.get("why", []):
            node.add(Text(reason))
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
