"""The player's words: what a question, its help and its reasons show, without the pack's
internal names.

A fact's or field's name (`best_rival`) reads as words (`best rival`), a seed's hashed file
name (`003_….md`) as the seed's title (the pack's `title:` up to its dash), and a citation of
a section as that title and the section (`SUPERCAT v0.9 § Playing a chapter`). Typed words
come back to names the same way (`round end` → `round_end`), so a player never needs them.
"""

from __future__ import annotations

import re
from typing import Any

from whybot.engine import Pack

SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.(?:md|txt)\b\s*")
IDENT = re.compile(r"\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b")


def plain(text: str) -> str:
    """Names joined by underscores, as words (`reserve_generals` → `reserve generals`)."""
    return IDENT.sub(lambda match: match.group(1).replace("_", " "), text)


def as_name(text: str) -> str:
    """Typed words back to a name (`round end` → `round_end`)."""
    return "_".join(text.split())


def seed_title(pack: Pack) -> str:
    """The seed's title, short: the pack's title up to its dash."""
    return (pack.title or pack.name).split(" — ")[0].strip()


def cited(cite: str, pack: Pack) -> str:
    """A citation as the seed's title and section, in words."""
    return cited_as(cite, seed_title(pack))


def cited_as(cite: str, title: str) -> str:
    """A citation with the seed's hashed file name read as `title` (and its names as words)."""
    if not cite:
        return ""
    text = SEED_FILE.sub(f"{title} ", cite).strip()
    if text.startswith("§"):
        text = f"{title} {text}"
    return plain(text)


def reason(pack: Pack, rule_id: str, page: str) -> dict[str, Any]:
    """Why a question is asked: the rule that read it (kept by id for the JSON), the seed's
    words for it, and where in the seed (the rule's citation, else its page's source)."""
    rule = pack.rule(rule_id) if rule_id else None
    source = pack.pages[page].source if page in pack.pages else ""
    return {"rule": rule_id, "page": page, "rule_says": plain(rule.says) if rule else "",
            "cite": cited((rule.cite if rule else "") or source, pack)}


__all__ = ["as_name", "cited", "cited_as", "plain", "reason", "seed_title"]
