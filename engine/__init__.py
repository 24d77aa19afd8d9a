"""The game-agnostic engine: rule files in, decisions and their traces out. The front door:
everything outside engine/ (facts, cli, benchmarks, scripts) imports from here, never from a
stage (tests/test_layers.py holds this).

The stages, in the order a decision runs through them (each folder's `__init__` says what it
takes and gives): `language/` (the rule language and the pack model), `evaluator/` (its
plain-Python reading), `load/` (rule files read, checked and linted), `compile/` (onto
durable_rules), `derive/` (judgments forward-chained), `walk/` (the pages read, outcomes
applied), then `decide.py` (the pipeline: `Engine(pack).decide(situation)` → `Trace`);
beside them `explain/` (one rule's verdict, where two walks part), `odds/` and `check/`
(`rules check`). What every stage speaks stays here: `errors`, `limits`, `text`, `budget`,
`situation`, `trace`.

A decision on a cached pack imports only what it runs: the names of the stages it does not
run (the loader, lint, explain, odds, check) load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .compile.durable_core import core_wrapped as durable_core_wrapped
from .decide import REASONERS, Engine, compile_derivations
from .derive.derivation import EID, GIVEN
from .derive.forward_chaining import DurableDeriver
from .errors import (
    DecisionError,
    EngineFault,
    RuleFileError,
    SnapshotError,
    WhybotError,
    did_you_mean,
)
from .evaluator.evaluate import World, evaluate, holds
from .language.action_fields import DETAILS, GENERIC_FIELDS, ActionFields
from .language.expressions import Condition, Value
from .language.pack import DECISION, EntitySpec, FieldSpec, Pack
from .language.rule_reads import (
    FIELD,
    KIND,
    NAME,
    Product,
    bound_kinds,
    outcome_reads,
    tree_items,
)
from .language.tree_queries import all_refs
from .limits import LIMIT_HELP, Limits
from .limits import current as current_limits
from .limits import from_environment as limits_from_environment
from .limits import use as use_limits
from .situation import Situation
from .trace import Action, Chosen, Decision, Judgment, Said, Step, Trace, WhyNot
from .walk.can_read import can_read
from .walk.facts_read import Open, Reading, open_facts
from .walk.instead import NOTHING_INSTEAD, Instead, asked_instead

if TYPE_CHECKING:
    from .check import KINDS, TRIES, Finding, Report
    from .check import check as check_rules
    from .compile.disk_cache import cached
    from .explain.divergence import divergence, judgments_changed, only_one_declares, without
    from .explain.verdict import find_rule, rule_verdict, unestablished
    from .language.page_links import links
    from .language.parser import parse, parse_value
    from .language.tokens import ConditionSyntaxError
    from .load.coverage import coverage
    from .load.declarations import load_pack_description
    from .load.lint import warnings as lint_warnings
    from .load.loaded_files import LoadedFiles
    from .load.loader import collect_problems, lint_load, load_pack, load_pack_folder
    from .load.pack_files import PLAY_FILE, pack_folder, rule_files
    from .load.rule_file import declares_rules
    from .load.schema import RULE_FILE_SCHEMA, rule_file_schema
    from .load.sources import (
        STDIN,
        Document,
        decode_text,
        json_path,
        parse_json_line,
        parse_text,
        printable,
        read_bytes,
        read_document,
        read_stream,
    )
    from .load.validation import validate
    from .load.variants import diff_rules, no_variant, shipped_variants, variant_folder
    from .odds.distribution import Odds
    from .odds.distribution import odds as odds_of
    from .odds.leaves import GRAINS, Outcome, Rolled, RollSpec, essential
    from .odds.leaves import Path as DicePath
    from .text import excerpt
    from .timing import timed_parts, timer_cost

# public name: (module, its name there), for the stages a cached decision does not run
_LAZY: dict[str, tuple[str, str]] = {
    **{name: (".check", name) for name in ("KINDS", "TRIES", "Finding", "Report")},
    "check_rules": (".check", "check"),
    "cached": (".compile.disk_cache", "cached"),
    **{name: (".explain.divergence", name)
       for name in ("divergence", "judgments_changed", "only_one_declares", "without")},
    **{name: (".explain.verdict", name)
       for name in ("find_rule", "rule_verdict", "unestablished")},
    "links": (".language.page_links", "links"),
    "parse": (".language.parser", "parse"),
    "parse_value": (".language.parser", "parse_value"),
    "ConditionSyntaxError": (".language.tokens", "ConditionSyntaxError"),
    "coverage": (".load.coverage", "coverage"),
    "lint_warnings": (".load.lint", "warnings"),
    "LoadedFiles": (".load.loaded_files", "LoadedFiles"),
    **{name: (".load.loader", name)
       for name in ("collect_problems", "lint_load", "load_pack", "load_pack_folder")},
    "declares_rules": (".load.rule_file", "declares_rules"),
    **{name: (".load.pack_files", name) for name in ("PLAY_FILE", "pack_folder", "rule_files")},
    "RULE_FILE_SCHEMA": (".load.schema", "RULE_FILE_SCHEMA"),
    "rule_file_schema": (".load.schema", "rule_file_schema"),
    "load_pack_description": (".load.declarations", "load_pack_description"),
    "validate": (".load.validation", "validate"),
    **{name: (".load.sources", name)
       for name in ("STDIN", "Document", "decode_text", "json_path", "parse_json_line",
                    "parse_text", "printable", "read_bytes", "read_document", "read_stream")},
    **{name: (".load.variants", name)
       for name in ("diff_rules", "no_variant", "shipped_variants", "variant_folder")},
    "Odds": (".odds.distribution", "Odds"),
    "odds_of": (".odds.distribution", "odds"),
    **{name: (".odds.leaves", name)
       for name in ("GRAINS", "Outcome", "Rolled", "RollSpec", "essential")},
    "DicePath": (".odds.leaves", "Path"),
    "excerpt": (".text", "excerpt"),
    "timed_parts": (".timing", "timed_parts"),
    "timer_cost": (".timing", "timer_cost"),
}

__all__ = [
    "DECISION",
    "DETAILS",
    "EID",
    "FIELD",
    "GENERIC_FIELDS",
    "GIVEN",
    "GRAINS",
    "KIND",
    "KINDS",
    "LIMIT_HELP",
    "NAME",
    "NOTHING_INSTEAD",
    "PLAY_FILE",
    "REASONERS",
    "RULE_FILE_SCHEMA",
    "STDIN",
    "TRIES",
    "Action",
    "ActionFields",
    "Chosen",
    "Condition",
    "ConditionSyntaxError",
    "Decision",
    "DecisionError",
    "DicePath",
    "Document",
    "DurableDeriver",
    "Engine",
    "EngineFault",
    "EntitySpec",
    "FieldSpec",
    "Finding",
    "Instead",
    "Judgment",
    "Limits",
    "LoadedFiles",
    "Odds",
    "Open",
    "Outcome",
    "Pack",
    "Product",
    "Reading",
    "Report",
    "RollSpec",
    "Rolled",
    "RuleFileError",
    "Said",
    "Situation",
    "SnapshotError",
    "Step",
    "Trace",
    "Value",
    "WhyNot",
    "WhybotError",
    "World",
    "all_refs",
    "asked_instead",
    "bound_kinds",
    "cached",
    "can_read",
    "check_rules",
    "collect_problems",
    "compile_derivations",
    "coverage",
    "current_limits",
    "declares_rules",
    "decode_text",
    "did_you_mean",
    "diff_rules",
    "divergence",
    "durable_core_wrapped",
    "essential",
    "evaluate",
    "excerpt",
    "find_rule",
    "holds",
    "json_path",
    "judgments_changed",
    "limits_from_environment",
    "links",
    "lint_load",
    "lint_warnings",
    "load_pack",
    "load_pack_description",
    "load_pack_folder",
    "no_variant",
    "odds_of",
    "only_one_declares",
    "open_facts",
    "outcome_reads",
    "pack_folder",
    "parse",
    "parse_json_line",
    "parse_text",
    "parse_value",
    "printable",
    "read_bytes",
    "read_document",
    "read_stream",
    "rule_file_schema",
    "rule_files",
    "rule_verdict",
    "shipped_variants",
    "timed_parts",
    "timer_cost",
    "tree_items",
    "unestablished",
    "use_limits",
    "validate",
    "variant_folder",
    "without",
]


def __getattr__(name: str) -> Any:
    """A stage a cached decision does not run, on first use: deciding on a cached pack never
    imports the loader."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value
