"""The overlay of a `whybot batch --diff`: checked once before any snapshot is decided, and its
files named in rows as the user spelled its folder.

A broken overlay would otherwise be one and the same error on the overlay side of every row
(every decision "changed"), and an overlay whose files name no pack the batch decides would
change nothing, silently. Rows name a house-rule file where the overlay disables a rule
("disabled: why (FILE)"); the loader knows the file by its resolved path, which is neither what
the user typed nor the same on another machine.
"""

from __future__ import annotations

import os
from pathlib import Path

from whybot.engine import (
    RULE_FILE_SCHEMA,
    RuleFileError,
    WhybotError,
    declares_rules,
    did_you_mean,
    read_document,
    rule_files,
    validate,
)

from .common import KNOWLEDGE, engine_for, is_folder, pack_for, pack_names
from .rows import Row

Spelled = tuple[tuple[str, str], ...]  # (resolved folder, the folder as the user gave it)


def check_overlay(pack: str | None, base: tuple[str, ...], diff: str, reasoner: str) -> None:
    """Load and compile the overlay `diff` over the base rules (`base`: the --rules folders) for
    every pack it is for (`pack`: only that one); raise the first problem as one line."""
    known = set(pack_names()) | ({pack_for(pack).name} if pack and is_folder(pack) else set())
    named: set[str] = set()
    for path in rule_files(Path(diff)):
        document = read_document(path, RuleFileError)
        if not declares_rules(document):
            continue  # notes or snapshots kept beside the house rules: not read as rules
        validate(document, RULE_FILE_SCHEMA, RuleFileError)
        name = document.data.get("pack") or _holding(path)
        if name is None:
            raise RuleFileError("a house-rule file names the pack it lays over (pack: NAME)",
                                file=document.file, line=1,
                                hint=f"packs: {', '.join(sorted(known))}")
        if name not in known:
            raise RuleFileError(f"--diff: no pack named {name!r} to lay this file over",
                                file=document.file, line=document.line(("pack",)),
                                path="$.pack", hint=did_you_mean(name, known)
                                or f"packs: {', '.join(sorted(known))}")
        named.add(name)
    if not named & ({pack_for(pack).name} if pack else known):
        raise WhybotError(f"--diff: {diff} holds no house-rule file for "
                          f"{'pack ' + repr(pack) if pack else 'any pack'}",
                          hint="a rule file says `pack: NAME` and adds `rules:`, `disable:` "
                               "or a `procedure:`")
    for name in [pack] if pack else sorted(named):
        engine_for(name, (*base, diff), reasoner)


def _holding(path: Path) -> str | None:
    """The installed pack whose folder holds this file (a pack's own variants name no pack:
    they take their folder's)."""
    inside = path.resolve()
    return next((name for name in pack_names()
                 if inside.is_relative_to((KNOWLEDGE / name).resolve())), None)


def spelled(given: list[Path | str], resolved: tuple[str, ...]) -> Spelled:
    """Each resolved folder with the spelling the user gave it (a variant: its name)."""
    return tuple((folder, os.path.normpath(spelling))
                 for folder, spelling in zip(resolved, map(str, given), strict=True)
                 if folder != os.path.normpath(spelling))


def as_given(row: Row, folders: Spelled) -> Row:
    """A --diff row whose rule outcomes name house-rule files under the folders' spellings."""
    for side in ("base", "overlay"):
        said = row.get(side, {}).get("rule_outcome")
        if isinstance(said, str) and said.startswith("disabled: "):
            for folder, spelling in folders:
                said = said.replace(f"({folder}{os.sep}", f"({spelling}{os.sep}")
            row[side]["rule_outcome"] = said
    return row


__all__ = ["Spelled", "as_given", "check_overlay", "spelled"]
