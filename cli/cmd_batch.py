"""`whybot batch`: the command's options; the batch itself runs in `batch.py`."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from whybot.engine import WhybotError
from whybot.facts.packs import overlay_key, with_variant

from .common import overlay_folder
from .options import (
    IncludeFromOption,
    PackOption,
    ReasonerOption,
    RulesOption,
    VariantOption,
    folders,
)

if TYPE_CHECKING:
    from .batch.diffsummary import DiffSummary
    from .batch.summary import Summary


def batch(
    paths: Annotated[list[Path], typer.Argument(
        metavar="PATH...", exists=True,
        help="Snapshot files, folders (searched recursively) and .jsonl files.")],
    out_file: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE.jsonl",
        help="Write the result lines here (never overwritten without --force, never over an "
             "input; a device or FIFO is written directly); the summary then goes to stdout. "
             "Without it, result lines go to stdout, the summary to stderr.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --out.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue an interrupted run (same PATHs and options) from "
                         "FILE.jsonl.partial, without deciding its rows again (an input edited "
                         "since is decided again, with the rows after it).")] = False,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", metavar="N", min=1, max=64,
        help="Worker processes (fork); with --cluster local, the Dask workers to start "
             "(default: one per CPU).")] = None,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", metavar="ADDRESS",
        help="Decide on a Dask cluster: its scheduler's address (tcp://HOST:8786), or `local` "
             "to start one here. Same rows, same order. Needs the cluster extra (pip install "
             "'whybot[cluster]'); see docs/cluster.md.")] = None,
    pack: PackOption = None, rules: RulesOption = None,
    seed: Annotated[int, typer.Option(
        "--seed", "-s", metavar="N",
        help="Seed for every snapshot's dice (same seed → same batch).")] = 0,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print the summary as one JSON object instead of tables.")] = False,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit 2 if any snapshot was bad (default: exit 0 once the batch "
                         "ran).")] = False,
    include_from: IncludeFromOption = None,
    reasoner: ReasonerOption = "durable",
    with_odds: Annotated[bool, typer.Option(
        "--odds", help="Add to each row the exact odds of its decision over the dice not "
                       "pre-rolled, as `whybot odds --json` gives them (with --diff, each "
                       "side's).")] = False,
    variant: VariantOption = None,
    diff: Annotated[str | None, typer.Option(
        "--diff", metavar="RULES_DIR_OR_VARIANT",
        help="Decide every snapshot under the base rules (the pack, any --variant and --rules) "
             "and with this house-rule folder, or this variant of the --pack, laid over them: "
             "one row per snapshot saying whether the decision changed (with --odds: or its "
             "odds did), the first rule whose outcome differs and both decisions; the summary "
             "counts the changes by page and rule. The folder is checked first: a broken rule "
             "file stops the batch.")] = None,
) -> None:
    """Decide many snapshots, with rule coverage.

    One JSON line per snapshot (snapshot, ok, result, card, actions,
    fired rules, error), then a summary: how many were decided, how many were bad, the results,
    and rule coverage (how often each rule fired, which never did). A bad snapshot becomes an
    error row and the batch goes on. Exit 0 when the batch ran (the error count is in the
    summary), 2 with --strict if any row was bad, 1 if the engine faulted. Ctrl-C or SIGTERM
    stops it with the rows so far kept whole (exit 130 or 143); --resume continues it.
    With --diff, each row compares the decision under the base rules with the decision under
    the overlay, and the summary counts the changes by page and rule."""
    from .batch import run as batching  # here, not at the top: `decide` starts faster without it
    from .batch.diffoverlay import spelled
    from .batch.stopping import Interrupted

    if variant and not pack:
        raise WhybotError("--variant in a batch needs --pack: a variant is one pack's",
                          hint="or let each snapshot name its own (`variant:`)")
    given = [*(rules or []), overlay_folder(diff, pack)] if diff else rules or []
    overlays = overlay_key(given)
    base = overlays[:-1] if diff else overlays
    request = batching.Request(
        paths=paths, out=out_file, force=force, resume=resume, jobs=jobs, cluster=cluster,
        pack=pack, overlays=with_variant(pack, variant, base) if pack else base, seed=seed,
        include_from=folders(include_from), reasoner=reasoner, odds=with_odds,
        diff=overlays[-1] if diff else None,
        spelled=spelled([*(rules or []), diff] if diff else given, overlays))
    try:
        summary = batching.run_batch(request)
    except Interrupted as stop:
        if stop.signum != signal.SIGPIPE:
            typer.echo(f"interrupted by {stop}: {stop.kept}", err=True)
        raise typer.Exit(stop.exit_code) from None
    _print_summary(summary, request.overlays, json_out, stderr=out_file is None)
    if summary.faults:
        raise typer.Exit(1)
    if strict and summary.errors:
        raise typer.Exit(2)


def _print_summary(summary: Summary | DiffSummary, overlays: tuple[str, ...], json_out: bool,
                   stderr: bool) -> None:
    """The summary, as JSON or tables: through rich on a terminal that shows colour, else
    as the same text written directly (rich's layout of a large pack's tables cost a batch
    process about 0.2 s)."""
    from rich.console import Console

    from .batch.diffsummary import DiffSummary, diff_summary_parts
    from .batch.summary import summary_parts
    from .tables import print_parts

    # rule ids and page names hold no markup or emoji codes: not looked for in every cell
    side = Console(stderr=stderr, highlight=False, markup=False, emoji=False)
    if json_out:
        data = summary.as_dict(overlays)
        if side.color_system is None:  # rich's `print_json` would print this, uncoloured
            side.file.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            side.file.flush()
        else:
            side.print_json(json.dumps(data, ensure_ascii=False))
    elif isinstance(summary, DiffSummary):
        print_parts(side, diff_summary_parts(summary))
    else:
        print_parts(side, summary_parts(summary, overlays))
