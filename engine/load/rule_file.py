"""Phase one of loading a pack: one rule file's rules, each condition and outcome parsed into
trees (the file's `defaults` merged in), with where the file asks to put each rule
(`replaces`, `before`, `after`); phase two lays them over the pack (`overlay.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..language.expressions import Any_
from ..language.outcome_parser import OutcomeError, parse_outcome
from ..language.pack import DECISION, DERIVATION, Rule
from ..language.parser import parse
from ..language.tokens import ConditionSyntaxError
from ..language.tree_queries import scopes
from .declarations import condition, fail
from .sources import Document

RULE_FILE_KEYS = ("procedure", "rules", "disable")  # what only a rule file declares


PAGE_KINDS = (DECISION, DERIVATION)


@dataclass
class Placed:
    """A rule as read, with where its file asks to put it."""

    rule: Rule
    anchor: tuple[str, str] | None  # ("replaces" | "before" | "after", rule id)


def _merge_defaults(then: dict[str, Any], defaults: dict[str, Any],
                    kinds: frozenset[str]) -> dict[str, Any]:
    """A rule's select/target/each over its file's defaults: its own keys win, but a default
    `where` is added to the rule's own (`default and own`), unless the rule names another
    kind (`from:`) or says `replace: true`."""
    merged = dict(then)
    for key in ("select", "target", "each"):
        own = merged.get(key)
        if not isinstance(own, dict):
            continue
        base = defaults.get(key, {})
        combined = {**base, **own}
        combined.pop("replace", None)
        if "where" in base and "where" in own and not own.get("replace") and \
                own.get("from", base.get("from")) == base.get("from"):
            combined["where"] = f"{base['where']} and {_grouped(own['where'], kinds)}"
        merged[key] = combined
    return merged


def _grouped(text: Any, kinds: frozenset[str]) -> str:
    """A `where` to follow `and`: in parentheses if it is an `or` of its own."""
    try:
        alone = isinstance(parse(str(text), kinds), Any_)
    except ConditionSyntaxError:
        return str(text)  # reported where the combined condition is parsed
    return f"({text})" if alone else str(text)


def declares_rules(document: Document) -> bool:
    """Whether a file of a house-rule folder is a rule file, by what it declares: the page it
    adds to, its rules, the rules it disables, or a page kind. A snapshot, a game file or notes
    kept beside the house rules declare none of these, and are not read as rules (a pack's own
    folder holds rule files only: there, anything else is an error)."""
    data = document.data
    if not isinstance(data, dict):
        return False
    return any(key in data for key in RULE_FILE_KEYS) or data.get("kind") in PAGE_KINDS


def parse_rules(document: Document, start: float, kinds: frozenset[str]) -> list[Placed]:
    """Phase one for one file: every rule's condition and outcome parsed into trees."""
    data = document.data
    kind = data.get("kind", DECISION)
    defaults = data.get("defaults", {})
    placed: list[Placed] = []
    for index, raw in enumerate(data.get("rules", [])):  # none: it only disables
        where = ("rules", index)
        when_text = raw.get("when", True)
        when = condition(when_text, document, (*where, "when"), kinds)
        then_raw = _merge_defaults(raw["then"], defaults, kinds)
        aliases = frozenset(scopes(when))
        try:
            then = parse_outcome(then_raw, kinds, aliases)
        except OutcomeError as exc:
            raise fail(document, (*where, "then", *exc.path), str(exc)) from None
        except KeyError as exc:
            raise fail(document, (*where, "then"), f"missing {exc.args[0]!r}") from None
        if kind == DERIVATION and then.judge is None and then.create is None:
            raise fail(document, (*where, "then"), "a derivation rule must say what it "
                                                   "judges (then.judge) or creates "
                                                   "(then.create)")
        if kind == DECISION and (then.judge is not None or then.create is not None):
            raise fail(document, (*where, "then"), "then.judge and then.create belong in a "
                                                   "derivation file (kind: derivation)")
        anchors = [(k, raw[k]) for k in ("replaces", "before", "after") if k in raw]
        if len(anchors) > 1:
            raise fail(document, where, "a rule takes one of replaces, before and after")
        text = when_text if isinstance(when_text, str) else str(when_text).lower()
        rule = Rule(id=raw["id"], page=data["procedure"], kind=kind, when=when,
                    when_text=text, then=then, says=raw.get("says", ""),
                    cite=f"{data.get('source', '')} {raw.get('cite', '')}".strip(),
                    layer=data.get("salience", 0), file=document.file,
                    line=document.line(where) or 1, position=start + index,
                    priority=raw.get("priority"),
                    replaces=raw.get("replaces"))
        placed.append(Placed(rule, anchors[0] if anchors else None))
    return placed
