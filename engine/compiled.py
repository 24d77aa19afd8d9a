"""A pack compiled onto the process's Host: one ruleset per page, one for all derivations.

Compiled once per process per pack-and-overlays (hazard K); snapshots get fresh states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .compiler import Ruleset, compile_decisions, compile_derivations, strata
from .conditions import negated_board_names
from .host import RuleHost, Session, rule_host
from .model import Pack


@dataclass
class CompiledPack:
    pack: Pack
    host: RuleHost
    pages: dict[str, Ruleset]
    derivations: Ruleset | None
    strata: dict[str, int]
    judged_at: dict[str, int]
    read_negatively: set[str]

    @property
    def top_stratum(self) -> int:
        return max(self.strata.values(), default=0)

    def page_session(self, page: str) -> Session:
        return Session(self.host, self.pages[page].name)

    def derivation_session(self) -> Session:
        assert self.derivations is not None
        return Session(self.host, self.derivations.name)


def _record_only(session: Session, rule: str, matched: dict[str, Any], closure: Any) -> None:
    """Decision rules: the runner reads `session.fired` after the event; nothing to do here."""


def compile_pack(pack: Pack, derive_handler: Any) -> CompiledPack:
    """Compile every page and the derivations; `derive_handler` asserts derived judgments."""
    host = rule_host()
    pages: dict[str, Ruleset] = {}
    for page in pack.pages():
        name = host.unique_name(f"{pack.name}.{page.name}")
        ruleset, definition = compile_decisions(page, name, pack)
        host.register(name, definition, _record_only)
        pages[page.name] = ruleset
    rules = pack.derivations()
    judgments = set(pack.facts.judgments)
    levels = strata(rules, judgments)
    derivations = None
    if rules:
        name = host.unique_name(f"{pack.name}.judgments")
        derivations, definition = compile_derivations(rules, levels, name, judgments)
        host.register(name, definition, derive_handler)
    judged_at: dict[str, int] = {}
    for rule in rules:
        judgment = rule.then["judge"]
        judged_at[judgment] = max(judged_at.get(judgment, 0), levels[rule.id])
    negative = set().union(*(negated_board_names(r.when) for r in rules)) & judgments
    return CompiledPack(pack, host, pages, derivations, levels, judged_at, negative)
