"""`whybot rules ...`, `whybot facts schema` and `whybot packs`: reading a pack, not deciding."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from whybot.engine import RULE_FILE_SCHEMA, LoadedFiles, find_rule
from whybot.facts import packs as registry
from whybot.facts.packs import is_folder, overlay_key, pack_for, pack_names, pack_title

from .common import message, rel, require_pack
from .graph import mermaid
from .group import command_group, out, print_json
from .new_page import new_page
from .options import JsonOption, RulesOption, RulesPack

rules_app = command_group("Browse, check and document the rule files of a knowledge pack.")
facts_app = command_group("Describe what a snapshot may contain.")

@rules_app.command("list")
def rules_list(pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """Every rule, page by page, in the order it is considered.

    Shows id, priority, layer (base, or an optional module's or house rule's salience) and
    the seed's question."""
    loaded = pack_for(require_pack(pack), overlay_key(rules))
    if json_out:
        print_json([{"page": r.page, "id": r.id, "priority": r.priority,
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


@rules_app.command("new")
def rules_new(template: Annotated[str, typer.Argument(
                  metavar="TEMPLATE", help="The pack's page template to start from (fate).")],
              name: Annotated[str, typer.Argument(
                  metavar="NAME", help="The new page's name (miser): lowercase, digits, _.")],
              pack: RulesPack = None,
              folder: Annotated[Path | None, typer.Option(
                  "--out", "-o", metavar="DIR",
                  help="Folder to write into (default: ./NAME); nothing in it is "
                       "overwritten.")] = None) -> None:
    """Start a house page (a new optional module) from the pack's own skeleton: its rule file and an
    example snapshot that decides.

    The page takes the template's bookkeeping (the budget, marking targets used), so its
    file holds only its rules. Then lint it, check it, and decide the example with it."""
    loaded = pack_for(require_pack(pack))
    where = folder or Path(name)
    page, example = new_page(loaded, template, name, where)
    typer.echo(f"wrote {page} and {example}\nnext:\n"
               f"  whybot rules lint --pack {loaded.name} --rules {where}\n"
               f"  whybot rules check --pack {loaded.name} --rules {where}\n"
               f"  whybot decide {example} --rules {where}")


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
        print_json(data)
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


def _lint_entry(name: str, folder: Path, variant: str | None, rules: list[Path] | None,
                loaded: LoadedFiles) -> dict[str, Any]:
    """What `rules lint` reports for a pack, or for one of its variants laid over it (the
    pack's files are read once for all of them: `loaded`)."""
    from whybot.engine import lint_load, lint_warnings

    overlays = registry.with_variant(name, variant, overlay_key(rules))
    problems, pack = lint_load(folder, [Path(o) for o in overlays], loaded)
    label = f"{name} (variant {variant})" if variant else name
    entry: dict[str, Any] = {"pack": label, "errors": [message(p) for p in problems],
                             "warnings": []}
    if pack is not None:
        for warning in lint_warnings(pack):
            warning.file = rel(warning.file) or warning.file
            warning.see = rel(warning.see)
            entry["warnings"].append(str(warning))
        entry.update(rules=len(pack.rules()), files=len(pack.files))
        if not variant:  # the --rules folders are the same under every variant: noted once
            entry["skipped"] = [rel(file) or file for file in pack.skipped]
    return entry


@rules_app.command("lint")
def rules_lint(pack: RulesPack = None, rules: RulesOption = None,
               json_out: JsonOption = False) -> None:
    """Check the rule files (exit 2 on errors); without --pack, every installed pack.

    Errors: schema, condition syntax, unknown names, fields, kinds, pages and enum values (with
    "did you mean"), comparisons of the wrong type, duplicate ids, bad `replaces:`, `before:`,
    `after:` or `disable:`, each with its file and line. Warnings (do not fail): rules that can
    never fire, links a template can spell to a page nobody wrote, pages that take actions
    without saying what an action uses up (no `after_action`/`repeat_while` where the pages read
    alike have them). Notes: files of the --rules folders that are not rule files (snapshots
    kept beside them), which are not read. Each variant a pack ships is checked too, laid over
    the pack."""
    from whybot.engine import pack_folder, shipped_variants

    report: list[dict[str, Any]] = []
    loaded = LoadedFiles()
    for name in [pack] if pack else pack_names():
        folder = Path(name) if is_folder(name) else pack_folder(registry.KNOWLEDGE, name)
        for variant in [None, *shipped_variants(folder)]:
            report.append(_lint_entry(name, folder, variant, rules, loaded))
    if json_out:
        print_json(report)
    else:
        for entry in report:
            for error in entry["errors"]:
                typer.echo(f"error: {error}")
            for warning in entry["warnings"]:
                typer.echo(f"warning: {warning}")
            for file in entry.get("skipped", []):
                typer.echo(f"note: {file}: not a rule file (it declares no procedure, rules or "
                           "disable), not read")
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
    from whybot.engine import coverage

    report = coverage(pack_for(require_pack(pack), overlay_key(rules)))
    if json_out:
        print_json(report)
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
    print_json(RULE_FILE_SCHEMA)


@facts_app.command("schema")
def facts_schema(pack: RulesPack = None, rules: RulesOption = None) -> None:
    """The JSON Schema of a snapshot for a pack.

    Every observation, entity list and judgment a snapshot may give, with types, ranges and
    what the player reads them as."""
    from whybot.facts.schema import snapshot_schema

    print_json(snapshot_schema(pack_for(require_pack(pack), overlay_key(rules))))


def packs(json_out: JsonOption = False) -> None:
    """The knowledge packs installed, with their titles."""
    if json_out:
        print_json([{"pack": name, "title": pack_title(name)} for name in pack_names()])
        return
    for name in pack_names():
        out.print(Text.assemble((name, "bold cyan"), "  ", pack_title(name)))
