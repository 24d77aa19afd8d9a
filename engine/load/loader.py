"""Loading a knowledge pack and its overlays (optional modules, variants, house rules) from YAML.

Two phases, as a parser should: first each file is read, checked against the rule-file schema
and parsed (conditions and outcomes into trees: `rule_file.py`); then the overlay is applied
(`replaces`, `before`/`after`, `disable`, duplicate ids: `overlay.py`) and every name, type and
page is checked against the pack (`checks.py`). Any problem is a RuleFileError naming the file
and line; `collect_problems` gathers all of them for `rules lint`.

A pack is YAML only: no pack, installed or given by path, and no house-rule folder ever runs
code.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..errors import RuleFileError, WhybotError
from ..language.pack import Pack
from ..limits import current as limits
from .checks import check_pack
from .declarations import add_facts, load_pack_description
from .loaded_files import LoadedFiles
from .named_preferences import with_named
from .overlay import Overlay, place_waiting
from .pack_files import PACK_FILE, pack_folder, rule_files
from .page_templates import with_template
from .rule_file import Placed, declares_rules, parse_rules
from .schema import RULE_FILE_SCHEMA, rule_file_schema
from .sources import Document


def _declares_kind(document: Document) -> bool:
    """Files declaring an entity kind are read first, so a file adding fields to that kind
    (an overlay's own slot or option fields) may sort before it."""
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
    overlay_state = Overlay(pack)
    position = 0.0
    count = 0
    waiting: list[tuple[Placed, Document]] = []
    unsettled: list[Document] = []
    for index, document in enumerate(documents):
        if index and folders[index] != folders[index - 1]:
            # a folder's anchors are settled before the next folder (a house rule) lays over it
            place_waiting(overlay_state, waiting, unsettled)
            waiting, unsettled = [], []
        # parsed once per LoadedFiles (a pack's files, under each variant), copied for this load:
        # laying the overlay moves the rules it anchors
        kinds, fields = pack.kinds, pack.action_fields
        placed = [Placed(replace(p.rule), p.anchor) for p in loaded.build(
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
    place_waiting(overlay_state, waiting, unsettled)
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
    from ..compile.rulesets import unfitting

    problems = list(check_pack(pack)) or list(unfitting(pack))
    return problems, None if problems else pack


__all__ = ["collect_problems", "lint_load", "load_pack", "load_pack_folder",
           "pack_folder", "rule_files"]
