"""Loading a knowledge pack and its overlays (Fates, variants, house rules) from YAML.

Two phases, as a parser should: first each file is read and checked against the rule-file schema
and the condition grammar; then the overlay is applied (`replaces`, `disable`, duplicate ids) and
every name is checked against the pack's fact schema. Any problem is a RuleFileError naming the
file and line. `collect_problems` gathers all of them for `rules lint`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .conditions import (
    All,
    Any_,
    ConditionSyntaxError,
    Exists,
    Literal,
    Not,
    Ref,
    Sum,
    board_names,
    parse,
    parse_setting,
    refs,
)
from .conditions import Compare as _Compare
from .errors import RuleFileError, did_you_mean
from .model import (
    DECISION,
    DERIVATION,
    EntitySpec,
    FactSchema,
    FieldSpec,
    Pack,
    Procedure,
    Rule,
)
from .schema import PACK_SCHEMA, RULE_FILE_SCHEMA, iter_problems, validate
from .sources import Document, json_path, read_document

PACK_FILE = "pack.yaml"


def rule_files(folder: Path) -> list[Path]:
    """Rule files of a folder, in a stable order (sorted paths), pack.yaml excluded."""
    found = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")]
    return sorted(p for p in found if p.name != PACK_FILE)


def _field(name: str, spec: dict[str, Any]) -> FieldSpec:
    return FieldSpec(name=name, type=spec["type"], says=spec.get("says", ""),
                     enum=spec.get("enum"), minimum=spec.get("minimum"),
                     maximum=spec.get("maximum"), default=spec.get("default"),
                     required=spec.get("required", False),
                     computed=spec.get("computed", False))


RESERVED_FIELDS = {"t", "kind", "k", "sid", "id", "#"}  # the compiler's own fact keys


def _reserved_fields(document: Document) -> None:
    for kind, spec in document.data["facts"].get("entities", {}).items():
        for name in spec["fields"]:
            if name in RESERVED_FIELDS:
                path = ("facts", "entities", kind, "fields", name)
                raise RuleFileError(f"entity field name {name!r} is reserved by the engine",
                                    file=document.file, line=document.line(path),
                                    path=json_path(path), hint="rename it")


def _fact_schema(facts: dict[str, Any]) -> FactSchema:
    entities = {
        kind: EntitySpec(kind=kind, key=spec["from"], says=spec.get("says", ""),
                         fields={n: _field(n, f) for n, f in spec["fields"].items()},
                         label=spec.get("label", ""))
        for kind, spec in facts.get("entities", {}).items()
    }
    return FactSchema(
        board={n: _field(n, f) for n, f in facts.get("board", {}).items()},
        entities=entities,
        judgments=dict(facts.get("judgments", {})),
        variables={n: _field(n, f) for n, f in facts.get("variables", {}).items()},
        computed=list(facts.get("computed", [])),
    )


def _functions(folder: Path, module_name: str, pack: str) -> dict[str, Any]:
    """Import a built-in pack's computations. Only pack.yaml of a shipped pack may name one."""
    path = folder / f"{module_name}.py"
    spec = importlib.util.spec_from_file_location(f"whybot_pack_{pack}_{module_name}", path)
    if spec is None or spec.loader is None or not path.exists():
        raise RuleFileError(f"functions module {module_name!r} not found", file=str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.FUNCTIONS)


def load_pack_description(folder: Path) -> Pack:
    document = read_document(folder / PACK_FILE, RuleFileError)
    validate(document, PACK_SCHEMA, RuleFileError)
    _reserved_fields(document)
    data = document.data
    functions = _functions(folder, data["functions"], data["pack"]) if "functions" in data else {}
    pack = Pack(name=data["pack"], title=data["title"], start=data["start"], root=str(folder),
                facts=_fact_schema(data["facts"]), data=data.get("data", {}),
                settings=data.get("settings", {}), procedures={}, functions=functions,
                files=[document.file])
    missing = [n for n in pack.facts.computed if n not in functions]
    if missing:
        raise RuleFileError(f"computed fact function {missing[0]!r} is not in the pack's module",
                            file=document.file, line=document.line(("facts", "computed")))
    return pack


# --- phase one: one file ------------------------------------------------------------------


def _condition(text: Any, document: Document, path: tuple) -> tuple[Any, str]:
    if isinstance(text, bool):
        return _Compare(Literal(text), "==", Literal(True)), str(text).lower()
    try:
        return parse(text), text
    except ConditionSyntaxError as exc:
        raise RuleFileError(f"condition: {exc}", file=document.file, line=document.line(path),
                            path=json_path(path)) from None


def _check_values(then: dict[str, Any], document: Document, path: tuple) -> None:
    """`set:` values and `where:`/`prefer` conditions inside an outcome must parse too."""
    for name, value in then.get("set", {}).items():
        if isinstance(value, str):
            try:
                parse_setting(value)
            except ConditionSyntaxError as exc:
                raise RuleFileError(f"set {name}: {exc}", file=document.file,
                                    line=document.line((*path, "set", name)),
                                    path=json_path((*path, "set", name))) from None
    for key in ("select", "target", "each"):
        choice = then.get(key)
        if not choice:
            continue
        if "where" in choice:
            _condition(choice["where"], document, (*path, key, "where"))
        for index, item in enumerate(choice.get("prefer", [])):
            if isinstance(item, dict) and "when" in item:
                _condition(item["when"], document, (*path, key, "prefer", index, "when"))


def read_rule_file(path: Path, start_order: int) -> tuple[Document, list[Rule]]:
    document = read_document(path, RuleFileError)
    validate(document, RULE_FILE_SCHEMA, RuleFileError)
    data = document.data
    kind = data.get("kind", DECISION)
    rules: list[Rule] = []
    for index, raw in enumerate(data["rules"]):
        where = ("rules", index)
        when, when_text = _condition(raw["when"], document, (*where, "when"))
        then = raw["then"]
        _check_values(then, document, (*where, "then"))
        if kind == DERIVATION and "judge" not in then:
            raise RuleFileError("a derivation rule must say what it judges (then.judge)",
                                file=document.file, line=document.line((*where, "then")),
                                path=json_path((*where, "then")))
        if kind == DECISION and "judge" in then:
            raise RuleFileError("then.judge belongs in a derivation file (kind: derivation)",
                                file=document.file, line=document.line((*where, "then")),
                                path=json_path((*where, "then")))
        source = data.get("source", "")
        cite = raw.get("cite", "")
        rules.append(Rule(
            id=raw["id"], procedure=data["procedure"], kind=kind,
            priority=float(raw["priority"]), when=when, when_text=when_text, then=then,
            says=raw.get("says", ""), cite=f"{source} {cite}".strip(),
            salience=data.get("salience", 0), file=document.file,
            line=document.line(where) or 1, order=start_order + index,
            replaces=raw.get("replaces"),
        ))
    return document, rules


# --- phase two: the overlay and the names -------------------------------------------------


def _place(rule: Rule, where: dict[str, Rule], pack: Pack, title: str, source: str,
           kind: str) -> None:
    if rule.id in where:
        first = where[rule.id]
        raise RuleFileError(
            f"rule id {rule.id!r} is already defined at {first.file}:{first.line}",
            file=rule.file, line=rule.line,
            hint="use `replaces:` to override it, or `disable:` to drop it")
    where[rule.id] = rule
    page = pack.procedures.setdefault(
        rule.procedure, Procedure(name=rule.procedure, title=title or rule.procedure,
                                  source=source, kind=kind))
    if page.kind != kind:
        raise RuleFileError(f"procedure {rule.procedure!r} is a {page.kind} page, "
                            f"but this file says kind: {kind}", file=rule.file, line=rule.line)
    page.rules.append(rule)
    if rule.file not in page.files:
        page.files.append(rule.file)


def _unplace(rule_id: str, where: dict[str, Rule], pack: Pack) -> Rule:
    rule = where.pop(rule_id)
    pack.procedures[rule.procedure].rules.remove(rule)
    return rule


def load_pack(root: Path, name: str, overlays: list[Path] | None = None) -> Pack:
    """Load `root/name` and the overlay folders on top, checking every name."""
    pack, _documents = _load(root, name, overlays or [])
    problems = list(_name_problems(pack))
    if problems:
        raise problems[0]
    return pack


def _load(root: Path, name: str, overlays: list[Path]) -> tuple[Pack, list[Document]]:
    folder = root / name
    if not (folder / PACK_FILE).exists():
        known = sorted(p.name for p in root.iterdir() if (p / PACK_FILE).exists())
        raise RuleFileError(f"no knowledge pack named {name!r}", hint=did_you_mean(name, known)
                            or f"packs: {', '.join(known)}")
    pack = load_pack_description(folder)
    files = rule_files(folder)
    for overlay in overlays:
        if not overlay.is_dir():
            raise RuleFileError("not a folder of rule files", file=str(overlay))
        files += rule_files(overlay)
    by_id: dict[str, Rule] = {}
    documents: list[Document] = []
    order = 0
    for path in files:
        document, rules = read_rule_file(path, order)
        order += len(rules) + 1
        if document.data["pack"] != pack.name:
            if path.is_relative_to(folder):
                raise RuleFileError(f"file says pack {document.data['pack']!r} but lives in "
                                    f"pack {pack.name!r}", file=document.file, line=1)
            continue  # an overlay folder may hold files for several packs
        documents.append(document)
        pack.files.append(document.file)
        data = document.data
        for rule in rules:
            if rule.replaces:
                if rule.replaces not in by_id:
                    raise RuleFileError(f"replaces unknown rule {rule.replaces!r}",
                                        file=rule.file, line=rule.line,
                                        hint=did_you_mean(rule.replaces, set(by_id)))
                _unplace(rule.replaces, by_id, pack)
            _place(rule, by_id, pack, data.get("title", ""), data.get("source", ""),
                   data.get("kind", DECISION))
        for index, item in enumerate(data.get("disable", [])):
            if item["id"] not in by_id:
                raise RuleFileError(f"disables unknown rule {item['id']!r}", file=document.file,
                                    line=document.line(("disable", index)),
                                    hint=did_you_mean(item["id"], set(by_id)))
            _unplace(item["id"], by_id, pack)
            pack.disabled[item["id"]] = f"{item['reason']} ({document.file})"
    if pack.start not in pack.procedures:
        raise RuleFileError(f"start page {pack.start!r} has no rules", file=pack.files[0])
    return pack, documents


def _choice_fields(pack: Pack) -> set[str]:
    """Board names that `select`/`target` outcomes create (`as: selected` → `selected.suit`)."""
    names: set[str] = set()
    for rule in pack.rules():
        for key in ("select", "target", "each"):
            choice = rule.then.get(key)
            alias = choice and choice.get("as", "current" if key == "each" else None)
            if alias and choice["from"] in pack.facts.entities:
                fields = pack.facts.entities[choice["from"]].fields
                names |= {alias} | {f"{alias}.{f}" for f in fields}
        if "roll" in rule.then:
            names.add(rule.then["roll"]["as"])
    return names


def known_board_names(pack: Pack) -> set[str]:
    return pack.facts.board_names() | _choice_fields(pack)


def _name_problems(pack: Pack) -> Iterator[RuleFileError]:
    """Unknown names, kinds and fields, and judgments nothing establishes."""
    known = known_board_names(pack)
    for rule in pack.rules():
        conditions = [(rule.when, "when")]
        if "compute" in rule.then and rule.then["compute"] not in pack.functions:
            yield RuleFileError(f"then.compute names unknown computation "
                                f"{rule.then['compute']!r}", file=rule.file, line=rule.line,
                                hint=did_you_mean(rule.then["compute"], set(pack.functions))
                                or "computations come from a built-in pack's functions module")
        for key in ("select", "target", "each"):
            choice = rule.then.get(key)
            if choice:
                kind = choice["from"]
                if kind not in pack.facts.entities:
                    yield RuleFileError(f"unknown kind {kind!r} in then.{key}.from",
                                        file=rule.file, line=rule.line,
                                        hint=did_you_mean(kind, set(pack.facts.entities)))
                    continue
                for text in [choice.get("where")] + [
                        p["when"] for p in choice.get("prefer", [])
                        if isinstance(p, dict) and "when" in p]:
                    if text:
                        conditions.append((parse(f"exists {kind} ({text})"), f"then.{key}"))
        for name in rule.then.get("set", {}):
            if name not in known:
                yield RuleFileError(f"then.set names unknown variable {name!r}", file=rule.file,
                                    line=rule.line, hint=did_you_mean(name, known))
        for value in rule.then.get("set", {}).values():
            if isinstance(value, str):
                setting = parse_setting(value)
                if isinstance(setting, Literal | Ref | Sum):
                    setting = _Compare(setting, "==", Literal(True))
                conditions.append((setting, "then.set"))
        if rule.kind == DERIVATION and rule.then["judge"] not in pack.facts.judgments:
            yield RuleFileError(f"judges undeclared judgment {rule.then['judge']!r}",
                                file=rule.file, line=rule.line,
                                hint=did_you_mean(rule.then["judge"], set(pack.facts.judgments))
                                or "declare it under facts.judgments in pack.yaml")
        for condition, where in conditions:
            yield from _condition_problems(pack, rule, condition, where, known)


def _condition_problems(pack: Pack, rule: Rule, condition: Any, where: str,
                        known: set[str]) -> Iterator[RuleFileError]:
    for name in sorted(board_names(condition)):
        if name not in known:
            yield RuleFileError(f"{where}: unknown name {name!r}", file=rule.file,
                                line=rule.line, hint=did_you_mean(name, known))
    scopes = _scopes(condition)
    for ref in refs(condition):
        if ref.scope is None:
            continue
        kind = scopes.get(ref.scope)
        if kind is None:
            continue
        if kind not in pack.facts.entities:
            yield RuleFileError(f"{where}: unknown kind {kind!r}", file=rule.file,
                                line=rule.line, hint=did_you_mean(kind, set(pack.facts.entities)))
            continue
        fields = pack.facts.entities[kind].fields
        if ref.name not in fields:
            yield RuleFileError(f"{where}: {kind} has no field {ref.name!r}", file=rule.file,
                                line=rule.line, hint=did_you_mean(ref.name, set(fields)))


def _scopes(condition: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(condition, Exists):
        found[condition.alias] = condition.kind
        if condition.where is not None:
            found.update(_scopes(condition.where))
    elif isinstance(condition, Not):
        found.update(_scopes(condition.item))
    elif isinstance(condition, All | Any_):
        for item in condition.items:
            found.update(_scopes(item))
    return found


def collect_problems(root: Path, name: str, overlays: list[Path]) -> list[RuleFileError]:
    """Every problem, for `rules lint`: schema problems of all files, then names."""
    problems: list[RuleFileError] = []
    folder = root / name
    for path in rule_files(folder) + [f for o in overlays if o.is_dir() for f in rule_files(o)]:
        try:
            document = read_document(path, RuleFileError)
        except RuleFileError as exc:
            problems.append(exc)
            continue
        problems.extend(iter_problems(document, RULE_FILE_SCHEMA, RuleFileError))
    if problems:
        return problems
    try:
        pack, _ = _load(root, name, overlays)
    except RuleFileError as exc:
        return [exc]
    return list(_name_problems(pack))


__all__ = ["collect_problems", "known_board_names", "load_pack", "rule_files"]
