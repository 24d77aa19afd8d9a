"""The options several `whybot` commands share, declared once so they read the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from whybot.engine import REASONERS, STDIN, WhybotError, did_you_mean


def _readable_snapshot(path: Path) -> Path:
    """A snapshot file, or `-` for standard input (which a `Path(exists=True)` would refuse)."""
    if str(path) != STDIN and not path.is_file():
        problem = "is a folder" if path.is_dir() else "does not exist"
        raise typer.BadParameter(f"{str(path)!r} {problem} (give a snapshot file, or - to "
                                 "read one from standard input)")
    return path


def one_of(what: str, known: tuple[str, ...]) -> Callable[[str], str]:
    """An option callback that refuses any value but `known`, with a did-you-mean."""
    def check(name: str) -> str:
        if name not in known:
            hint = did_you_mean(name, set(known)) or f"one of: {', '.join(known)}"
            raise typer.BadParameter(f"unknown {what} {name!r}; {hint}")
        return name
    return check


Snapshot = Annotated[Path, typer.Argument(
    metavar="SNAPSHOT", callback=_readable_snapshot,
    help="A snapshot (YAML or JSON): what the player sees on the table; - reads it from "
         "standard input.")]
PackOption = Annotated[str | None, typer.Option(
    "--pack", "-p", metavar="PACK",
    help="Knowledge pack; by default the snapshot's own `pack:` field.")]
RulesPack = Annotated[str | None, typer.Option(
    "--pack", "-p", metavar="PACK",
    help="Knowledge pack: an installed pack's name, or a pack folder (read as YAML only).")]
def _rule_folders(paths: list[Path] | None) -> list[Path] | None:
    """House-rule folders that exist: one line naming the first that does not (not click's
    usage box)."""
    for path in paths or []:
        if not path.is_dir():
            problem = "is a file" if path.exists() else "does not exist"
            raise WhybotError(f"--rules: {str(path)!r} {problem}",
                              hint="give a folder of house-rule files")
    return paths


RulesOption = Annotated[list[Path] | None, typer.Option(
    "--rules", "-r", metavar="DIR", callback=_rule_folders,
    help="A folder of house-rule files laid over the pack (repeatable; later folders win).")]
VariantOption = Annotated[str | None, typer.Option(
    "--variant", metavar="NAME",
    help="A variant of the pack laid over it: one it ships (`whybot rules diff --pack P "
         "--variant NAME` shows what it changes), or a folder of your own; it wins over the "
         "snapshot's own `variant:` (the header names the one used), but in `batch` a "
         "snapshot that names another variant is an error row.")]
SeedOption = Annotated[int | None, typer.Option(
    "--seed", "-s", metavar="N",
    help="Seed for the dice (pre-rolled `dice:` in the snapshot go first).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
IncludeFromOption = Annotated[list[Path] | None, typer.Option(
    "--include-from", metavar="DIR", exists=True, file_okay=False,
    help="A folder a snapshot's `include:` may read from besides the snapshot's own folder "
         "tree (repeatable).")]
ReasonerOption = Annotated[str, typer.Option(
    "--reasoner", metavar="NAME", callback=one_of("reasoner", REASONERS),
    help="durable (the rule engine) or plain (the plain-Python reference, which the "
         "explainer also uses): the same rows, to cross-check or to measure")]


def folders(paths: list[Path] | None) -> tuple[Path, ...]:
    return tuple(paths or ())
