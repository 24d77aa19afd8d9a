"""What every command shares: where packs live, one cached Engine per pack, reading snapshots.

Engines are compiled once per process and per (pack, overlay folders): a test run or a batch that
decides thousands of snapshots pays for compiling the rule files once. A pack is named (one
installed with whybot, which may ship Python helpers) or given as a folder path (read as YAML
only: a folder never runs code).
"""

from __future__ import annotations

import gc
from functools import lru_cache
from pathlib import Path

import yaml

import whybot.knowledge
from whybot.engine import (
    Document,
    Engine,
    Pack,
    RuleFileError,
    Situation,
    SnapshotError,
    WhybotError,
    cached,
    did_you_mean,
    excerpt,
    pack_folder,
    printable,
    read_document,
    rule_files,
    variant_folder,
)
from whybot.facts.snapshot import situation_from, snapshot_variant, with_includes

KNOWLEDGE = Path(whybot.knowledge.__file__).parent


def rel(path: str | None) -> str | None:
    """A path as the user would type it: relative to the working folder when inside it."""
    if not path:
        return path
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
        return path


def message(error: WhybotError) -> str:
    """The error's one line, its file shown relative to the working folder.

    Whatever raised it, the line stays short and printable: the message (which may quote the
    user's text, e.g. a value jsonschema refused) is cut to `message_chars`, and control
    characters and undecodable bytes of file names are escaped."""
    error.file = printable(rel(error.file)) if error.file else error.file
    error.message = excerpt(error.message)
    error.path = excerpt(error.path) if error.path else error.path
    error.hint = excerpt(error.hint) if error.hint else error.hint
    return error.render()


def overlay_key(rules: list[Path] | None) -> tuple[str, ...]:
    """House-rule folders as a hashable key (resolved, so two spellings share one engine).

    Every rule file in them must be the user's own: one that is a link to a file outside the
    named folders is refused, naming the link only (errors about its content would quote a
    file nobody named, such as a system file)."""
    folders = tuple(Path(folder).resolve() for folder in rules or [])
    for folder in folders:
        for path in rule_files(folder):
            try:
                target = path.resolve()
            except (OSError, RuntimeError):  # a link loop
                raise RuleFileError("this rule file is a link that leads nowhere (a loop)",
                                    file=str(path)) from None
            if not any(target.is_relative_to(f) for f in folders):
                raise RuleFileError("this rule file is a link to a file outside the house-rule "
                                    "folders", file=str(path),
                                    hint="copy it into the folder, or name its folder with "
                                         "another --rules")
    return tuple(map(str, folders))


def overlay_folder(name: str, pack: str | None) -> Path:
    """The overlay `batch --diff` lays over the base rules: a folder of house-rule files, or
    the name of a variant the --pack ships."""
    path = Path(name)
    if path.is_dir():
        return path
    if pack and not path.exists():
        return variant_overlay(pack, name)
    problem = "is a file, not a folder" if path.exists() else "is not a folder"
    raise WhybotError(f"--diff: {printable(name)!r} {problem} of house rules",
                      hint="give the folder of rule files to compare with the base rules, or "
                           "with --pack the name of a variant it ships")


@lru_cache(maxsize=1)
def pack_names() -> list[str]:
    return sorted(p.name for p in KNOWLEDGE.iterdir() if (p / "pack.yaml").is_file())


def is_folder(name: str) -> bool:
    """`--pack` names an installed pack unless it looks like a path to a folder."""
    return "/" in name or name.startswith(".") or (name not in pack_names()
                                                   and Path(name).is_dir())


@lru_cache(maxsize=16)
def pack_for(name: str, overlays: tuple[str, ...] = ()) -> Pack:
    """The pack `name` (or pack folder) with the overlay folders applied, checked once."""
    from whybot.engine import load_pack, load_pack_folder

    folders = [Path(o) for o in overlays]
    if is_folder(name):
        return load_pack_folder(Path(name), folders)
    return load_pack(KNOWLEDGE, name, folders)


@lru_cache(maxsize=16)
def engine_for(name: str, overlays: tuple[str, ...] = (), reasoner: str = "durable") -> Engine:
    """The compiled Engine for `name` plus overlays: built once per process, and kept on disk
    between runs until any of its files changes (`engine/compile/disk_cache.py`).
    `reasoner="plain"`: the plain-Python reference instead of durable_rules (to cross-check, and
    for the benchmark)."""
    folders = [Path(name) if is_folder(name) else KNOWLEDGE / name, *map(Path, overlays)]
    engine = cached(f"engine-{reasoner}", folders, rule_files,
                    lambda: Engine(pack_for(name, overlays), reasoner))
    # The engine's objects (rule trees, compiled closures, ruleset definitions: hundreds of
    # thousands) live as long as the process; out of the collector's reach, its full passes
    # no longer walk them over and over (they cost a batch more than a tenth of its time).
    gc.freeze()
    return engine


def variant_overlay(pack: str, variant: str) -> Path:
    """The overlay folder `--variant NAME` stands for — a variant the pack ships
    (`knowledge/<pack>/variants/NAME/`) or a folder of the user's own (a path) — the one place a
    variant name becomes rule folders (`decide`, `why`, `odds`, `batch`, `rules diff`, and a
    snapshot's `variant:` all come here)."""
    return variant_folder(variant_home(pack), variant)


def variant_home(pack: str) -> Path:
    """The folder whose `variants/` holds the variants of `pack` (a name, or a pack folder)."""
    return Path(pack) if is_folder(pack) else pack_folder(KNOWLEDGE, pack)


def variant_refused(error: RuleFileError, document: Document) -> SnapshotError:
    """A variant the snapshot's `variant:` names that cannot be laid, as the snapshot's error
    (at its `variant:` line)."""
    return SnapshotError(error.message, file=document.file, line=document.line(("variant",)),
                         path="$.variant", hint=error.hint)


def with_variant(pack: str, variant: str | None, overlays: tuple[str, ...]) -> tuple[str, ...]:
    """The overlay key with the variant's folder laid first (house rules then lie over it).
    A run that already lays a variant of the pack over every snapshot (`batch --variant`)
    keeps it; a snapshot asking for another one is refused rather than given both."""
    if not variant:
        return overlays
    (folder,) = overlay_key([variant_overlay(pack, variant)])
    if folder in overlays:
        return overlays
    shipped = Path(folder).parent
    laid = [o for o in overlays if Path(o).parent == shipped]
    if laid:
        raise RuleFileError(f"this run lays variant {Path(laid[0]).name!r} over every "
                            f"snapshot, not {variant!r}",
                            hint="decide it on its own, or leave out --variant")
    return (folder, *overlays)


def pack_title(name: str) -> str:
    data = yaml.safe_load((KNOWLEDGE / name / "pack.yaml").read_text(encoding="utf-8"))
    return str(data.get("title", "")) if isinstance(data, dict) else ""


def require_pack(given: str | None) -> str:
    """Commands about rules need a pack: there is no default."""
    if given:
        return given
    raise WhybotError("which pack? give --pack NAME", hint=f"packs: {', '.join(pack_names())}")


def pack_of(document: Document, given: str | None) -> str:
    """`--pack` if given, else the snapshot's own `pack:` field."""
    if given:
        return given
    data = document.data
    name = data.get("pack") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        raise SnapshotError("the snapshot does not say its pack", file=document.file, line=1,
                            hint=f"add `pack: NAME` ({', '.join(pack_names())}), or give --pack")
    if name not in pack_names():
        raise SnapshotError(f"no knowledge pack named {name!r}", file=document.file,
                            line=document.line(("pack",)), path="$.pack",
                            hint=did_you_mean(name, pack_names())
                            or f"packs: {', '.join(pack_names())}")
    return name


def read_situation(document: Document, pack: str | None, overlays: tuple[str, ...],
                   include_from: tuple[Path, ...] = (), reasoner: str = "durable",
                   variant: str | None = None) -> tuple[Engine, Situation]:
    """Validate a parsed snapshot against its pack; return the pack's engine and the situation.

    `include_from`: folders (--include-from) the snapshot's `include:` may read besides its own
    folder tree. `variant` (--variant) wins over the snapshot's own `variant:`; the variant's
    folder is laid over the pack under the house rules."""
    name = pack_of(document, pack)
    chosen = variant or snapshot_variant(document)
    try:
        keyed = with_variant(name, chosen, overlays)
    except RuleFileError as error:
        if variant:
            raise
        raise variant_refused(error, document) from None
    engine = engine_for(name, keyed, reasoner)
    situation = situation_from(with_includes(document, include_from), engine.pack)
    situation.variant = chosen or ""
    return engine, situation


def load_situation(path: Path, pack: str | None, overlays: tuple[str, ...],
                   include_from: tuple[Path, ...] = (), variant: str | None = None,
                   ) -> tuple[Engine, Situation]:
    return read_situation(read_document(path, SnapshotError), pack, overlays, include_from,
                          variant=variant)
