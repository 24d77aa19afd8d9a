"""Which pages a rule can lead to: `call`, `goto` and `each`, templates included.

A page name with a template (`fate.{fate}.act{act}`, `{selected.suit}`) stands for every page
its placeholders' listed values can spell; `rules graph` draws these links and `rules lint`
warns about templates that can spell a page nobody wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .outcomes import Choice, Each
from .pack import DECISION, Pack, Rule

_TEMPLATE = re.compile(r"\{[^}]+\}")


def known_values(pack: Pack) -> dict[str, list[str]]:
    """The values a template placeholder can take, where the fact schema lists them."""
    known: dict[str, list[str]] = {}
    for name, spec in {**pack.facts.board, **pack.facts.variables}.items():
        allowed = pack.allowed(spec)
        if allowed:
            known[name] = [str(v) for v in allowed]
    for rule in pack.rules():
        for effect in rule.then.effects:
            if isinstance(effect, Choice | Each) and effect.kind in pack.facts.entities:
                for name, spec in pack.facts.entities[effect.kind].fields.items():
                    if spec.enum:
                        known[f"{effect.alias}.{name}"] = [str(v) for v in spec.enum]
    return known


def targets(text: str, pages: list[str], known: dict[str, list[str]]) -> list[str]:
    """The pages a (templated) page name can stand for; [text] if it matches none."""
    if "{" not in text:
        return [text]
    pattern = "^" + re.escape(text) + "$"
    for placeholder in set(_TEMPLATE.findall(text)):
        values = known.get(placeholder[1:-1])
        either = "|".join(re.escape(v) for v in values) if values else "[^.]+"
        pattern = pattern.replace(re.escape(placeholder), f"(?:{either})")
    return [page for page in pages if re.match(pattern, page)] or [text]


def links(pack: Pack) -> Iterator[tuple[Rule, str, str]]:
    """(rule, how, page) for every page a rule can lead to (how: call, goto, each)."""
    pages = [p.name for p in pack.pages.values() if p.kind == DECISION]
    known = known_values(pack)
    for rule in pack.rules():
        for how, target in rule.then.page_links():
            for page in targets(target.text, pages, known):
                yield rule, how, page
