"""`whybot rules check`: what a pack's rule files can and cannot do, each finding with its proof
or a witness snapshot the rule engine decided (the analysis is `engine/check/`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from whybot.engine import KINDS, TRIES, Finding, Pack, Report, Situation, WhybotError
from whybot.engine import check_rules as check

from .common import engine_for, overlay_key, rel, require_pack, with_variant
from .group import out, print_json
from .options import JsonOption, RulesOption, RulesPack

CheckVariant = Annotated[str | None, typer.Option(
    "--variant", metavar="NAME",
    help="Check the pack with this variant laid over it (one it ships, or a folder).")]
WitnessFolder = Annotated[Path | None, typer.Option(
    "--witnesses", metavar="DIR",
    help="Write each witness as a snapshot file into this folder (made if need be).")]
Tries = Annotated[int, typer.Option(
    "--tries", metavar="N", min=1,
    help="Situations the search tries per page and question before it says none found.")]


def _read(text: str, pack: Pack) -> Situation:
    from whybot.facts.snapshot import parse_snapshot

    return parse_snapshot(text, "witness.yaml", pack)


def _write(report: Report, folder: Path) -> dict[int, str]:
    """Each witness as `folder/NAME.yaml` (NAME: what it shows, as `gap-PAGE`); finding
    index → the file written."""
    if folder.exists() and not folder.is_dir():
        raise WhybotError(f"--witnesses: {str(folder)!r} is a file",
                          hint="give a folder to write the witness snapshots into")
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[int, str] = {}
    for index, finding in enumerate(report.findings):
        if finding.witness is None:
            continue
        name = finding.witness.snapshot["name"]
        path, count = folder / f"{name}.yaml", 1
        while str(path) in written.values():
            count += 1
            path = folder / f"{name}-{count}.yaml"
        path.write_text(finding.witness.text(), encoding="utf-8")
        written[index] = str(path)
    return written


def _show(finding: Finding, file: str | None) -> None:
    mark = ("–", "dim") if finding.excused else ("✗", "bold red")
    where = rel(finding.where) or finding.where
    out.print(Text.assemble((f"{mark[0]} {finding.kind}: ", mark[1]), (finding.subject, "bold"),
                            (f"  {where}", "dim")))
    out.print(Text(f"    {finding.message}"))
    for reason in finding.proof:
        out.print(Text(f"    proof: {reason}"))
    if finding.witness is not None:
        turn = ", ".join(f"{k} = {v}" for k, v in finding.witness.turn.items())
        shown = file or "give --witnesses DIR to write it, or --json to see it"
        out.print(Text(f"    witness (confirmed by the rule engine): {shown}"
                       + (f"; the turn so far: {turn}" if turn else "")))
    if finding.excused:
        out.print(Text(f"    excused: {finding.excused['reason']} ({finding.excused['cite']})",
                       style="italic"))


def rules_check(pack: RulesPack = None, rules: RulesOption = None,
                variant: CheckVariant = None, witnesses: WitnessFolder = None,
                tries: Tries = TRIES, json_out: JsonOption = False) -> None:
    """What the rule files can and cannot do (exit 1 on any finding the pack does not excuse).

    Rules that never apply (a proof over the fact schema) or never fire (a rule above always
    pre-empts them), pages no decision reaches, gaps (a situation where no rule of a page
    applies), equal-priority conflicts, and with --rules what the house rules replace,
    disable, shadow and change. A situation comes as a witness snapshot that the rule engine
    decided; a search that finds none says how many it tried. A pack excuses the findings its
    seed intends in pack.yaml (`check: excused:`), with a reason and a citation."""
    name = require_pack(pack)
    overlays = with_variant(name, variant, overlay_key(rules))
    engine = engine_for(name, overlays)
    shipped = engine_for(name, with_variant(name, variant, ())) if rules else None
    report = check(engine.pack, engine, _read, tries, shipped)
    written = _write(report, witnesses) if witnesses is not None else {}
    if json_out:
        data = report.as_dict()
        for index, file in written.items():
            data["findings"][index]["witness"]["file"] = file
        print_json(data)
    else:
        for index, finding in enumerate(report.findings):
            _show(finding, written.get(index))
        for searched in report.searched:
            out.print(Text(f"  searched: {searched}", style="dim"))
        for key in report.unknown_excuses:
            out.print(Text(f"pack.yaml excuses a finding about no rule or page of the pack: "
                           f"{key!r}", style="yellow"))
        counts = report.counts()
        summary = ", ".join(f"{counts[k]['found']} {k}" + (f" ({counts[k]['excused']} excused)"
                                                           if counts[k]["excused"] else "")
                            for k in KINDS)
        out.print(Text(f"{name}: {summary}; {report.decided} witness(es) decided",
                       style="bold"))
    if report.open or report.unknown_excuses:
        raise typer.Exit(1)


__all__ = ["rules_check"]
