"""What `rules check` reports: findings, each with its proof or its confirmed witness, and the
excuses a pack gives for the findings its seed intends.

A pack excuses a finding in `pack.yaml` under `check: excused:`, keyed as the finding is
(`gap PAGE`, `conflict RULE / RULE`, `never fires RULE`, ...), with the reason and the seed's
citation; an excuse no finding matches is reported, so none outlives its finding.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .confirm import Witness

NEVER_APPLIES = "never applies"
NEVER_FIRES = "never fires"
NEVER_REACHED = "never reached"
GAP = "gap"
CONFLICT = "conflict"
OVERLAY = "overlay"
KINDS = (NEVER_APPLIES, NEVER_FIRES, NEVER_REACHED, GAP, CONFLICT, OVERLAY)


@dataclass
class Finding:
    """One thing a rule file cannot do, or does that may surprise: proved, or shown by a
    witness the rule engine decided."""

    kind: str
    subject: str  # a rule id, a page, or "RULE / RULE"
    message: str
    where: str  # file:line of the rule or page
    proof: list[str] = field(default_factory=list)
    witness: Witness | None = None
    excused: dict[str, str] | None = None  # {reason, cite} from the pack

    @property
    def key(self) -> str:
        return f"{self.kind} {self.subject}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "subject": self.subject, "message": self.message,
                "where": self.where, "proof": self.proof,
                "witness": self.witness.as_dict() if self.witness else None,
                "excused": self.excused}


def _names_known(key: str, names: set[str]) -> bool:
    kind = next((k for k in KINDS if key.startswith(k + " ")), None)
    return kind is not None and all(
        part.strip() in names for part in key[len(kind) + 1:].split(" / "))


@dataclass
class Searched:
    """A search that found no witness: what it looked for, where, and how hard."""

    kind: str
    subject: str
    tries: int

    def __str__(self) -> str:
        return f"{self.kind} on {self.subject}: none found in {self.tries} tries"


@dataclass
class Report:
    pack: str
    findings: list[Finding] = field(default_factory=list)
    searched: list[Searched] = field(default_factory=list)
    unknown_excuses: list[str] = field(default_factory=list)
    decided: int = 0  # witnesses the rule engine decided (confirmed or not)

    def excuse(self, excused: dict[str, dict[str, str]], names: set[str]) -> None:
        """Mark the findings the pack excuses; note the excuses that cannot match a finding
        (an unknown kind, or a rule or page the pack does not have: `names`). An excuse
        whose finding this run did not make stays: a search that finds no witness does not
        show there is none, and a variant may replace the rules it is about."""
        for finding in self.findings:
            finding.excused = excused.get(finding.key)
        self.unknown_excuses = [key for key in excused if not _names_known(key, names)]

    def counts(self) -> dict[str, dict[str, int]]:
        """kind → how many found, and how many of those the pack excuses."""
        found = Counter(f.kind for f in self.findings)
        excused = Counter(f.kind for f in self.findings if f.excused)
        return {kind: {"found": found[kind], "excused": excused[kind]} for kind in KINDS}

    @property
    def open(self) -> list[Finding]:
        return [f for f in self.findings if not f.excused]

    def as_dict(self) -> dict[str, Any]:
        return {"pack": self.pack, "counts": self.counts(),
                "findings": [f.as_dict() for f in self.findings],
                "searched": [str(s) for s in self.searched],
                "unknown_excuses": self.unknown_excuses, "witnesses_decided": self.decided}
