"""The summary of a `whybot batch --diff`: how many decisions the overlay changed, by page and
by the first rule whose outcome differs, and what became of that rule on each side.

Built row by row like the batch summary (`summary.py`), so a resumed run counts the rows it
kept and nothing is held in memory but the counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..tables import Column, Part, Sheet
from .summary import Counts

ONE_SIDE = "(decided under one rule set only)"  # the page of a row one side could not decide
ODDS_ONLY = "(same walk, other odds)"  # the page of a row whose odds alone differ (--odds)


@dataclass
class DiffSummary(Counts):
    """What the rows of a --diff add up to."""

    changed: int = 0
    rerouted: int = 0  # the same decision, reached by another walk
    pages: Counter = field(default_factory=Counter)
    rules: dict[tuple[str, str], Counter] = field(default_factory=dict)

    def add(self, row: dict[str, Any]) -> None:
        if not self.counted(row):
            return
        if not row["changed"]:
            self.rerouted += row["rule"] is not None
            return
        self.changed += 1
        one_side = "error" in row["base"] or "error" in row["overlay"]
        page = row["page"] or (ONE_SIDE if one_side else ODDS_ONLY)
        self.pages[page] += 1
        outcomes = (row["base"].get("rule_outcome", _said(row["base"])),
                    row["overlay"].get("rule_outcome", _said(row["overlay"])))
        self.rules.setdefault((page, row["rule"] or "-"), Counter())[outcomes] += 1

    @property
    def unchanged(self) -> int:
        return self.snapshots - self.errors - self.changed

    def by_rule(self) -> list[dict[str, Any]]:
        """The changed decisions per first differing rule, most first; `base` and `overlay`:
        what most often became of the rule on each side."""
        table = []
        for (page, rule), outcomes in self.rules.items():
            (base, overlay), _ = outcomes.most_common(1)[0]
            table.append({"page": page, "rule": rule, "changed": sum(outcomes.values()),
                          "base": base, "overlay": overlay})
        return sorted(table, key=lambda entry: (-entry["changed"], entry["page"], entry["rule"]))

    def as_dict(self, overlays: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"snapshots": self.snapshots, "changed": self.changed,
                "unchanged": self.unchanged, "rerouted": self.rerouted, "errors": self.errors,
                "faults": self.faults, "pages": dict(self.pages.most_common()),
                "rules": self.by_rule()}


def _said(side: dict[str, Any]) -> str:
    return "cannot decide" if "error" in side else "decides"


def diff_summary_parts(summary: DiffSummary) -> list[Part]:
    """The summary as tables, to print (the counts alone when nothing changed)."""
    counts = Sheet("batch --diff", [Column(name, "right", style) for name, style in (
        ("snapshots", ""), ("changed", "yellow"), ("unchanged", "green"),
        ("same decision, other walk", ""), ("errors", ""), ("engine faults", ""))])
    counts.add_row(*map(str, (summary.snapshots, summary.changed, summary.unchanged,
                              summary.rerouted, summary.errors, summary.faults)))
    if not summary.changed:
        return [counts]
    pages = Sheet("changed decisions by page (where the walks first part)",
                  [Column("page", style="cyan"), Column("changed", "right")])
    for page, count in summary.pages.most_common():
        pages.add_row(page, str(count))
    rules = Sheet("changed decisions by the first rule whose outcome differs",
                  [Column("rule", style="cyan", no_wrap=True), Column("changed", "right"),
                   Column("base rules → with the overlay", overflow="fold")])
    for entry in summary.by_rule():
        rules.add_row(entry["rule"], str(entry["changed"]),
                      f"{entry['base']} → {entry['overlay']}")
    return [counts, pages, rules]


__all__ = ["ODDS_ONLY", "ONE_SIDE", "DiffSummary", "diff_summary_parts"]
