"""The `whybot` command: decide a bot's turn from a snapshot, and say why.

Decisions and traces go to stdout, diagnostics to stderr. Bad input (a broken snapshot or rule
file, an unknown rule id) exits 2 with one line naming the file and line; an engine fault (a bug)
exits 1. Both are caught once, in `WhybotGroup.invoke`, so no command handles errors itself.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from whybot.engine import limits
from whybot.engine.decide import REASONERS
from whybot.engine.errors import EngineFault, WhybotError, did_you_mean
from whybot.engine.explain import find_rule, rule_verdict
from whybot.engine.schema import RULE_FILE_SCHEMA

from . import render
from .common import (
    KNOWLEDGE,
    engine_for,
    is_folder,
    load_situation,
    message,
    overlay_key,
    pack_for,
    pack_names,
    pack_title,
    rel,
    require_pack,
)
from .graph import mermaid


class WhybotGroup(TyperGroup):
    """Turns every WhybotError into one line on stderr and exit 2 (EngineFault: exit 1)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except WhybotError as exc:
            typer.echo(f"error: {message(exc)}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except EngineFault as exc:
            typer.echo(f"engine fault (a bug in whybot, please report it): {exc}", err=True)
            raise typer.Exit(EngineFault.exit_code) from None
        except Exception as exc:
            if type(exc).__module__.startswith("typer") or os.environ.get("WHYBOT_DEBUG"):
                raise  # typer's own exits and usage errors; or a developer wants the traceback
            typer.echo(f"internal error (a bug in whybot, please report it; WHYBOT_DEBUG=1 "
                       f"shows the traceback): {type(exc).__name__}: {exc}", err=True)
            raise typer.Exit(1) from None


def _typer(help_text: str) -> typer.Typer:
    return typer.Typer(cls=WhybotGroup, help=help_text, no_args_is_help=True,
                       rich_markup_mode=None, pretty_exceptions_enable=False,
                       add_completion=False)


def _limits_help() -> str:
    """The limits, their defaults and what each bounds, for `whybot --help` (kept as lines)."""
    defaults = limits.Limits()
    rows = [f"  {name:<16} {getattr(defaults, name):>10,}  {what}"
            for name, what in limits.LIMIT_HELP.items()]
    return ("\b\nLimits (raise one with --limit NAME=N or WHYBOT_LIMIT_NAME=N):\n"
            + "\n".join(rows))


app = _typer("Run a board-game bot's procedure from rule files, and explain every move.\n\n"
             "Start with `make demo`, or `whybot packs` and a pack's example snapshots.")
app.info.epilog = _limits_help()
rules_app = _typer("Browse, check and document the rule files of a knowledge pack.")
facts_app = _typer("Describe what a snapshot may contain.")
app.add_typer(rules_app, name="rules")
app.add_typer(facts_app, name="facts")

out = Console(highlight=False, soft_wrap=False)

# --- options shared by several commands -------------------------------------------------------

Snapshot = Annotated[Path, typer.Argument(
    metavar="SNAPSHOT", exists=True, dir_okay=False, readable=True,
    help="A snapshot (YAML or JSON): what the player sees on the table.")]
PackOption = Annotated[str | None, typer.Option(
    "--pack", "-p", metavar="PACK",
    help="Knowledge pack; by default the snapshot's own `pack:` field.")]
RulesOption = Annotated[list[Path] | None, typer.Option(
    "--rules", "-r", metavar="DIR", exists=True, file_okay=False,
    help="A folder of house-rule files laid over the pack (repeatable; later folders win).")]
SeedOption = Annotated[int | None, typer.Option(
    "--seed", "-s", metavar="N",
    help="Seed for the dice (pre-rolled `dice:` in the snapshot go first).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
IncludeFromOption = Annotated[list[Path] | None, typer.Option(
    "--include-from", metavar="DIR", exists=True, file_okay=False,
    help="A folder a snapshot's `include:` may read from besides the snapshot's own folder "
         "tree (repeatable).")]


@app.callback()
def limits_option(
    ctx: typer.Context,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", metavar="NAME=N",
        help="Raise or lower one of the limits listed below, for this command (repeatable).",
    )] = None,
) -> None:
    """Sets the limits every command reads by (environment, then --limit), before it runs."""
    previous = limits.current()
    limits.use(limits.from_environment(limit))
    ctx.call_on_close(lambda: limits.use(previous))


def _known_reasoner(name: str) -> str:
    if name not in REASONERS:
        hint = did_you_mean(name, set(REASONERS)) or f"one of: {', '.join(REASONERS)}"
        raise typer.BadParameter(f"unknown reasoner {name!r}; {hint}")
    return name


def _folders(paths: list[Path] | None) -> tuple[Path, ...]:
    return tuple(paths or ())


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def _decide(snapshot: Path, pack: str | None, rules: list[Path] | None, seed: int | None,
            explain: bool, include_from: list[Path] | None):
    engine, situation = load_situation(snapshot, pack, overlay_key(rules),
                                       _folders(include_from))
    return engine, situation, engine.decide(situation, seed=seed, explain=explain)


# --- decide / why -------------------------------------------------------------------------------


@app.command()
def decide(snapshot: Snapshot, pack: PackOption = None, rules: RulesOption = None,
           seed: SeedOption = None, json_out: JsonOption = False,
           include_from: IncludeFromOption = None) -> None:
    """What does the bot do now? (the short answer)

    The card it plays, each action with its goal, target, guidance and citation, whether the
    turn ended early (pass, event), the dice rolled, and what to do at the table. `whybot why`
    gives the reasons."""
    engine, _, trace = _decide(snapshot, pack, rules, seed, False, include_from)
    data = {**trace.as_dict(), "presentation": engine.pack.presentation}
    if json_out:
        _print_json({"snapshot": data["snapshot"], "pack": data["pack"],
                     "decision": data["decision"], "fired": trace.fired(),
                     "dice": data["dice"], "dice_notes": data["dice_notes"],
                     "assumed": data["assumed"]})
        return
    out.print(render.render_decision(data))


@app.command()
def why(snapshot: Snapshot, rule: Annotated[str | None, typer.Option(
            "--rule", metavar="ID",
            help="Only this rule: did it fire, where, and if not, why not.")] = None,
        pack: PackOption = None, rules: RulesOption = None, seed: SeedOption = None,
        json_out: JsonOption = False, include_from: IncludeFromOption = None) -> None:
    """Why did the bot do that? (the full trace)

    Every page read, the rule that fired there with the seed's question and citation, the
    values it matched and what it did; under it, why each higher rule did not apply. Then where
    each judgment came from (derived by a rule, given in the snapshot, or unknown and assumed
    "no"), and every dice roll. With --rule ID: only that rule, fired or not and why."""
    engine, situation, trace = _decide(snapshot, pack, rules, seed, True, include_from)
    data = {**trace.as_dict(), "presentation": engine.pack.presentation}
    if rule is not None:
        verdict = rule_verdict(engine, situation, trace, rule)
        if json_out:
            _print_json(verdict)
        else:
            out.print(render.render_verdict(verdict))
        return
    if json_out:
        _print_json(data)
        return
    out.print(render.render_trace(data))


# --- batch --------------------------------------------------------------------------------------


@app.command()
def batch(
    paths: Annotated[list[Path], typer.Argument(
        metavar="PATH...", exists=True,
        help="Snapshot files, folders (searched recursively) and .jsonl files.")],
    out_file: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE.jsonl", dir_okay=False,
        help="Write the result lines here (never overwritten without --force, never over an "
             "input); the summary then goes to stdout. Without it, result lines go to stdout, "
             "the summary to stderr.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --out.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue an interrupted run (same PATHs and options) from "
                         "FILE.jsonl.partial, without deciding its rows again.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", min=1, max=64,
                                      help="Worker processes (fork).")] = 1,
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
    reasoner: Annotated[str, typer.Option(
        "--reasoner", metavar="NAME", callback=_known_reasoner,
        help="durable (the rule engine) or plain (the plain-Python reference, which the "
             "explainer also uses): the same rows, to cross-check or to measure")] = "durable",
) -> None:
    """Decide many snapshots, with rule coverage.

    One JSON line per snapshot (snapshot, ok, result, card, actions,
    fired rules, error), then a summary: how many were decided, how many were bad, the results,
    and rule coverage (how often each rule fired, which never did). A bad snapshot becomes an
    error row and the batch goes on. Exit 0 when the batch ran (the error count is in the
    summary), 2 with --strict if any row was bad, 1 if the engine faulted. Ctrl-C or SIGTERM
    stops it with the rows so far kept whole (exit 130 or 143); --resume continues it."""
    from . import batch as batching  # here, not at the top: `decide` starts faster without it
    from .stopping import Interrupted
    from .summary import render_summary

    request = batching.Request(
        paths=paths, out=out_file, force=force, resume=resume, jobs=jobs, pack=pack,
        overlays=overlay_key(rules), seed=seed, include_from=_folders(include_from),
        reasoner=reasoner)
    try:
        summary = batching.run_batch(request)
    except Interrupted as stop:
        if stop.signum != signal.SIGPIPE:
            typer.echo(f"interrupted by {stop}: {stop.kept}", err=True)
        raise typer.Exit(stop.exit_code) from None
    side = Console(stderr=out_file is None, highlight=False)
    if json_out:
        side.print_json(json.dumps(summary.as_dict(request.overlays), ensure_ascii=False))
    else:
        side.print(render_summary(summary, request.overlays))
    if summary.faults:
        raise typer.Exit(1)
    if strict and summary.errors:
        raise typer.Exit(2)


# --- rules --------------------------------------------------------------------------------------

RulesPack = Annotated[str | None, typer.Option(
    "--pack", "-p", metavar="PACK",
    help="Knowledge pack: an installed pack's name, or a pack folder (read as YAML only).")]


@rules_app.command("list")
def rules_list(pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """Every rule, page by page, in the order it is considered.

    Shows id, priority, layer (base, or a Fate's or house rule's salience) and the seed's
    question."""
    loaded = pack_for(require_pack(pack), overlay_key(rules))
    if json_out:
        _print_json([{"page": r.page, "id": r.id, "priority": r.priority,
                      "layer": r.layer_name, "kind": r.kind, "says": r.says,
                      "file": f"{rel(r.file)}:{r.line}"} for r in loaded.rules()])
        return
    out.print(Text.assemble((loaded.name, "bold"), f": {loaded.title}"))
    for page in loaded.pages.values():
        out.print()
        title = f" — {page.title}" if page.title != page.name else ""
        out.print(Text.assemble((page.name, "bold cyan"), (title, "cyan"),
                                (f"  ({page.kind})" if page.kind != "decision" else "", "dim")))
        for rank, rule in enumerate(page.ordered(), 1):
            layer = "" if rule.layer == 0 else f"  [{rule.layer_name}]"
            seed = f"[{rule.priority:g}]" if rule.priority is not None else ""
            out.print(Text.assemble(f"{rank:>4} {seed:>6}  ", (rule.id, "bold"),
                                    (layer, "magenta")))
            if rule.says:
                out.print(Padding(Text(rule.says, style="italic dim"), (0, 0, 0, 8)))
    for rule_id, reason in loaded.disabled.items():
        out.print(Text(f"disabled: {rule_id}: {reason}", style="yellow"))


@rules_app.command("show")
def rules_show(rule_id: Annotated[str, typer.Argument(
                   metavar="ID", help="A rule id, e.g. bot_turn.draw.")],
               pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """One rule in full.

    Where it is written (file:line), its page and rank, its condition, its outcome and its
    citation."""
    loaded = pack_for(require_pack(pack), overlay_key(rules))
    rule = find_rule(loaded, rule_id)
    page = loaded.pages[rule.page]
    rank = page.ordered().index(rule) + 1
    data = {"id": rule.id, "file": f"{rel(rule.file)}:{rule.line}", "page": rule.page,
            "page_title": page.title, "kind": rule.kind, "rank": rank,
            "of": len(page.rules), "priority": rule.priority, "layer": rule.layer_name,
            "when": rule.when_text, "then": rule.then.raw, "says": rule.says, "cite": rule.cite,
            "replaces": rule.replaces}
    if json_out:
        _print_json(data)
        return
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    for name in ("id", "file", "page", "kind"):
        table.add_row(name, Text(str(data[name])))
    table.add_row("rank", f"{rank} of {len(page.rules)} on {page.title!r}")
    if rule.priority is not None:
        table.add_row("seed number", f"{rule.priority:g}")
    table.add_row("layer", rule.layer_name)
    table.add_row("when", Text(rule.when_text))
    then = yaml.safe_dump(rule.then.raw, allow_unicode=True, sort_keys=False).rstrip()
    table.add_row("then", Text(then))
    for name in ("says", "cite", "replaces"):
        if data[name]:
            table.add_row(name, Text(str(data[name])))
    out.print(table)


@rules_app.command("lint")
def rules_lint(pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """Check the rule files (exit 2 on errors); without --pack, every installed pack.

    Errors: schema, condition syntax, unknown names, fields, kinds, pages and enum values (with
    "did you mean"), comparisons of the wrong type, duplicate ids, bad `replaces:`, `before:`,
    `after:` or `disable:`, each with its file and line. Warnings (do not fail): rules that can
    never fire, links a template can spell to a page nobody wrote."""
    from whybot.engine import collect_problems
    from whybot.engine.lint import warnings as lint_warnings
    from whybot.engine.loader import pack_folder

    overlays = [Path(o) for o in overlay_key(rules)]
    report: list[dict[str, Any]] = []
    for name in [pack] if pack else pack_names():
        folder = Path(name) if is_folder(name) else pack_folder(KNOWLEDGE, name)
        problems = collect_problems(folder, overlays)
        entry: dict[str, Any] = {"pack": name, "errors": [message(p) for p in problems],
                                 "warnings": []}
        if not problems:
            loaded = pack_for(name, overlay_key(rules))
            for warning in lint_warnings(loaded):
                warning.file = rel(warning.file) or warning.file
                entry["warnings"].append(str(warning))
            entry.update(rules=len(loaded.rules()), files=len(loaded.files))
        report.append(entry)
    if json_out:
        _print_json(report)
    else:
        for entry in report:
            for error in entry["errors"]:
                typer.echo(f"error: {error}")
            for warning in entry["warnings"]:
                typer.echo(f"warning: {warning}")
            if entry["errors"]:
                typer.echo(f"{entry['pack']}: {len(entry['errors'])} error(s)")
            else:
                typer.echo(f"{entry['pack']}: {entry['rules']} rules in {entry['files']} "
                           f"files: no errors, {len(entry['warnings'])} warning(s)")
    if any(entry["errors"] for entry in report):
        raise typer.Exit(2)


@rules_app.command("coverage")
def rules_coverage(pack: RulesPack = None, rules: RulesOption = None,
                   json_out: JsonOption = False) -> None:
    """Every section of the pack's seed, the rules that cite it, and the gaps (exit 1 if any).

    A section is cited (some rule's citation names it, or a line inside it), excused (the pack
    lists it under `coverage: excused:` with a reason: a component list, a player-side rule),
    not yet encoded (`coverage: not_yet:`), or missing."""
    from whybot.engine.coverage import coverage

    report = coverage(pack_for(require_pack(pack), overlay_key(rules)))
    if json_out:
        _print_json(report)
    else:
        marks = {"cited": ("✓", "green"), "excused": ("–", "dim"), "not_yet": ("…", "yellow"),
                 "missing": ("✗", "bold red")}
        for section in report["sections"]:
            mark, style = marks[section["status"]]
            line = Text.assemble((f"{mark} ", style), (section["title"], style),
                                 (f"  (line {section['line']})", "dim"))
            if section["rules"]:
                line.append(f"  {len(section['rules'])} rule(s)", style="dim")
            if section["reason"]:
                line.append(f"  {section['status'].replace('_', ' ')}: {section['reason']}",
                            style="italic")
            out.print(line)
        totals = report["totals"]
        out.print(Text(f"{report['pack']}: {totals['cited']} cited, {totals['excused']} "
                       f"excused, {totals['not_yet']} not yet, {totals['missing']} missing",
                       style="bold"))
        for title in report["unknown_in_pack_yaml"]:
            out.print(Text(f"pack.yaml names a section the seed does not have: {title!r}",
                           style="yellow"))
    if report["totals"]["missing"] or report["unknown_in_pack_yaml"]:
        raise typer.Exit(1)


@rules_app.command("graph")
def rules_graph(pack: RulesPack = None, rules: RulesOption = None) -> None:
    """The pages and the rules that lead from one to another, as a Mermaid flowchart.

    Dashed arrows read a page and come back (`call`), solid ones go for good (`goto`). Paste the
    output into any Mermaid viewer (GitHub renders ```mermaid blocks)."""
    out.print(mermaid(pack_for(require_pack(pack), overlay_key(rules))), markup=False,
              highlight=False,
              soft_wrap=True)


@rules_app.command("schema")
def rules_schema() -> None:
    """The JSON Schema of a rule file, for editors (e.g. the YAML language server)."""
    _print_json(RULE_FILE_SCHEMA)


@facts_app.command("schema")
def facts_schema(pack: RulesPack = None, rules: RulesOption = None) -> None:
    """The JSON Schema of a snapshot for a pack.

    Every observation, entity list and judgment a snapshot may give, with types, ranges and
    what the player reads them as."""
    from whybot.facts.schema import snapshot_schema

    _print_json(snapshot_schema(pack_for(require_pack(pack), overlay_key(rules))))


@app.command()
def packs() -> None:
    """The knowledge packs installed, with their titles."""
    for name in pack_names():
        out.print(Text.assemble((name, "bold cyan"), "  ", pack_title(name)))


def main() -> None:
    """Console entry point: errors that escape the group still end as one line, no traceback."""
    try:
        app()
    except WhybotError as exc:
        typer.echo(f"error: {message(exc)}", err=True)
        sys.exit(exc.exit_code)
    except EngineFault as exc:
        typer.echo(f"engine fault (a bug in whybot, please report it): {exc}", err=True)
        sys.exit(EngineFault.exit_code)


__all__ = ["app", "engine_for", "main"]
