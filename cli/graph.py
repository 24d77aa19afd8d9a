"""`rules graph`: the pages of a pack and how rules lead from one to another, as Mermaid.

An edge is a rule's `call` (read and come back, dashed) or `goto` (go for good, solid), labelled
with the rule id. A page name with a template (`fate.{fate}.act{act}`, `{selected.suit}`) is
matched against the pages it can stand for, so a Fate page or a suit page shows its callers.
"""

from __future__ import annotations

import re

from whybot.engine.model import DECISION, Pack

_TEMPLATE = re.compile(r"\{[^}]+\}")


def _choices(pack: Pack) -> dict[str, list[str]]:
    """The values a template name can take, where the fact schema lists them (`enum`)."""
    known: dict[str, list[str]] = {}
    for name, spec in {**pack.facts.board, **pack.facts.variables}.items():
        if spec.enum:
            known[name] = [str(v) for v in spec.enum]
    for rule in pack.rules():
        for key in ("select", "target", "each"):
            choice = rule.then.get(key)
            entity = choice and pack.facts.entities.get(choice["from"])
            if entity:
                alias = choice.get("as", "current" if key == "each" else key)
                for name, spec in entity.fields.items():
                    if spec.enum:
                        known[f"{alias}.{name}"] = [str(v) for v in spec.enum]
    return known


def _targets(name: str, pages: list[str], known: dict[str, list[str]]) -> list[str]:
    if "{" not in name:
        return [name]
    pattern = "^" + re.escape(name) + "$"
    for placeholder in set(_TEMPLATE.findall(name)):
        values = known.get(placeholder[1:-1])
        either = "|".join(re.escape(v) for v in values) if values else "[^.]+"
        pattern = pattern.replace(re.escape(placeholder), f"(?:{either})")
    return [page for page in pages if re.match(pattern, page)] or [name]


def _node(name: str) -> str:
    return "p_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def mermaid(pack: Pack) -> str:
    pages = [p.name for p in pack.procedures.values() if p.kind == DECISION]
    lines = ["flowchart TD", f"  %% {pack.name}: {pack.title}"]
    for page in pack.procedures.values():
        if page.kind == DECISION:
            lines.append(f'  {_node(page.name)}["{page.name}<br/>{len(page.rules)} rules"]')
    lines.append(f"  start((start)) --> {_node(pack.start)}")
    known = _choices(pack)
    for rule in pack.rules():
        for key, arrow in (("call", "-.->"), ("goto", "-->")):
            if key in rule.then:
                for target in _targets(rule.then[key], pages, known):
                    if target not in pages:
                        lines.append(f'  {_node(target)}["{target}<br/>(no such page)"]')
                    lines.append(f"  {_node(rule.procedure)} {arrow}|{rule.id}| {_node(target)}")
    return "\n".join(lines)
