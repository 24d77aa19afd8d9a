"""The stage map of docs/architecture.md, drawn from the code's real imports.

Every module of engine/, facts/ and cli/ belongs to one stage below; an arrow A --> B says that
a module of stage A imports one of stage B when it runs. Left out: imports only a type checker
reads, arrows into "shared" (every stage reads it), and an arrow a longer path already implies;
an import from a lower layer into a higher one (engine ← facts ← cli) is dashed. A module that
no stage names is an error, so the map cannot fall behind the tree. `python
scripts/stage_map.py` prints the Mermaid diagram, `--modules` the table of stages with their
modules; scripts/readme_samples.py writes both into docs/architecture.md.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "facts", "cli")
FRONT_DOOR = "engine/__init__"  # the one `__init__` that is a stage: all above import it

# stage: (what it holds, its modules as paths without .py); in pipeline order
STAGES: dict[str, tuple[str, list[str]]] = {
    "shared": ("what every stage speaks: errors, limits, the work budget, the situation "
               "decided on, the trace it yields", [
        "engine/errors", "engine/limits", "engine/text", "engine/budget", "engine/situation",
        "engine/trace"]),
    "language": ("the rule language, parsed once into typed trees, and the pack model built "
                 "of them: rules, pages, what a rule reads and where it leads", [
        "engine/language/tokens", "engine/language/parser", "engine/language/expressions",
        "engine/language/tree_queries", "engine/language/unparse", "engine/language/outcomes",
        "engine/language/outcome_parser", "engine/language/action_fields",
        "engine/language/pack", "engine/language/rule_reads",
        "engine/language/page_links", "engine/language/mentions"]),
    "evaluate": ("the plain-Python reading of the language: what the why-not says, and what "
                 "the reference reasoner reads", [
        "engine/evaluator/evaluate", "engine/evaluator/closures", "engine/evaluator/comparisons",
        "engine/evaluator/joins"]),
    "load and check": ("YAML read safely under the limits; a pack loaded with its overlays "
                       "and checked before any snapshot; `rules lint`'s warnings", [
        "engine/load/sources", "engine/load/yaml_nodes", "engine/load/schema",
        "engine/load/outcome_schema", "engine/load/validation", "engine/load/pack_files",
        "engine/load/loaded_files", "engine/load/loader", "engine/load/rule_file",
        "engine/load/overlay", "engine/load/page_templates", "engine/load/named_preferences",
        "engine/load/variants", "engine/load/declarations", "engine/load/checks",
        "engine/load/lint", "engine/load/spending", "engine/load/coverage"]),
    "rules check": ("`rules check`: rules that never apply or never fire, pages never reached, "
                    "gaps and conflicts, each proved or shown by a witness the engine decides", [
        "engine/check/checker", "engine/check/confirm", "engine/check/domains",
        "engine/check/findings", "engine/check/overlay", "engine/check/paths",
        "engine/check/proofs", "engine/check/search"]),
    "compile": ("conditions onto durable_rules rulesets, proved safe; kept on disk", [
        "engine/compile/alternatives", "engine/compile/conditions", "engine/compile/codes",
        "engine/compile/fields_tested", "engine/compile/rulesets",
        "engine/compile/alpha_network", "engine/compile/durable_core",
        "engine/compile/disk_cache"]),
    "derive": ("judgments forward-chained in durable_rules, stratum by stratum, only those the "
               "walk can read, rederived in part after an action (fast/); the plain reference "
               "reasoner beside it", [
        "engine/derive/forward_chaining", "engine/derive/derivation", "engine/derive/strata",
        "engine/derive/pack_reads", "engine/derive/asserted", "engine/derive/entities",
        "engine/derive/reference", "engine/derive/walk_subset",
        "engine/derive/fast/incremental", "engine/derive/fast/reuse",
        "engine/derive/fast/sameness"]),
    "walk": ("the pages read one after another: on each, durable_rules' agenda fires the top "
             "applicable rule, and its outcome applies (effects, choices, dice)", [
        "engine/walk/turn", "engine/walk/passed_over", "engine/walk/pages",
        "engine/walk/applying", "engine/walk/effects", "engine/walk/choices", "engine/walk/dice",
        "engine/walk/judgments",
        "engine/walk/facts_read", "engine/walk/instead", "engine/walk/reach",
        "engine/walk/can_read"]),
    "decide": ("the pipeline in one place: `Engine(pack).decide(situation)` → trace (and each "
               "of its parts timed, for benchmarks/breakdown.py)", [
        "engine/decide", "engine/timing"]),
    "explain": ("one rule's verdict (`why --rule`), where two walks part (`--diff`)", [
        "engine/explain/verdict", "engine/explain/divergence"]),
    "odds": ("every way the dice can fall, exactly, or sampled", [
        "engine/odds/distribution", "engine/odds/replay", "engine/odds/exact",
        "engine/odds/sampling", "engine/odds/leaves"]),
    "front door": ("`whybot.engine`, the one module facts and cli import: load a pack, decide, "
                   "explain, odds, check (what a cached decision does not run loads on first "
                   "use)", ["engine/__init__"]),
    "snapshots": ("snapshots read and checked against a pack's fact schema", [
        "facts/snapshot", "facts/values", "facts/includes", "facts/schema"]),
    "pack registry": ("the installed packs, one compiled engine per pack and overlays (kept on "
                      "disk), a snapshot read for its pack's engine", [
        "facts/packs", "facts/situations"]),
    "play loop": ("a game at the table: questions, the game file, its flow and log", [
        "facts/play/table", "facts/play/setup", "facts/play/turn", "facts/play/asking",
        "facts/play/inquiry", "facts/play/consult", "facts/play/question",
        "facts/play/wording", "facts/play/playbook", "facts/play/flow", "facts/play/offer",
        "facts/play/told", "facts/play/round_start", "facts/play/unasked",
        "facts/play/together", "facts/play/standing", "facts/play/first",
        "facts/play/after",
        "facts/play/naming",
        "facts/play/deck",
        "facts/play/printed",
        "facts/play/game", "facts/play/game_check",
        "facts/play/game_schema", "facts/play/ledger",
        "facts/play/timeline", "facts/play/fix"]),
    "commands": ("the typer app and its commands (batch and serve run in their wings)", [
        "cli/__main__", "cli/app", "cli/cmd_decide", "cli/cmd_odds", "cli/cmd_play",
        "cli/cmd_fix", "cli/cmd_rules", "cli/cmd_diff", "cli/cmd_batch", "cli/cmd_serve",
        "cli/cmd_limits", "cli/prompt", "cli/answers_file", "cli/picks", "cli/graph",
        "cli/new_page",
        "cli/cmd_check", "cli/played"]),
    "batch": ("`whybot batch`: inputs, forked or Dask workers, resumable rows, --diff", [
        "cli/batch/run", "cli/batch/inputs", "cli/batch/rows", "cli/batch/pool",
        "cli/batch/results", "cli/batch/outfile", "cli/batch/stopping", "cli/batch/summary",
        "cli/batch/progress", "cli/batch/cluster", "cli/batch/scheduler",
        "cli/batch/inflight", "cli/batch/remote", "cli/batch/diffoverlay",
        "cli/batch/diffrows", "cli/batch/diffsummary"]),
    "web": ("`whybot serve`: the play loop as web pages", [
        "cli/web/app", "cli/web/guard", "cli/web/listen", "cli/web/folder", "cli/web/pages",
        "cli/web/games", "cli/web/play", "cli/web/turns", "cli/web/forms",
        "cli/web/decision", "cli/web/fixpage", "cli/web/treehtml"]),
    "views": ("what the commands share: options, paths and errors as a user reads them, one "
              "error catch, and the terminal views of a decision", [
        "cli/common", "cli/options", "cli/group", "cli/shown", "cli/render",
        "cli/decision_view", "cli/trace_view", "cli/verdict_view", "cli/brief", "cli/reasons",
        "cli/odds", "cli/tables"]),
}


def _modules() -> list[str]:
    """Every module of the packages that defines something (an `__init__` that only hands
    names on, or says what its package is, is no stage's)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "__init__.py":
                continue
            found.append(str(path.relative_to(ROOT).with_suffix("")))
    return [FRONT_DOOR, *found]


def _stage_of() -> dict[str, str]:
    stage_of = {module: stage for stage, (_, modules) in STAGES.items() for module in modules}
    unplaced = sorted(set(_modules()) - set(stage_of))
    gone = sorted(set(stage_of) - set(_modules()))
    if unplaced or gone:
        raise SystemExit(f"scripts/stage_map.py: modules in no stage: {unplaced}; "
                         f"stages naming no module: {gone}")
    return stage_of


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _imports(module: str) -> set[str]:
    """The modules of the packages `module` imports when it runs (the front door's lazy
    exports are imported for the type checker too, and on first use)."""
    path = ROOT / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set() if module == FRONT_DOOR else {
        id(node) for block in ast.walk(tree)
        if isinstance(block, ast.If) and _is_type_checking(block.test)
        for node in ast.walk(block)}
    here = module.split("/")[:-1]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.ImportFrom | ast.Import):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif node.level:
            base = here[: len(here) - node.level + 1]
            stem = [*base, *(node.module.split(".") if node.module else [])]
            names = ["/".join(stem)] if node.module else [
                "/".join([*stem, alias.name]) for alias in node.names]
        else:
            names = [node.module or ""]
        for name in names:
            name = name.replace(".", "/").removeprefix("whybot/")
            if name.split("/")[0] in PACKAGES:
                targets.add(name)
    return targets


def _stage_of_target(target: str, stage_of: dict[str, str]) -> str | None:
    """The stage of an imported module; of a package, the one stage of its modules."""
    if target in stage_of or f"{target}/__init__" in stage_of:
        return stage_of.get(target, stage_of.get(f"{target}/__init__"))
    inside = {stage for module, stage in stage_of.items() if module.startswith(f"{target}/")}
    return inside.pop() if len(inside) == 1 else None


def edges() -> set[tuple[str, str]]:
    """(A, B): a module of stage A imports one of stage B."""
    stage_of = _stage_of()
    found = set()
    for module, stage in stage_of.items():
        for target in _imports(module):
            other = _stage_of_target(target, stage_of)
            if other is not None and other not in (stage, "shared"):
                found.add((stage, other))
    return found


def _node(stage: str) -> str:
    return stage.replace(" ", "_")


def _package(stage: str) -> int:
    """engine 0, facts 1, cli 2: the layers, each importing only those below it."""
    return PACKAGES.index(STAGES[stage][1][0].split("/")[0])


def _reduced(found: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The arrows no longer path already implies (the transitive reduction of a DAG)."""
    after: dict[str, set[str]] = {}
    for source, target in found:
        after.setdefault(source, set()).add(target)

    def reaches(start: str, goal: str, skip: tuple[str, str]) -> bool:
        seen, todo = set(), [start]
        while todo:
            stage = todo.pop()
            for nxt in after.get(stage, ()):
                if (stage, nxt) == skip or nxt in seen:
                    continue
                if nxt == goal:
                    return True
                seen.add(nxt)
                todo.append(nxt)
        return False

    return {edge for edge in found if not reaches(*edge, skip=edge)}


def mermaid() -> str:
    """Stages as boxes, imports as arrows: downward ones reduced, upward ones dashed."""
    found = edges()
    upward = {(a, b) for a, b in found if _package(a) < _package(b)}
    lines = ["flowchart TD"]
    for stage, (_, modules) in STAGES.items():
        folder = modules[0].rsplit("/", 1)[0]
        count = f"{len(modules)} module{'s' if len(modules) > 1 else ''}"
        lines.append(f'  {_node(stage)}["{stage}<br/>{folder}/ · {count}"]')
    order = list(STAGES)
    for source, target in sorted(_reduced(found - upward),
                                 key=lambda e: (order.index(e[0]), order.index(e[1]))):
        lines.append(f"  {_node(source)} --> {_node(target)}")
    for source, target in sorted(upward):
        lines.append(f"  {_node(source)} -. upward .-> {_node(target)}")
    return "\n".join(lines)


def modules_table() -> str:
    """Stages and their modules (no line counts: the table changes only when a module comes,
    goes or moves)."""
    rows = ["| stage | what it holds | modules |", "| --- | --- | --- |"]
    for stage, (what, modules) in STAGES.items():
        names = ", ".join(f"`{module.split('/', 1)[1]}`" for module in modules)
        rows.append(f"| {stage} | {what} | {names} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(modules_table() if "--modules" in sys.argv[1:] else mermaid())
