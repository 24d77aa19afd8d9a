"""The full trace in the terminal (`whybot why`), from the typed trace (`shown.Shown`): the answer
and its reasons first (`brief.py`), then the path through the pages with each step's outcome and
why the rules above it did not apply, the judgments and their origins, what was derived for
each listed entity, and last, folded, why not the start page's other decision points. A
citation reads as the seed's title and section, never its file.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from whybot.engine import Step, WhyNot
from whybot.facts.play.wording import cited_as

from .brief import opening
from .render import entity_text, labelled, pack_and_variant, pairs, roll_text, show
from .shown import Shown


def _outcome(node: Tree, outcome: dict[str, Any]) -> None:
    for note in outcome.get("notes", []):
        node.add(Text(note, style="dim"))
    for roll in outcome.get("rolls", []):
        node.add(labelled("rolled", "").append_text(roll_text(roll)))
    for name, change in outcome.get("set", {}).items():
        text = f"{name}: {show(change.get('from'))} → {show(change.get('to'))}"
        if change.get("by") not in (None, str(change.get("to"))):
            text += f"   ({change['by']})"
        node.add(labelled("set", text))
    for kind in ("select", "target"):
        if kind in outcome:
            chosen = outcome[kind]
            sub = node.add(labelled(f"{kind}ed" if kind == "select" else "targeted",
                                 entity_text(chosen.get("chosen")), "yellow"))
            sub.add(Text(f"{chosen.get('candidates')} candidate(s)", style="dim"))
            for step in chosen.get("narrowing", []):
                sub.add(Text(step, style="dim"))
            for item in chosen.get("guidance", []):
                sub.add(labelled("prefer:", item, "italic"))
    for change in outcome.get("update", []):
        moved = {n: c for n, c in change["set"].items() if c.get("from") != c.get("to")}
        if moved:  # fields set to the value they had are not news
            node.add(labelled("changed", f"{change['entity']}: " + "; ".join(
                f"{name} {show(c.get('from'))} → {show(c.get('to'))}"
                for name, c in moved.items())))
    spread = outcome.get("distribute")
    if spread:
        sub = node.add(labelled("spread", f"{show(spread['amount'])} over {spread['over']}"
                                       + (f" — {spread['says']}" if spread.get("says") else "")))
        for part in spread["to"]:
            sub.add(Text(f"{part['entity']}: +{part['added']} (now {show(part['now'])})"))
        if spread.get("rest"):
            left = "left over (not shared evenly)" if spread.get("even") else "found no room"
            sub.add(Text(f"{spread['rest']} {left}", style="yellow"))
    for removed in outcome.get("removed", []):
        node.add(labelled("used up", removed))
    if outcome.get("rederive"):
        node.add(labelled("judged again:", "every judgment, from the board as it is now", "dim"))
    if "each" in outcome:
        visited = outcome["each"]["visited"]
        node.add(labelled("for each", f"{outcome['each']['from']}: "
                                   + (", ".join(visited) if visited else "none")))
    if "action" in outcome:
        node.add(labelled("action:", str(outcome["action"]), "bold green"))
    for said in outcome.get("say", []):
        node.add(labelled("says:", str(said)))
    if "stop" in outcome:
        node.add(labelled("stop:", str(outcome["stop"]), "bold red"))
    if "call" in outcome:
        node.add(labelled("reads page", f"{outcome['call']} (then comes back)", "cyan"))
    if "missing" in outcome:
        node.add(labelled("no page", f"{outcome['missing']}: not read", "dim"))
    if "goto" in outcome:
        node.add(labelled("goes to page", str(outcome["goto"]), "cyan"))
    if "after_action" in outcome:
        _outcome(node.add(Text("after the action:", style="bold")), outcome["after_action"])


def why_not(node: Tree, skipped: list[WhyNot]) -> None:
    """Under a step: each higher rule that did not apply, its question and what failed."""
    if not skipped:
        return
    branch = node.add(Text("why not the rules above it:", style="bold"))
    for item in skipped:
        rule = branch.add(Text.assemble((item.rule, "red"), "  ", (item.says, "italic")))
        for reason in item.why:
            rule.add(Text(reason, style="dim"))


def step_node(step: Step, number: int, seed: str, why_nots: bool = True) -> Tree:
    """One visit's result: the fired rule, its question, citation (as the `seed`'s title and
    section), matches, outcome, and (unless `why_nots` is false) why not the rules above it."""
    rule = step.rule
    if rule:
        node = Tree(Text.assemble((f"{number}. ", "dim"), ("fired ", "bold"),
                                  (rule, "bold green"),
                                  (f"  ({step.layer})" if step.layer else "", "dim")))
    else:
        node = Tree(Text.assemble((f"{number}. ", "dim"),
                                  ("; ".join(step.notes) or "no rule applies", "yellow")))
    if step.says:
        node.add(Text(step.says, style="italic"))
    if step.cite:
        node.add(labelled("cites:", cited_as(step.cite, seed), "dim"))
    matched = {k: v for k, v in step.matched.items() if k != "entities"}
    if matched:
        node.add(labelled("matched:", pairs(matched)))
    for entity in step.matched.get("entities", []):
        node.add(labelled("matched:", entity_text(entity)))
    _outcome(node, step.outcome)
    if rule:
        for note in step.notes:
            node.add(Text(note, style="yellow"))
    if why_nots:
        why_not(node, step.skipped)
    return node


def _fact(fact: dict[str, Any]) -> str:
    if "judgment" in fact:
        given = " (given)" if fact.get("given") else ""
        return f"{fact['judgment']} = {show(fact.get('value'))}{given}"
    if "kind" in fact:
        rest = {k: v for k, v in fact.items() if k != "kind"}
        return f"{fact['kind']}: {entity_text(rest, full=False)}"
    return pairs(fact)


def _support(node: Tree, support: dict[str, Any], seed: str) -> None:
    """Under a judgment: `by RULE`, its citation, and the facts it read."""
    by = node.add(Text.assemble(("by ", "bold"), (support["rule"], "green")))
    if support.get("cite"):
        by.add(labelled("cites:", cited_as(support["cite"], seed), "dim"))
    for fact in support.get("facts", []):
        by.add(labelled("from", _fact(fact)))


def render_judgments(judgments: dict[str, Any], seed: str) -> RenderableType:
    """Each judgment the decision read: its value, the question, and where it came from."""
    tree = Tree(Text("judgments used:", style="bold"))
    for name, judgment in judgments.items():
        origin = judgment.get("origin", "")
        node = tree.add(Text.assemble((name, "bold"), " = ",
                                      (show(judgment.get("value")), "bold"), "  ",
                                      (origin, "yellow" if "assumed" in origin else "dim")))
        if judgment.get("question"):
            node.add(Text(judgment["question"], style="italic"))
        for support in judgment.get("by", []):
            if "note" in support:
                node.add(Text(f"{support['rule']}: {support['note']}", style="dim"))
                continue
            _support(node, support, seed)
        for rule in judgment.get("not_by", []):
            _not_by(node, rule, seed)
    return tree


def _not_by(node: Tree, rule: dict[str, Any], seed: str) -> None:
    """Under a judgment no rule established: a rule that could have, and why it did not."""
    branch = node.add(Text.assemble(("not by ", "bold"), (rule["rule"], "red")))
    if rule.get("cite"):
        branch.add(labelled("cites:", cited_as(rule["cite"], seed), "dim"))
    why_not_reasons(branch, rule)


def why_not_reasons(node: Tree, verdict: dict[str, Any]) -> None:
    """The failing parts of a condition; under them, each entity an `exists` looked at and
    the parts it fails."""
    for reason in verdict.get("why", []):
        node.add(Text(reason))
    if verdict.get("entities"):
        seen = node.add(Text("the entities it looked at:", style="dim"))
        for entity in verdict["entities"]:
            seen.add(Text(entity))


def render_entity_judgments(items: list[dict[str, Any]], seed: str) -> RenderableType:
    """Each field a derivation established on an entity (a region's `candidate`), and why."""
    tree = Tree(Text("judgments about entities:", style="bold"))
    for item in items:
        node = tree.add(Text.assemble((f"{item['entity']}: ", "bold"), item["field"], " = ",
                                      (show(item.get("value")), "bold"), "  ",
                                      (item.get("origin", ""), "dim")))
        if "now" in item:
            node.label.append(f"  (after the actions: {show(item['now'])})", style="yellow")
        for support in item.get("by", []):
            _support(node, support, seed)
    return tree


def path_tree(shown: Shown) -> Tree:
    """The path through the pages. Consecutive rules of one page visit share its node; a page
    read by `call` hangs under the rule that read it. The start page's why-nots (which other
    decision point this is not) are left for `start_why_not`, at the end."""
    trace, presentation = shown.trace, shown.presentation
    seed, start = presentation.get("seed", ""), presentation.get("start")
    root = Tree(Text.assemble(("Why: ", "bold"), (trace.snapshot, "bold cyan"),
                              (f"  ({pack_and_variant(shown.data)})", "dim")))
    pages: dict[int, tuple[str, Tree]] = {}
    steps: dict[int, Tree] = {-1: root}
    for number, step in enumerate(trace.steps, 1):
        depth = step.depth
        for deeper in [d for d in pages if d > depth]:
            del pages[deeper]
        if depth in pages and pages[depth][0] == step.page:
            page_node = pages[depth][1]
        else:
            head = Text("page ", style="bold")
            head.append(step.page, style="bold cyan")
            if step.title and step.title != step.page:
                head.append(f" — {step.title}", style="cyan")
            page_node = steps.get(depth - 1, root).add(head)
            pages[depth] = (step.page, page_node)
        node = step_node(step, number, seed, why_nots=step.page != start)
        page_node.children.append(node)
        steps[depth] = node
    return root


def start_why_not(shown: Shown) -> Tree | None:
    """Why not the start page's other rules (setup, chapter, summit, …), folded: their names
    on one line; the page (and `Tree.expanded`) opens each rule's reasons."""
    start = shown.presentation.get("start")
    skipped = [s for step in shown.trace.steps if step.page == start for s in step.skipped]
    if not skipped:
        return None
    names = ", ".join(dict.fromkeys(
        s.rule.removeprefix(f"{start}.").replace("-", " ").replace("_", " ")
        for s in skipped))
    node = Tree(Text.assemble(("why not the other decision points: ", "bold"), (names, "dim")),
                expanded=False)
    why_not(node, skipped)
    return node


def render_trace(shown: Shown) -> RenderableType:
    """The whole trace: the answer and its reasons (`brief.py`), then every step."""
    return Group(*opening(shown), Text(""), render_steps(shown))


def render_steps(shown: Shown) -> RenderableType:
    """The path with why-nots, judgments with origins (and, for those no rule established, the
    rules that could have and why not), the entity judgments, and last, folded, why not the
    start page's other decision points."""
    data, trace = shown.data, shown.trace
    seed = shown.presentation.get("seed", "")
    parts: list[RenderableType] = [path_tree(shown)]
    if trace.judgments:  # as data: with `not_by` (`shown.shown_in_full`)
        parts.append(render_judgments(data["judgments"], seed))
    if trace.entity_judgments:
        parts.append(render_entity_judgments(trace.entity_judgments, seed))
    if trace.conflicts:
        tree = Tree(Text("rules that judged differently (the first value was kept):",
                         style="bold yellow"))
        for item in trace.conflicts:
            tree.add(Text(item, style="yellow"))
        parts.append(tree)
    folded = start_why_not(shown)
    if folded is not None:
        parts.append(folded)
    return Group(*parts)
