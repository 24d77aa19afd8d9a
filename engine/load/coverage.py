"""Seed coverage: every section of a pack's seed, the rules that cite it, and the gaps.

A pack ships `sections.yaml` (its seed's headings with the line each starts on; the seeds
themselves are not shipped) and lists in `pack.yaml` under `coverage:` the sections it does not
encode on purpose (`excused: {section: reason}`) or not yet (`not_yet: {section: reason}`).
A rule cites a section by `§ Title` (any tail of a nested title: `§ Chapter › Part II`,
`§ Part II`) or by `line N` inside it. A section neither cited nor listed is missing.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RuleFileError
from ..language.pack import Pack
from .sources import read_document

SEPARATOR = " › "
_LINE = re.compile(r"\bline (\d+)")


@dataclass
class Section:
    title: str
    line: int
    end: int = 10**9
    rules: list[str] = field(default_factory=list)
    status: str = "missing"
    reason: str = ""

    def tails(self) -> list[str]:
        """`Chapter › Part II` is cited as that, or as `Part II` under a Chapter source."""
        parts = self.title.split(SEPARATOR)
        return [SEPARATOR.join(parts[i:]) for i in range(len(parts))]


def _normal(text: str) -> str:
    return text.replace(" — ", SEPARATOR).replace(" > ", SEPARATOR)


def _cites(cite: str, tail: str) -> bool:
    """`§ tail` in the citation, not followed by more of a longer title."""
    needle = f"§ {tail}"
    start = cite.find(needle)
    while start != -1:
        after = cite[start + len(needle):start + len(needle) + 1]
        if not (after.isalnum() or after == "_"):
            return True
        start = cite.find(needle, start + 1)
    return False


def read_sections(pack: Pack) -> list[Section]:
    path = Path(pack.root) / "sections.yaml"
    if not path.is_file():
        raise RuleFileError(f"pack {pack.name!r} has no sections.yaml: coverage needs its "
                            "seed's sections (scripts/sections.py writes it from a Markdown "
                            "seed)")
    document = read_document(path, RuleFileError)
    raw = document.data.get("sections", []) if isinstance(document.data, dict) else []
    sections = [Section(_normal(str(s["title"])), int(s["line"])) for s in raw]
    sections.sort(key=lambda s: s.line)
    for section, following in itertools.pairwise(sections):
        section.end = following.line
    return sections


def cited_sections(cite: str, sections: list[Section]) -> list[Section]:
    """The sections a citation names: each `§ ...` resolves to the sections whose title, or
    the longest tail of it, starts that segment (a whole title beats a tail); `line N` to the
    section holding that line."""
    found: list[Section] = []
    for segment in cite.split("§")[1:]:
        segment = "§" + segment
        best: tuple[int, int] = (0, 0)
        picked: list[Section] = []
        for section in sections:
            scores = [(int(tail == section.title), tail.count(SEPARATOR) + 1)
                      for tail in section.tails() if _cites(segment, tail)]
            if not scores:
                continue
            score = max(scores)
            if score > best:
                best, picked = score, [section]
            elif score == best:
                picked.append(section)
        found += [s for s in picked if s not in found]
    for number in (int(n) for n in _LINE.findall(cite)):
        found += [s for s in sections if s.line <= number < s.end and s not in found]
    return found


def coverage(pack: Pack) -> dict[str, Any]:
    """Every section with the rules citing it, and what is excused, not yet done, missing."""
    sections = read_sections(pack)
    for rule in pack.rules():
        for section in cited_sections(_normal(rule.cite), sections):
            section.rules.append(rule.id)
    listed = pack.coverage
    for section in sections:
        if section.rules:
            section.status = "cited"
        for status in ("excused", "not_yet"):
            reason = listed.get(status, {}).get(section.title)
            if reason and not section.rules:
                section.status, section.reason = status, str(reason)
    totals = {s: sum(1 for x in sections if x.status == s)
              for s in ("cited", "excused", "not_yet", "missing")}
    unknown = [title for status in ("excused", "not_yet") for title in listed.get(status, {})
               if title not in {s.title for s in sections}]
    return {"pack": pack.name, "totals": totals, "unknown_in_pack_yaml": unknown,
            "sections": [{"title": s.title, "line": s.line, "status": s.status,
                          "reason": s.reason, "rules": s.rules} for s in sections]}
