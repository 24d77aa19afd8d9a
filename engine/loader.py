"""Loading a knowledge pack and its overlays (Fates, variants, house rules) from YAML.

Two phases, as a parser should: first each file is read, checked against the rule-file schema
and parsed (conditions and outcomes into trees); then the overlay is applied (`replaces`,
`before`/`after`, `disable`, duplicate ids) and every name, type and page is checked against
the pack (`checks.py`). Any problem is a RuleFileError naming the file and line;
`collect_problems` gathers all of them for `rules lint`.

A pack is YAML only: no pack, installed or given by path, and no house-rule folder ever runs
code.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .action_fields import ActionFields
from .checks import check_pack
from .declarations import add_facts, condition, fail, load_pack_description
from .errors import RuleFileError, WhybotError, did_you_mean
from .expressions import Any_
from .files import PACK_FILE, pack_folder, rule_files
from .limits import current as limits
from .loaded_files import LoadedFiles
from .model import DECISION, DERIVATION, Pack, Page, Rule
from .named import with_named
from .outcome_parser import OutcomeError, parse_outcome
from .parser import parse
from .schema import RULE_FILE_SCHEMA, rule_file_schema
from .sources import Document
from .templates import with_template
from .tokens import ConditionSyntaxError
from .trees import scopes

RULE_FILE_KEYS = ("procedure", "rules", "disable")  # what only a rule file declares
PAGE_KINDS = (DECISION, DERIVATION)


# --- phase one: one file ----------------------------------------------------------------------


@dataclass
class _Placed:
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


def parse_rules(document: Document, start: float, kinds: frozenset[str],
                fields: ActionFields) -> list[_Placed]:
    """Phase one for one file: every rule's condition and outcome parsed into trees."""
    data = document.data
    kind = data.get("kind", DECISION)
    defaults = data.get("defaults", {})
    placed: list[_Placed] = []
    for index, raw in enumerate(data.get("rules", [])):  # none: it only disables
        where = ("rules", index)
        when_text = raw.get("when", True)
        when = condition(when_text, document, (*where, "when"), kinds)
        then_raw = _merge_defaults(raw["then"], defaults, kinds)
        aliases = frozenset(scopes(when))
        try:
            then = parse_outcome(then_raw, kinds, aliases, fields)
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
        placed.append(_Placed(rule, anchors[0] if anchors else None))
    return placed


# --- phase two: the overlay -----------------------------------------------------------------


class _Overlay:
    """Rules by id as files are laid one over another."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.by_id: dict[str, Rule] = {}

    def place(self, item: _Placed, document: Document) -> None:
        rule = item.rule
        if item.anchor is not None:
            how, target = item.anchor
            anchor = self.by_id.get(target)
            if anchor is None:
                raise RuleFileError(f"{how} unknown rule {target!r}", file=rule.file,
                                    line=rule.line, hint=did_you_mean(target, set(self.by_id)))
            if anchor.page != rule.page:
                raise RuleFileError(f"{how} {target!r}, a rule of page {anchor.page!r}, but "
                                    f"this file adds to page {rule.page!r}", file=rule.file,
                                    line=rule.line)
            rule.layer = anchor.layer
            offset = {"replaces": 0.0, "before": -0.5, "after": 0.5}[how]
            rule.position = anchor.position + offset + rule.position * 1e-9
            if how == "replaces":
                self.remove(target)
        if rule.id in self.by_id:
            first = self.by_id[rule.id]
            raise RuleFileError(f"rule id {rule.id!r} is already defined at {first.where}",
                                file=rule.file, line=rule.line,
                                hint="use `replaces:` to override it, or `disable:` to drop it")
        self.by_id[rule.id] = rule
        data = document.data
        page = self.pack.pages.setdefault(rule.page, Page(
            name=rule.page, title=data.get("title", rule.page), source=data.get("source", ""),
            kind=data.get("kind", DECISION)))
        if page.kind != rule.kind:
            raise RuleFileError(f"procedure {rule.page!r} is a {page.kind} page, but this file "
                                f"says kind: {rule.kind}", file=rule.file, line=rule.line)
        page.rules.append(rule)
        if rule.file not in page.files:
            page.files.append(rule.file)

    def remove(self, rule_id: str) -> Rule:
        rule = self.by_id.pop(rule_id)
        self.pack.pages[rule.page].rules.remove(rule)
        return rule

    def disable(self, document: Document) -> None:
        for index, item in enumerate(document.data.get("disable", [])):
            if item["id"] not in self.by_id:
                raise fail(document, ("disable", index), f"disables unknown rule "
                                                         f"{item['id']!r}") from None
            self.remove(item["id"])
            self.pack.disabled[item["id"]] = f"{item['reason']} ({document.file})"

    def page_settings(self, document: Document) -> bool:
        """`repeat_while` and `after_action`: how a page spends several actions (False: the
        page has no rule yet — its file's rules wait for an anchor)."""
        data = document.data
        page = self.pack.pages.get(data["procedure"])
        if page is None:
            return False
        if "repeat_while" in data:
            page.repeat_while = condition(data["repeat_while"], document, ("repeat_while",),
                                           self.pack.kinds)
            page.repeat_text = f"while {data['repeat_while']}"
        if "after_action" in data:
            try:
                page.after_action = parse_outcome(data["after_action"], self.pack.kinds)
            except OutcomeError as exc:
                raise fail(document, ("after_action", *exc.path), str(exc)) from None
        return True


def _place_waiting(overlay_state: _Overlay, waiting: list[tuple[_Placed, Document]],
                   unsettled: list[Document]) -> None:
    """Rules anchored (`before`/`after`/`replaces`) to a rule of a file read later — a Fate's
    file placing a line among a base page's, whose folder sorts after it — are placed once every
    file is read, in file order (an anchor may name another waiting rule); an anchor still
    unknown then is reported as such. A file whose page had no rule yet gets its page settings
    then."""
    while waiting:
        ready = [w for w in waiting if w[0].anchor and w[0].anchor[1] in overlay_state.by_id]
        for item, document in ready or waiting[:1]:  # none ready: the first one fails
            overlay_state.place(item, document)
        placed = {id(w[0]) for w in (ready or waiting[:1])}
        waiting = [w for w in waiting if id(w[0]) not in placed]
    for document in unsettled:
        overlay_state.page_settings(document)


def _declares_kind(document: Document) -> bool:
    """Files declaring an entity kind are read first, so a file adding fields to that kind
    (a Fate's own slot or option fields) may sort before it."""
    entities = document.data.get("facts", {}).get("entities", {})
    return any("from" in spec or spec.get("created") for spec in entities.values())


def _load(folder: Path, overlays: list[Path],
          loaded: LoadedFiles) -> tuple[Pack, list[Document]]:
    pack = load_pack_description(folder)
    files = [(path, 0) for path in rule_files(folder)]
    for number, overlay in enumerate(overlays, 1):
        if not overlay.is_dir():
            raise RuleFileError("not a folder of rule files", file=str(overlay))
        files += [(path, number) for path in rule_files(overlay)]
    documents: list[Document] = []
    folders: list[int] = []
    for path, number in files:
        document = loaded.document(path)
        if number and not declares_rules(document):
            pack.skipped.append(document.file)
            continue
        loaded.validate(path, rule_file_schema(pack.action_fields))
        own = path.is_relative_to(folder)
        said = document.data.get("pack", pack.name if own else None)  # a pack's own: its folder's
        if said is None:
            raise RuleFileError("a house-rule file names the pack it lays over (pack: NAME)",
                                file=document.file, line=1, hint=f"pack: {pack.name}")
        if said != pack.name:
            if own:
                raise RuleFileError(f"file says pack {said!r} but lives in pack "
                                    f"{pack.name!r}", file=document.file, line=1)
            continue  # an overlay folder may hold files for several packs
        documents.append(with_named(with_template(document, pack.templates), pack.preferences))
        folders.append(number)
    for document in sorted(documents, key=lambda d: not _declares_kind(d)):
        add_facts(pack.facts, document.data.get("facts", {}), document, in_pack=False)
        if pack.actions is not None:
            pack.actions.update(document.data.get("actions", []))
    overlay_state = _Overlay(pack)
    position = 0.0
    count = 0
    waiting: list[tuple[_Placed, Document]] = []
    unsettled: list[Document] = []
    for index, document in enumerate(documents):
        if index and folders[index] != folders[index - 1]:
            # a folder's anchors are settled before the next folder (a house rule) lays over it
            _place_waiting(overlay_state, waiting, unsettled)
            waiting, unsettled = [], []
        # parsed once per LoadedFiles (a pack's files, under each variant), copied for this load:
        # laying the overlay moves the rules it anchors
        kinds, fields = pack.kinds, pack.action_fields
        placed = [_Placed(replace(p.rule), p.anchor) for p in loaded.build(
            ("rules", document.file, position, kinds, fields),
            lambda: parse_rules(document, position, kinds, fields))]  # noqa: B023 (called here)
        position += len(placed) + 1
        count += len(placed)
        limits().check("rules", count, "rules in the pack and its house rules",
                       file=document.file)
        pack.files.append(document.file)
        for item in placed:
            if item.anchor is not None and item.anchor[1] not in overlay_state.by_id:
                waiting.append((item, document))
            else:
                overlay_state.place(item, document)
        overlay_state.disable(document)
        if not overlay_state.page_settings(document):
            unsettled.append(document)
    _place_waiting(overlay_state, waiting, unsettled)
    if pack.start not in pack.pages:
        raise RuleFileError(f"start page {pack.start!r} has no rules", file=pack.files[0])
    return pack, documents


def load_pack(root: Path, name: str, overlays: list[Path] | None = None) -> Pack:
    """Load pack `name` under `root` and the overlay folders on top, checking every name."""
    return load_pack_folder(pack_folder(root, name), overlays)


def load_pack_folder(folder: Path, overlays: list[Path] | None = None) -> Pack:
    """A pack given by its folder, with the overlay folders on top."""
    if not (folder / PACK_FILE).is_file():
        raise RuleFileError(f"no {PACK_FILE} in this folder", file=str(folder))
    pack, _ = _load(folder, overlays or [], LoadedFiles())
    for problem in check_pack(pack):
        raise problem
    return pack


def collect_problems(folder: Path, overlays: list[Path]) -> list[WhybotError]:
    """Every problem, for `rules lint`: schema problems of all files, then names."""
    return lint_load(folder, overlays, LoadedFiles())[0]


def lint_load(folder: Path, overlays: list[Path],
              loaded: LoadedFiles) -> tuple[list[WhybotError], Pack | None]:
    """Every problem (schema problems of all files, names, then what compiling would refuse),
    and the pack when there is none. Loads sharing a LoadedFiles (a pack and each of its
    variants) read each file once."""
    problems: list[WhybotError] = []
    try:
        schema = rule_file_schema(load_pack_description(folder).action_fields)
    except RuleFileError:
        schema = RULE_FILE_SCHEMA  # the load below reports the pack.yaml's own problem
    own = rule_files(folder)
    for path in own + [f for o in overlays if o.is_dir() for f in rule_files(o)]:
        try:
            document = loaded.document(path)
        except RuleFileError as exc:
            problems.append(exc)
            continue
        if path in own or declares_rules(document):
            problems.extend(loaded.schema_problems(path, schema))
    if problems:
        return problems, None
    try:
        pack, _ = _load(folder, overlays, loaded)
    except RuleFileError as exc:
        return [exc], None
    from .compiled import unfitting

    problems = list(check_pack(pack)) or list(unfitting(pack))
    return problems, None if problems else pack


__all__ = ["collect_problems", "declares_rules", "lint_load", "load_pack", "load_pack_folder",
           "pack_folder", "rule_files"]
