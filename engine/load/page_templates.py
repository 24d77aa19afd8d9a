"""Page templates: what a kind of page says once in the pack, not in every page file.

A pack's `pack.yaml` declares `templates:`, each with the pages it applies to (`pages:`, names
or shell-style patterns such as `fate.*`) and the page keys it gives them: `salience`,
`repeat_while`, `after_action` (how a page spends the card's actions: the budget, marking a
target used, deriving again) and `defaults`. A page file takes the first template whose
pattern matches its procedure, or the one it names (`template: NAME`; `template: none` takes
none). What the file says itself wins: a key it gives replaces the template's, and its
`defaults` are laid over the template's, kind by kind. So a house page holds only its
rules, and cannot forget the bookkeeping that keeps the bot from spending an action twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from ..errors import RuleFileError, did_you_mean
from .sources import Document

TEMPLATE_KEYS = ("salience", "repeat_while", "after_action", "defaults")
NO_TEMPLATE = "none"


@dataclass(frozen=True)
class Template:
    """One page template: its patterns, its keys, and pack.yaml's lines for them."""

    name: str
    pages: tuple[str, ...]
    values: dict[str, Any]
    source: Document  # the template's keys as a document of their own (for error lines)
    new: dict[str, Any] | None = None  # what `whybot rules new` writes for such a page

    def applies_to(self, page: str) -> bool:
        return any(fnmatchcase(page, pattern) for pattern in self.pages)


def read_templates(document: Document) -> dict[str, Template]:
    """The templates pack.yaml declares (its schema has checked their shape)."""
    found = {}
    for name, spec in (document.data.get("templates") or {}).items():
        pages = spec["pages"]
        prefix = ("templates", name)
        lines = {path[2:]: line for path, line in document.lines.items()
                 if path[:2] == prefix and len(path) > 2}
        found[name] = Template(name, tuple([pages] if isinstance(pages, str) else pages),
                               {k: spec[k] for k in TEMPLATE_KEYS if k in spec},
                               Document(spec, document.file, lines), spec.get("new"))
    return found


def with_template(document: Document, templates: dict[str, Template]) -> Document:
    """The page file with its template's keys where it gives none (see the module
    docstring); a file with no procedure, or no template for it, as it is."""
    data = document.data
    page = data.get("procedure") if isinstance(data, dict) else None
    if not page or not templates:
        return document
    template = _template_of(document, page, templates)
    if template is None:
        return document
    merged = dict(data)
    parts = dict(document.parts)
    for key, value in template.values.items():
        if key == "defaults" and isinstance(data.get(key), dict):
            merged[key] = {**value, **data[key]}
        elif key not in data:
            merged[key] = value
            parts[key] = Document({key: value}, template.source.file,
                                  {(key, *path): line
                                   for path, line in template.source.lines.items()
                                   if path[:1] == (key,)})
    return Document(merged, document.file, document.lines, parts)


def _template_of(document: Document, page: str,
                 templates: dict[str, Template]) -> Template | None:
    named = document.data.get("template")
    if named == NO_TEMPLATE:
        return None
    if named is not None:
        if named not in templates:
            raise RuleFileError(f"unknown template {named!r}", **document.at(("template",)),
                                hint=did_you_mean(str(named), {*templates, NO_TEMPLATE}))
        return templates[named]
    return next((t for t in templates.values() if t.applies_to(page)), None)


__all__ = ["NO_TEMPLATE", "TEMPLATE_KEYS", "Template", "read_templates", "with_template"]
