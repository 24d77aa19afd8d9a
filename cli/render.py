"""Terminal views of a decision and its trace, built from `Trace.as_dict()` data only.

Every text that comes from a rule file or a snapshot goes through `Text` (never rich markup), so
a seed's "[2]" or a house rule's "[bold]" prints as written.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree


def show(value: Any) -> str:
    """A value the way conditions write it: true/false, 'text' as text, None as unknown."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _pairs(values: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {show(v)}" for k, v in values.items())


def _entity(entity: dict[str, Any] | None, full: bool = True, lead: tuple[str, ...] = (),
            ) -> str:
    """`administration · 3 · pivot · 1 action`: the fields the pack puts first (its
    `presentation.lead`), then the other fields that say something, if `full`."""
    if not entity:
        return "nothing"
    head = []
    for item in lead:  # "number", or "actions action": the field, then its unit
        name, _, unit = item.partition(" ")
        if name in entity:
            count = entity[name]
            head.append(show(count) + (f" {unit}{'' if count == 1 else 's'}" if unit else ""))
    named = {item.partition(" ")[0] for item in lead}
    rest = {k: v for k, v in entity.items()
            if k not in named and v not in (None, False, 0, "", "none")}
    if not head:
        return _pairs(rest)
    if not full:
        return " · ".join(head)
    return " · ".join(head) + (f"  ({_pairs(rest)})" if rest else "")


def _line(label: str, text: str, style: str = "") -> Text:
    line = Text()
    line.append(f"{label} ", style="bold")
    line.append(text, style=style)
    return line


# --- the short answer ----------------------------------------------------------------------


def _action(index: int, action: dict[str, Any]) -> Tree:
    head = Text(f"{index}. ", style="bold")
    head.append(str(action.get("action", "?")), style="bold green")
    if action.get("goal"):
        head.append(f" — {action['goal']}")
    if action.get("suit"):
        head.append(f"  [{action['suit']}]", style="cyan")
    node = Tree(head)
    for name in ("details", "budget"):
        if action.get(name) not in (None, ""):
            node.add(_line(f"{name}:", show(action[name])))
    if action.get("target") is not None:
        node.add(_line("target:", _entity(action["target"]), "yellow"))
    for item in action.get("prefer", []):
        node.add(_line("prefer:", item, "italic"))
    for fact in action.get("because", []):
        kind = fact.get("kind", "")
        node.add(_line("because of", f"{kind}: " + _entity(
            {k: v for k, v in fact.items() if k != "kind"}), "yellow"))
    node.add(_line("rule:", f"{action.get('rule')} on page {action.get('page')}", "dim"))
    if action.get("cite"):
        node.add(_line("cites:", action["cite"], "dim"))
    return node


def pack_and_variant(data: dict[str, Any]) -> str:
    """`pack arcs` or `pack arcs, variant draft-000`: what the decision was read from."""
    variant = f", variant {data['variant']}" if data.get("variant") else ""
    return f"pack {data.get('pack', '?')}{variant}"


def _assumption(item: dict[str, Any]) -> Text:
    what = item.get("what", "fact")
    if what == "list":
        head = f"{item['name']}: none listed"
    elif what == "answer":
        head = f"answers.{item['name']} = {show(item['value'])}"
    else:
        head = f"{item['name']} = {show(item['value'])}"
    line = Text(head, style="bold yellow")
    if item.get("says"):
        line.append(f" — {item['says']}")
    if item.get("rule"):
        line.append(f"  (read by {item['rule']} on {item['page']})", style="dim")
    return line


def render_assumed(assumed: list[dict[str, Any]]) -> Tree:
    """The facts the decision read that the snapshot left out, each with its default and the
    first rule that read it: give them to be sure (`--strict` refuses them)."""
    tree = Tree(Text("Assumed (not in the snapshot: give them to be sure; --strict refuses):",
                     style="bold yellow"))
    for item in assumed:
        tree.add(_assumption(item))
    return tree


def render_decision(data: dict[str, Any]) -> RenderableType:
    """The bot's decision, short: the card, each action, the result, the dice, what to do."""
    decision = data.get("decision", {})
    parts: list[RenderableType] = [
        Text.assemble(("Decision ", "bold"), (data.get("snapshot", ""), "bold cyan"),
                      (f"  ({pack_and_variant(data)})", "dim"))]
    presentation = data.get("presentation", {})
    lead = tuple(presentation.get("lead", ()))
    names = presentation.get("choices", {})
    assumed = data.get("assumed", [])
    if assumed:
        parts.append(render_assumed(assumed))
    targets = [a.get("target") for a in decision.get("actions", [])]
    for alias, choice in decision.get("choices", {}).items():
        if choice.get("entity") in targets:
            continue  # shown with its action
        line = _line(f"{names.get(alias, alias)}:",
                     _entity(choice.get("entity"), full=False, lead=lead), "bold yellow")
        line.append(f"   chosen by {choice.get('by')} on {choice.get('page')}", style="dim")
        parts.append(line)
    actions = decision.get("actions", [])
    if actions:
        tree = Tree(Text("actions:", style="bold"))
        for index, action in enumerate(actions, 1):
            tree.add(_action(index, action))
        parts.append(tree)
    else:
        parts.append(_line("actions:", "none", "dim"))
    result = str(decision.get("result", "decided"))
    parts.append(_line("result:", result, "bold red" if result != "decided" else "bold green"))
    dice = data.get("dice", [])
    if dice:
        tree = Tree(Text("dice:", style="bold"))
        for roll in dice:
            tree.add(_roll(roll))
        for note in data.get("dice_notes", []):
            tree.add(Text(note, style="bold yellow"))
        parts.append(tree)
    if decision.get("say"):
        tree = Tree(Text("do:", style="bold"))
        for said in decision["say"]:
            tree.add(Text(said))
        parts.append(tree)
    return Group(*parts)


def _roll(roll: dict[str, Any]) -> Text:
    faces = ", ".join(str(f) for f in roll.get("faces", []))
    result = f"{roll['drawn']} ({roll['pool']})" if roll.get("drawn") else \
        f"{roll.get('total')} success(es) ({roll['successes']})" \
        if roll.get("successes") else str(roll.get("total"))
    text = Text(f"{roll.get('dice')} → [{faces}] = {result}", style="bold magenta")
    text.append(f"  ({roll.get('source')})", style="dim")
    if roll.get("for"):
        text.append(f"  {roll['for']}")
    return text


# --- the full trace --------------------------------------------------------------------------


def _outcome(node: Tree, outcome: dict[str, Any]) -> None:
    for note in outcome.get("notes", []):
        node.add(Text(note, style="dim"))
    for roll in outcome.get("rolls", []):
        node.add(_line("rolled", "").append_text(_roll(roll)))
    for name, change in outcome.get("set", {}).items():
        text = f"{name}: {show(change.get('from'))} → {show(change.get('to'))}"
        if change.get("by") not in (None, str(change.get("to"))):
            text += f"   ({change['by']})"
        node.add(_line("set", text))
    for kind in ("select", "target"):
        if kind in outcome:
            chosen = outcome[kind]
            sub = node.add(_line(f"{kind}ed" if kind == "select" else "targeted",
                                 _entity(chosen.get("chosen")), "yellow"))
            sub.add(Text(f"{chosen.get('candidates')} candidate(s)", style="dim"))
            for step in chosen.get("narrowing", []):
                sub.add(Text(step, style="dim"))
            for item in chosen.get("guidance", []):
                sub.add(_line("prefer:", item, "italic"))
    for change in outcome.get("update", []):
        moved = {n: c for n, c in change["set"].items() if c.get("from") != c.get("to")}
        if moved:  # fields set to the value they had are not news
            node.add(_line("changed", f"{change['entity']}: " + "; ".join(
                f"{name} {show(c.get('from'))} → {show(c.get('to'))}"
                for name, c in moved.items())))
    spread = outcome.get("distribute")
    if spread:
        sub = node.add(_line("spread", f"{show(spread['amount'])} over {spread['over']}"
                                       + (f" — {spread['says']}" if spread.get("says") else "")))
        for part in spread["to"]:
            sub.add(Text(f"{part['entity']}: +{part['added']} (now {show(part['now'])})"))
        if spread.get("rest"):
            left = "left over (not shared evenly)" if spread.get("even") else "found no room"
            sub.add(Text(f"{spread['rest']} {left}", style="yellow"))
    for removed in outcome.get("removed", []):
        node.add(_line("used up", removed))
    if outcome.get("rederive"):
        node.add(_line("judged again:", "every judgment, from the board as it is now", "dim"))
    if "each" in outcome:
        visited = outcome["each"]["visited"]
        node.add(_line("for each", f"{outcome['each']['from']}: "
                                   + (", ".join(visited) if visited else "none")))
    if "action" in outcome:
        node.add(_line("action:", str(outcome["action"]), "bold green"))
    for said in outcome.get("say", []):
        node.add(_line("says:", str(said)))
    if "stop" in outcome:
        node.add(_line("stop:", str(outcome["stop"]), "bold red"))
    if "call" in outcome:
        node.add(_line("reads page", f"{outcome['call']} (then comes back)", "cyan"))
    if "missing" in outcome:
        node.add(_line("no page", f"{outcome['missing']}: not read", "dim"))
    if "goto" in outcome:
        node.add(_line("goes to page", str(outcome["goto"]), "cyan"))
    if "after_action" in outcome:
        _outcome(node.add(Text("after the action:", style="bold")), outcome["after_action"])


def why_not(node: Tree, skipped: list[dict[str, Any]]) -> None:
    """Under a step: each higher rule that did not apply, its question and what failed."""
    if not skipped:
        return
    branch = node.add(Text("why not the rules above it:", style="bold"))
    for item in skipped:
        rule = branch.add(Text.assemble((item["rule"], "red"), "  ", (item.get("says", ""),
                                                                      "italic")))
        for reason in item.get("why", []):
            rule.add(Text(reason, style="dim"))


def step_node(step: dict[str, Any], number: int) -> Tree:
    """One visit's result: the fired rule, its question, citation, matches, outcome, why-nots."""
    rule = step.get("rule")
    if rule:
        node = Tree(Text.assemble((f"{number}. ", "dim"), ("fired ", "bold"),
                                  (rule, "bold green"),
                                  (f"  ({step['layer']})" if step.get("layer") else "", "dim")))
    else:
        node = Tree(Text.assemble((f"{number}. ", "dim"),
                                  ("; ".join(step.get("notes", [])) or "no rule applies",
                                   "yellow")))
    if step.get("says"):
        node.add(Text(step["says"], style="italic"))
    if step.get("cite"):
        node.add(_line("cites:", step["cite"], "dim"))
    matched = {k: v for k, v in step.get("matched", {}).items() if k != "entities"}
    if matched:
        node.add(_line("matched:", _pairs(matched)))
    for entity in step.get("matched", {}).get("entities", []):
        node.add(_line("matched:", _entity(entity)))
    _outcome(node, step.get("outcome", {}))
    if rule:
        for note in step.get("notes", []):
            node.add(Text(note, style="yellow"))
    why_not(node, step.get("skipped", []))
    return node


def _fact(fact: dict[str, Any]) -> str:
    if "judgment" in fact:
        given = " (given)" if fact.get("given") else ""
        return f"{fact['judgment']} = {show(fact.get('value'))}{given}"
    if "kind" in fact:
        rest = {k: v for k, v in fact.items() if k != "kind"}
        return f"{fact['kind']}: {_entity(rest, full=False)}"
    return _pairs(fact)


def render_judgments(judgments: dict[str, Any]) -> RenderableType:
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
            by = node.add(Text.assemble(("by ", "bold"), (support["rule"], "green")))
            if support.get("cite"):
                by.add(_line("cites:", support["cite"], "dim"))
            for fact in support.get("facts", []):
                by.add(_line("from", _fact(fact)))
    return tree


def render_entity_judgments(items: list[dict[str, Any]]) -> RenderableType:
    """Each field a derivation established on an entity (a region's `candidate`), and why."""
    tree = Tree(Text("judgments about entities:", style="bold"))
    for item in items:
        node = tree.add(Text.assemble((f"{item['entity']}: ", "bold"), item["field"], " = ",
                                      (show(item.get("value")), "bold"), "  ",
                                      (item.get("origin", ""), "dim")))
        if "now" in item:
            node.label.append(f"  (after the actions: {show(item['now'])})", style="yellow")
        for support in item.get("by", []):
            by = node.add(Text.assemble(("by ", "bold"), (support["rule"], "green")))
            if support.get("cite"):
                by.add(_line("cites:", support["cite"], "dim"))
            for fact in support.get("facts", []):
                by.add(_line("from", _fact(fact)))
    return tree


def path_tree(data: dict[str, Any]) -> Tree:
    """The path through the pages. Consecutive rules of one page visit share its node; a page
    read by `call` hangs under the rule that read it."""
    root = Tree(Text.assemble(("Why: ", "bold"), (data.get("snapshot", ""), "bold cyan"),
                              (f"  ({pack_and_variant(data)})", "dim")))
    pages: dict[int, tuple[str, Tree]] = {}
    steps: dict[int, Tree] = {-1: root}
    for number, step in enumerate(data.get("path", []), 1):
        depth = step.get("depth", 0)
        for deeper in [d for d in pages if d > depth]:
            del pages[deeper]
        if depth in pages and pages[depth][0] == step["page"]:
            page_node = pages[depth][1]
        else:
            head = Text("page ", style="bold")
            head.append(step["page"], style="bold cyan")
            if step.get("title") and step["title"] != step["page"]:
                head.append(f" — {step['title']}", style="cyan")
            page_node = steps.get(depth - 1, root).add(head)
            pages[depth] = (step["page"], page_node)
        node = step_node(step, number)
        page_node.children.append(node)
        steps[depth] = node
    return root


def render_entities(entities: list[dict[str, Any]]) -> RenderableType:
    """Each listed entity with the fields derived for it, and the rule behind each value."""
    tree = Tree(Text("derived for what the snapshot lists:", style="bold"))
    for entity in entities:
        head = Text.assemble((f"{entity['kind']} ", "bold"), (str(entity["label"]), "bold"))
        node = tree.add(head)
        node.add(Text(_entity(entity.get("fields", {})), style="dim"))
        for name, item in entity.get("derived", {}).items():
            node.add(Text.assemble((name, "bold"), " = ", (show(item.get("value")), "bold"),
                                   ("  by " + ", ".join(item.get("by", [])), "dim")))
    return tree


def render_trace(data: dict[str, Any]) -> RenderableType:
    """The whole trace: path with why-nots, judgments with origins, what was derived for each
    listed entity, dice, then the decision."""
    parts: list[RenderableType] = [path_tree(data)]
    if data.get("judgments"):
        parts.append(render_judgments(data["judgments"]))
    if data.get("entity_judgments"):
        parts.append(render_entity_judgments(data["entity_judgments"]))
    if data.get("conflicts"):
        tree = Tree(Text("rules that judged differently (the first value was kept):",
                         style="bold yellow"))
        for item in data["conflicts"]:
            tree.add(Text(item, style="yellow"))
        parts.append(tree)
    parts.append(Text(""))
    parts.append(render_decision(data))
    return Group(*parts)


# --- one rule -----------------------------------------------------------------------------


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
