"""Variants: overlays a pack ships in its own `variants/<name>/` folder, and how two differ.

A variant (an earlier draft of the bot's rulebook, say) is laid over its pack exactly as a
house-rule folder is: its files replace, add or disable rules by id. The pack's own rule files
never include a variant's; a variant is read only when it is asked for by name, or given as a
folder of the user's own. `diff_rules` lists what one loaded pack changes against another, rule
by rule, for `whybot rules diff`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RuleFileError, did_you_mean
from ..language.pack import Pack, Rule

VARIANTS = "variants"  # a pack's folder of shipped variants, one folder each


def shipped_variants(pack_folder: Path) -> list[str]:
    """The variants a pack folder ships, by name."""
    root = pack_folder / VARIANTS
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def variant_folder(pack_folder: Path, name: str) -> Path:
    """The folder of the variant `name`: one the pack ships, or a folder of the user's own (a
    path). Anything else is an error naming the shipped ones, with "did you mean"."""
    shipped = shipped_variants(pack_folder)
    if name in shipped:
        return pack_folder / VARIANTS / name
    own = Path(name)
    if ("/" in name or name.startswith(".")) and own.is_dir():
        return own
    raise no_variant(pack_folder.name, name, shipped)


def no_variant(pack: str, name: str, shipped: list[str]) -> RuleFileError:
    """The error for a variant `name` the pack (its folder's name) does not ship: made apart
    from the folder, so that a process without the pack's files words it the same."""
    hint = did_you_mean(name, set(shipped)) or (
        f"this pack ships: {', '.join(shipped)}; or give a folder of your own"
        if shipped else "this pack ships none; give a folder of your own (a path)")
    return RuleFileError(f"no variant {name!r} of pack {pack!r}", hint=hint)


@dataclass(frozen=True)
class RuleChange:
    """One rule that differs between two loaded packs (`a` the one compared against)."""

    change: str  # added | disabled | removed | replaced | changed
    id: str
    page: str
    a: Rule | None
    b: Rule | None
    reason: str = ""  # why it was disabled

    def as_dict(self, shown: Any = str) -> dict[str, Any]:
        def side(rule: Rule | None) -> dict[str, Any] | None:
            if rule is None:
                return None
            return {"id": rule.id, "file": f"{shown(rule.file)}:{rule.line}", "cite": rule.cite,
                    "when": rule.when_text, "says": rule.says}
        data = {"change": self.change, "id": self.id, "page": self.page,
                "a": side(self.a), "b": side(self.b)}
        if self.reason:
            data["reason"] = self.reason
        return data


def _definition(rule: Rule) -> tuple[Any, ...]:
    """What a rule is, wherever its file puts it (a rule added above it moves it down a place,
    which changes nothing about it)."""
    return (rule.page, rule.when_text, repr(rule.then.raw), rule.says, rule.cite, rule.layer,
            rule.file, rule.line)


def _ranks(pack: Pack) -> dict[str, tuple[int, int, Rule]]:
    pages = list(pack.pages)
    return {rule.id: (pages.index(rule.page), rank, rule)
            for page in pack.pages.values() for rank, rule in enumerate(page.ordered())}


def diff_rules(a: Pack, b: Pack) -> list[RuleChange]:
    """The rules `b` adds, disables, replaces or changes against `a`, in `b`'s page order (the
    ones only `a` has, in `a`'s). A rule of `b` that replaces rule X takes the place of X in
    `a`, or of the rule that replaced X there (two variants replacing one base rule)."""
    in_a, in_b = _ranks(a), _ranks(b)
    place = {rule.replaces or rule_id: rule for rule_id, (_, _, rule) in in_a.items()
             if rule_id not in in_b}
    replaced: dict[str, Rule] = {}  # a's rule id -> the rule of b in its place
    for rule_id, (_, _, rule) in in_b.items():
        old = place.get(rule.replaces or "") if rule_id not in in_a else None
        if old is not None and old.id not in replaced:
            replaced[old.id] = rule
    changes: list[tuple[tuple[int, int], RuleChange]] = []
    taking = {id(rule): old_id for old_id, rule in replaced.items()}
    for rule_id, (page_at, rank, rule) in in_b.items():
        if id(rule) in taking:
            old = in_a[taking[id(rule)]][2]
            changes.append(((page_at, rank), RuleChange("replaced", old.id, rule.page, old,
                                                        rule)))
        elif rule_id not in in_a:
            changes.append(((page_at, rank), RuleChange("added", rule_id, rule.page, None,
                                                        rule)))
        elif _definition(in_a[rule_id][2]) != _definition(rule):
            old = in_a[rule_id][2]
            how = "replaced" if (old.file, old.line) != (rule.file, rule.line) else "changed"
            changes.append(((page_at, rank), RuleChange(how, rule_id, rule.page, old, rule)))
    for rule_id, (page_at, rank, rule) in in_a.items():
        if rule_id in in_b or rule_id in replaced:
            continue
        reason = b.disabled.get(rule_id, "")
        changes.append(((len(b.pages) + page_at, rank),
                        RuleChange("disabled" if reason else "removed", rule_id, rule.page,
                                   rule, None, reason)))
    return [change for _, change in sorted(changes, key=lambda item: item[0])]


__all__ = ["VARIANTS", "RuleChange", "diff_rules", "no_variant", "shipped_variants",
           "variant_folder"]
