"""`rules graph`: the pages of a pack and how rules lead from one to another, as Mermaid.

An edge is a rule's `call` or `each` (read and come back, dashed) or `goto` (go for good,
solid), labelled with the rule id; templated page names stand for every page they can spell.
"""

from __future__ import annotations

import re

from whybot.engine import DECISION, Pack, links

_ARROWS = {"call": "-.->", "each": "-.->", "goto": "-->"}


def _node(name: str) -> str:
    return "p_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def mermaid(pack: Pack) -> str:
    lines = ["flowchart TD", f"  %% {pack.name}: {pack.title}"]
    for page in pack.pages.values():
        if page.kind == DECISION:
            lines.append(f'  {_node(page.name)}["{page.name}<br/>{len(page.rules)} rules"]')
    lines.append(f"  start((start)) --> {_node(pack.start)}")
    for rule, how, target in links(pack):
        if target not in pack.pages:
            lines.append(f'  {_node(target)}["{target}<br/>(no such page)"]')
        lines.append(f"  {_node(rule.page)} {_ARROWS[how]}|{rule.id}| {_node(target)}")
    return "\n".join(lines)
