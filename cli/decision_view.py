"""The short answer in the terminal, from the typed trace (`shown.Shown`): what was chosen,
each action with its target and reasons (its fields shown where the pack says), the result, the
dice, what to say, and the facts assumed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from whybot.engine import Action, ActionFields, Said
from whybot.facts.play.wording import cited_as

from .render import entity_text, labelled, pack_and_variant, roll_text, show
from .shown import Shown

_HEADLINE = {"after": (" — {}", ""), "tag": ("  [{}]", "cyan")}  # shown → (text, style)


def _action(index: int, action: Action, named: str | None, fields: ActionFields,
            seed: str, words: dict[str, Any]) -> Tree:
    head = Text(f"{index}. ", style="bold")
    head.append(action.action, style="bold green")
    for field in fields:
        value = action.fields.get(field.name)
        if field.in_headline and value:
            text, style = _HEADLINE[field.shown]
            head.append(text.format(value), style=style)
    node = Tree(head)
    for field in fields:
        value = action.fields.get(field.name)
        if not field.in_headline and value not in (None, ""):
            node.add(labelled(f"{field.name}:", show(value)))
    if action.target is not None:  # as the table names it; every field in `why`
        node.add(labelled("target:", named or entity_text(action.target), "yellow"))
    for item in action.prefer:
        node.add(labelled("prefer:", item, "italic"))
    for fact in action.because:
        kind = fact.get("kind", "")
        node.add(labelled("because of", f"{kind}: " + entity_text(
            {k: v for k, v in fact.items() if k != "kind"}), "yellow"))
    if words["rule_says"]:  # the seed's words, not the rule's id
        node.add(labelled("by:", f"{words['rule_says']}", "dim"))
    else:
        node.add(labelled("rule:", f"{action.rule} on page {action.page}", "dim"))
    if action.cite:
        node.add(labelled("cites:", cited_as(action.cite, seed) if seed else action.cite,
                          "dim"))
    return node


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


def printed_note(printed: Any, really: Any) -> str:
    """`printed 3, +1`: what the chosen thing shows, and what the turn added to it."""
    if isinstance(printed, int | float) and isinstance(really, int | float):
        change = really - printed
        return f"printed {show(printed)}, {'+' if change > 0 else ''}{show(change)}"
    return f"printed {show(printed)}"


def render_decision(shown: Shown, assumed_first: bool = True) -> RenderableType:
    """The bot's decision, short: the card, each action, the result, the dice, what to do.
    `assumed_first`: the facts assumed open it (`decide`); `why` shows them after its
    reasons, so that it opens with the answer."""
    trace = shown.trace
    decision = trace.decision
    parts: list[RenderableType] = [
        Text.assemble(("Decision ", "bold"), (trace.snapshot, "bold cyan"),
                      (f"  ({pack_and_variant(shown.data)})", "dim"))]
    presentation = shown.presentation
    lead = tuple(presentation.get("lead", ()))
    names = presentation.get("choices", {})
    if trace.assumed and assumed_first:
        parts.append(render_assumed(trace.assumed))
    targets = [a.target for a in decision.actions]
    for alias, choice in decision.choices.items():
        if choice.entity in targets:
            continue  # shown with its action
        really = shown.really.get(alias, {})  # the counts the turn really has
        entity = choice.entity
        line = labelled(f"{names.get(alias, alias)}:", entity_text(
            {**entity, **really} if really else entity, full=False, lead=lead), "bold yellow")
        for name, value in really.items():
            line.append(f" ({printed_note(entity[name], value)})", style="yellow")
        said = shown.data["words"]["choices"][alias]
        line.append(f"   chosen by: {said['rule_says']}" + (f" ({said['cite']})" if
                                                             said.get("cite") else "")
                    if said.get("rule_says") else
                    f"   chosen by {choice.by} on {choice.page}", style="dim")
        parts.append(line)
    if decision.actions:
        tree = Tree(Text("actions:", style="bold"))
        for index, (action, named, words) in enumerate(zip(
                decision.actions, shown.named, shown.data["words"]["actions"], strict=True), 1):
            tree.add(_action(index, action, named, shown.fields, presentation.get("seed", ""),
                             words))
        parts.append(tree)
    else:
        parts.append(labelled("actions:", "none", "dim"))
    result = decision.result
    parts.append(labelled("result:", result, "bold red" if result != "decided" else "bold green"))
    if trace.dice:
        tree = Tree(Text("dice:", style="bold"))
        for roll in trace.dice:
            tree.add(roll_text(roll.as_dict()))
        for note in trace.dice_notes:
            tree.add(Text(note, style="bold yellow"))
        parts.append(tree)
    instructions = [step for step in decision.steps if isinstance(step, Said)]
    if instructions:
        tree = Tree(Text("do:", style="bold"))
        for said in instructions:
            branch = tree.add(Text(said.say))
            if said.snapshot and shown.hints:
                branch.add(Text(f"in a snapshot: {said.snapshot}", style="dim"))
        parts.append(tree)
    return Group(*parts)
