"""The summary of a batch: counts, results, and rule coverage (which rules fired, which never).

Built row by row (a resumed run adds the rows it already wrote first), so it never needs the
rows kept in memory.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from whybot.facts.packs import engine_for

from ..tables import Column, Line, Part, Sheet


@dataclass
class Counts:
    """What every summary counts first: the rows, and the bad ones (engine faults among them)."""

    snapshots: int = 0
    errors: int = 0
    faults: int = 0

    def counted(self, row: dict[str, Any]) -> bool:
        """Count `row`; whether it was decided (a bad row is counted here only)."""
        self.snapshots += 1
        if not row["ok"]:
            self.errors += 1
            self.faults += bool(row.get("fault"))
        return bool(row["ok"])


@dataclass
class Summary(Counts):
    """What the rows of a batch add up to."""

    decided: int = 0
    disagreements: int = 0
    results: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    fired: dict[str, Counter] = field(default_factory=dict)
    reasoner: str = "durable"  # whose engine lists the rules (the one the batch built already)

    def add(self, row: dict[str, Any]) -> None:
        if not self.counted(row):
            return
        self.decided += 1
        self.disagreements += bool(row.get("disagreements"))
        self.results[row["result"]] += 1
        for action in row["actions"]:
            self.actions[action["action"]] += 1
        counts = self.fired.setdefault(row["pack"], Counter())
        counts.update(row["fired"])
        counts.update(row["derived_by"])

    def coverage(self, overlays: tuple[str, ...]) -> dict[str, list[tuple[str, str, int]]]:
        """Per pack: (rule id, page, times fired) for every rule, in page order."""
        table: dict[str, list[tuple[str, str, int]]] = {}
        for name, counts in sorted(self.fired.items()):
            pack = engine_for(name, overlays, self.reasoner).pack
            table[name] = [(r.id, r.page, counts.get(r.id, 0)) for r in pack.rules()]
        return table

    def as_dict(self, overlays: tuple[str, ...]) -> dict[str, Any]:
        coverage = self.coverage(overlays)
        return {
            "snapshots": self.snapshots, "decided": self.decided, "errors": self.errors,
            "faults": self.faults, "disagreements": self.disagreements,
            "results": dict(self.results.most_common()),
            "actions": dict(self.actions.most_common()),
            "coverage": {p: {rule: n for rule, _, n in rows} for p, rows in coverage.items()},
            "never_fired": {p: [rule for rule, _, n in rows if n == 0]
                            for p, rows in coverage.items()},
        }


SHOWN_IDS = 4  # never-fired ids named per page on the terminal (`--json` lists them all)


def _first_ids(ids: list[str]) -> str:
    """A page's never-fired rules, the first few by name: a batch of a few snapshots leaves
    most of a large pack unfired, and a thousand ids on the terminal hide the pages."""
    more = len(ids) - SHOWN_IDS
    return ", ".join(ids[:SHOWN_IDS]) + (f" … and {more} more (--json)" if more > 0 else "")


def summary_parts(summary: Summary, overlays: tuple[str, ...]) -> list[Part]:
    """The summary as tables (and a line on disagreements, if any), to print."""
    counts = Sheet("batch", [Column("snapshots", "right"), Column("decided", "right", "green"),
                             Column("errors", "right", "red" if summary.errors else ""),
                             Column("engine faults", "right")])
    counts.add_row(str(summary.snapshots), str(summary.decided), str(summary.errors),
                   str(summary.faults))
    results = Sheet("results", [Column("result"), Column("count", "right")])
    for name, count in summary.results.most_common():
        results.add_row(name, str(count))
    for name, count in summary.actions.most_common():
        results.add_row(f"action: {name}", str(count))
    parts: list[Part] = [counts, results]
    for pack, rows in summary.coverage(overlays).items():
        fired = Sheet(f"rule coverage ({pack}): rules that fired, how often (a derivation "
                      "counts when a decision read its judgment)",
                      [Column("page", style="cyan"), Column("rule", overflow="fold"),
                       Column("fired", "right")])
        for rule, page, count in rows:
            if count:
                fired.add_row(page, rule, str(count))
        pages: dict[str, list[str]] = {}
        totals: Counter = Counter()
        for rule, page, count in rows:
            totals[page] += 1
            if not count:
                pages.setdefault(page, []).append(rule)
        never = Sheet(f"never fired ({sum(map(len, pages.values()))} of {len(rows)} rules)",
                      [Column("page", style="cyan"), Column("fired", "right"),
                       Column("rules that never fired", style="yellow", overflow="fold")],
                      title_style="yellow")
        for page, ids in pages.items():
            never.add_row(page, f"{totals[page] - len(ids)} of {totals[page]}",
                          _first_ids(ids))
        parts.extend([fired, never])
    if summary.disagreements:
        parts.append(Line(f"{summary.disagreements} decision(s) where durable_rules and the "
                          "explainer disagree: a bug, see the rows' disagreements",
                          style="bold red"))
    return parts


__all__ = ["Counts", "Summary", "summary_parts"]
