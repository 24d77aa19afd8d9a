"""The pieces every terminal view of a decision is written with (`decision_view.py`,
`trace_view.py`, `verdict_view.py`, `brief.py`, `odds.py`): a value, a list of fields, an entity
as its pack presents it, a labelled line, the pack read, a dice roll — so every view writes them
alike.

Every text that comes from a rule file or a snapshot goes through `Text` (never rich markup), so
a seed's "[2]" or a house rule's "[bold]" prints as written.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text


def show(value: Any) -> str:
    """A value the way conditions write it: true/false, 'text' as text, None as unknown."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def pairs(values: dict[str, Any]) -> str:
    """`name = value, ...`: fields as conditions write them."""
    return ", ".join(f"{k} = {show(v)}" for k, v in values.items())


def entity_text(entity: dict[str, Any] | None, full: bool = True,
                lead: tuple[str, ...] = ()) -> str:
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
        return pairs(rest)
    if not full:
        return " · ".join(head)
    return " · ".join(head) + (f"  ({pairs(rest)})" if rest else "")


def labelled(label: str, text: str, style: str = "") -> Text:
    """`label text`: the label bold, the text as written (never markup) in `style`."""
    line = Text()
    line.append(f"{label} ", style="bold")
    line.append(text, style=style)
    return line


def pack_and_variant(data: dict[str, Any]) -> str:
    """`pack NAME` or `pack NAME, variant VARIANT`: what the decision was read from."""
    variant = f", variant {data['variant']}" if data.get("variant") else ""
    return f"pack {data.get('pack', '?')}{variant}"


def roll_text(roll: dict[str, Any]) -> Text:
    """`2d6 → [3, 5] = 8  (source)  for what`: one roll of the dice and what it was for."""
    faces = ", ".join(str(f) for f in roll.get("faces", []))
    result = f"{roll['drawn']} ({roll['pool']})" if roll.get("drawn") else \
        f"{roll.get('total')} success(es) ({roll['successes']})" \
        if roll.get("successes") else str(roll.get("total"))
    text = Text(f"{roll.get('dice')} → [{faces}] = {result}", style="bold magenta")
    text.append(f"  ({roll.get('source')})", style="dim")
    if roll.get("for"):
        text.append(f"  {roll['for']}")
    return text
