"""The summary of a `whybot batch --diff`: how many decisions the overlay changed, by page and
by the first rule whose outcome differs, and what became of that rule on each side.

Built row by row like the batch summary (`summary.py`), so a resumed run counts the rows it
kept and nothing is held in memory but the counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

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


def render_diff_summary(summary: DiffSummary, overlays: tuple[str, ...] = ()) -> Any:
    """The summary as rich tables (a Group to print)."""
    from rich.console import Group
    from rich.table import Table

    counts = Table(title="batch --diff", title_justify="left")
    for name, style in (("snapshots", ""), ("changed", "yellow"), ("unchanged", "green"),
                        ("same decision, other walk", ""), ("errors", ""),
                        ("engine faults", "")):
        counts.add_column(name, justify="right", style=style)
    counts.add_row(*map(str, (summary.snapshots, summary.changed, summary.unchanged,
                              summary.rerouted, summary.errors, summary.faults)))
    pages = Table(title="changed decisions by page (where the walks first part)",
                  title_justify="left")
    pages.add_column("page", style="cyan")
    pages.add_column("changed", justify="right")
    for page, count in summary.pages.most_common():
        pages.add_row(page, str(count))
    rules = Table(title="changed decisions by the first rule whose outcome differs",
                  title_justify="left")
    rules.add_column("rule", style="cyan", no_wrap=True)
    rules.add_column("changed", justify="right")
    rules.add_column("base rules → with the overlay", overflow="fold")
    for entry in summary.by_rule():
        rules.add_row(entry["rule"], str(entry["changed"]),
                      f"{entry['base']} → {entry['overlay']}")
    return Group(counts, pages, rules) if summary.changed else counts


__all__ = ["ODDS_ONLY", "ONE_SIDE", "DiffSummary", "render_diff_summary"]
