"""`rules check`: what a pack's rule files can and cannot do, each finding proved over the
fact schema or shown by a witness snapshot the rule engine decided.

The front door is `check`; the passes live beside it: `domains` (what each name may hold),
`proofs` (interval reasoning: conditions that never hold), `search` (schema-guided probes),
`confirm` (witnesses decided by the engine), `paths` (what a decision reaches), `checker`
(the passes in order), `overlay` (what a house-rule folder changes) and `findings`.
"""

from __future__ import annotations

from ..decide import Engine
from ..language.pack import Pack
from .checker import TRIES, Checker
from .confirm import Confirmer, Reader
from .findings import KINDS, Finding, Report
from .overlay import overlay_effects


def check(pack: Pack, engine: Engine, read: Reader, tries: int = TRIES,
          shipped: Engine | None = None) -> Report:
    """Every finding on `pack` (compiled as `engine`), excused as the pack says; `read`
    turns a witness's text into a situation as `whybot decide` would. With `shipped` (the
    pack without the house-rule folders), what the folders change, too."""
    checker = Checker(pack, Confirmer(engine, read), tries)
    report = checker.run()
    if shipped is not None:
        base = Confirmer(shipped, read)
        report.findings += overlay_effects(shipped.pack, checker, base)
        report.decided = checker.confirmer.decided + base.decided
    report.excuse(pack.check.get("excused", {}),
                  {rule.id for rule in pack.rules()} | set(pack.pages))
    return report


__all__ = ["KINDS", "TRIES", "Finding", "Report", "check"]
