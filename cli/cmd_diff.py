"""`whybot rules diff`: the rules one variant (or house-rule folder) changes against another."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from whybot.engine import WhybotError, diff_rules

from .common import overlay_key, pack_for, rel, require_pack, with_variant
from .group import out, print_json
from .options import JsonOption, RulesOption, RulesPack

BASE = "base"  # `--variant base`: the pack with no variant


def _side(pack: str, variant: str, rules: list[Path] | None) -> tuple[str, ...]:
    return with_variant(pack, None if variant == BASE else variant, overlay_key(rules))


def rules_diff(variants: Annotated[list[str] | None, typer.Option(
                   "--variant", metavar="NAME",
                   help="Once: that variant against the pack (base). Twice: the first against "
                        "the second. `base` names the pack with no variant.")] = None,
               pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """The rules a variant adds, replaces or disables, against the pack or another variant.

    Each with its id, page, file and line, and the seed line it cites on either side (a
    disabled rule with the reason its variant gives). --rules DIR lays the same house rules
    over both sides."""
    name = require_pack(pack)
    chosen = list(variants or [])
    if not 1 <= len(chosen) <= 2:
        raise WhybotError("give --variant NAME once (against the pack) or twice (one against "
                          "the other)")
    if len(chosen) == 1:
        chosen.insert(0, BASE)
    a, b = (pack_for(name, _side(name, v, rules)) for v in chosen)
    changes = diff_rules(a, b)
    if json_out:
        print_json({"pack": name, "a": chosen[0], "b": chosen[1],
                    "changes": [c.as_dict(rel) for c in changes]})
        return
    out.print(Text(f"{name}: {chosen[0]} → {chosen[1]}: {len(changes)} rule(s) differ",
                   style="bold"))
    for change in changes:
        out.print(Text.assemble((f"  {change.change:<9}", "bold magenta"), (change.id, "bold"),
                                (f"  (page {change.page})", "dim")))
        for label, rule in ((chosen[0], change.a), (chosen[1], change.b)):
            if rule is not None:
                out.print(Text(f"      {label}: {rel(rule.file)}:{rule.line}  {rule.cite}"))
        if change.reason:
            out.print(Text(f"      why: {change.reason}", style="italic"))


__all__ = ["rules_diff"]
