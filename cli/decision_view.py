"""The short answer in the terminal, from `Trace.as_dict()` data only: what was chosen, each
action with its target and reasons, the result, the dice, what to say, and the facts assumed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from whybot.facts.wording import cited_as

from .render import entity_text, labelled, pack_and_variant, roll_text, show


def _action(index: int, action: dict[str, Any], seed: str,
            words: dict[str, Any] | None = None) -> Tree:
    head = Text(f"{index}. ", style="bold")
    head.append(str(action.get("action", "?")), style="bold green")
    if action.get("goal"):
        head.append(f" — {action['goal']}")
    if action.get("suit"):
        head.append(f"  [{action['suit']}]", style="cyan")
    node = Tree(head)
    for name in ("details", "budget"):
        if action.get(name) not in (None, ""):
            node.add(labelled(f"{name}:", show(action[name])))
    if action.get("target") is not None:  # as the table names it; every field in `why`
        node.add(labelled("target:", action.get("named") or entity_text(action["target"]),
                          "yellow"))
    for item in action.get("prefer", []):
        node.add(labelled("prefer:", item, "italic"))
    for fact in action.get("because", []):
        kind = fact.get("kind", "")
        node.add(labelled("because of", f"{kind}: " + entity_text(
            {k: v for k, v in fact.items() if k != "kind"}), "yellow"))
    if words and words.get("rule_says"):  # the seed's words, not the rule's id
        node.add(labelled("by:", f"{words['rule_says']}", "dim"))
    else:
        node.add(labelled("rule:", f"{action.get('rule')} on page {action.get('page')}",
                          "dim"))
    if action.get("cite"):
        node.add(labelled("cites:", cited_as(action["cite"], seed) if seed else action["cite"],
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


def render_decision(data: dict[str, Any], assumed_first: bool = True) -> RenderableType:
    """The bot's decision, short: the card, each action, the result, the dice, what to do.
    `assumed_first`: the facts assumed open it (`decide`); `why` shows them after its
    reasons, so that it opens with the answer."""
    decision = data.get("decision", {})
    parts: list[RenderableType] = [
        Text.assemble(("Decision ", "bold"), (data.get("snapshot", ""), "bold cyan"),
                      (f"  ({pack_and_variant(data)})", "dim"))]
    presentation = data.get("presentation", {})
    lead = tuple(presentation.get("lead", ()))
    names = presentation.get("choices", {})
    assumed = data.get("assumed", [])
    if assumed and assumed_first:
        parts.append(render_assumed(assumed))
    targets = [a.get("target") for a in decision.get("actions", [])]
    for alias, choice in decision.get("choices", {}).items():
        if choice.get("entity") in targets:
            continue  # shown with its action
        really = choice.get("really", {})  # the counts the turn really has (`shown.py`)
        entity = choice.get("entity")
        line = labelled(f"{names.get(alias, alias)}:", entity_text(
            {**entity, **really} if really else entity, full=False, lead=lead), "bold yellow")
        for name, value in really.items():
            line.append(f" ({printed_note(entity[name], value)})", style="yellow")
        said = data.get("words", {}).get("choices", {}).get(alias, {})
        line.append(f"   chosen by: {said['rule_says']}" + (f" ({said['cite']})" if
                                                             said.get("cite") else "")
                    if said.get("rule_says") else
                    f"   chosen by {choice.get('by')} on {choice.get('page')}", style="dim")
        parts.append(line)
    actions = decision.get("actions", [])
    if actions:
        tree = Tree(Text("actions:", style="bold"))
        said = data.get("words", {}).get("actions", [])
        for index, action in enumerate(actions, 1):
            tree.add(_action(index, action, presentation.get("seed", ""),
                             said[index - 1] if index <= len(said) else None))
        parts.append(tree)
    else:
        parts.append(labelled("actions:", "none", "dim"))
    result = str(decision.get("result", "decided"))
    parts.append(labelled("result:", result, "bold red" if result != "decided" else "bold green"))
    dice = data.get("dice", [])
    if dice:
        tree = Tree(Text("dice:", style="bold"))
        for roll in dice:
            tree.add(roll_text(roll))
        for note in data.get("dice_notes", []):
            tree.add(Text(note, style="bold yellow"))
        parts.append(tree)
    if decision.get("say"):
        tree = Tree(Text("do:", style="bold"))
        for said in decision["say"]:
            tree.add(Text(said))
        parts.append(tree)
    return Group(*parts)
