"""The pack registry: which packs are installed, and one cached Engine per pack and overlays.

Engines are compiled once per process and per (pack, overlay folders), and kept on disk between
runs: a test run or a batch that decides thousands of snapshots pays for compiling the rule files
once. A pack is named (one installed with whybot, which may ship Python helpers) or given as a
folder path (read as YAML only: a folder never runs code). Overlays are folders of house rules,
or the folder of a variant the pack ships, laid over the pack's own rules.
"""

from __future__ import annotations

import gc
from functools import lru_cache
from pathlib import Path

import yaml

import whybot.knowledge
from whybot.engine import (
    Engine,
    Pack,
    RuleFileError,
    WhybotError,
    cached,
    did_you_mean,
    pack_folder,
    rule_files,
    variant_folder,
)

KNOWLEDGE = Path(whybot.knowledge.__file__).parent


@lru_cache(maxsize=1)
def pack_names() -> list[str]:
    return sorted(p.name for p in KNOWLEDGE.iterdir() if (p / "pack.yaml").is_file())


def is_folder(name: str) -> bool:
    """`--pack` names an installed pack unless it looks like a path to a folder."""
    return "/" in name or name.startswith(".") or (name not in pack_names()
                                                   and Path(name).is_dir())


def pack_title(name: str) -> str:
    data = yaml.safe_load((KNOWLEDGE / name / "pack.yaml").read_text(encoding="utf-8"))
    return str(data.get("title", "")) if isinstance(data, dict) else ""


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
                    lambda: Engine(pack_for(name, overlays), reasoner), Engine.keep_beside)
    # The engine's objects (rule trees, compiled closures, ruleset definitions: hundreds of
    # thousands) live as long as the process; out of the collector's reach, its full passes
    # no longer walk them over and over (they cost a batch more than a tenth of its time).
    gc.freeze()
    return engine


def installed_engine(name: str, overlays: tuple[str, ...] = ()) -> Engine:
    """The engine of the installed pack `name` (a game names its pack, never a folder); a
    name that is no pack is refused with the nearest one."""
    if name not in pack_names():
        raise WhybotError(f"no knowledge pack named {name!r}",
                          hint=did_you_mean(name, pack_names()) or
                          f"packs: {', '.join(pack_names())}")
    return engine_for(name, overlays)


def variant_overlay(pack: str, variant: str) -> Path:
    """The overlay folder `--variant NAME` stands for — a variant the pack ships
    (`knowledge/<pack>/variants/NAME/`) or a folder of the user's own (a path) — the one place a
    variant name becomes rule folders (`decide`, `why`, `odds`, `batch`, `rules diff`, and a
    snapshot's `variant:` all come here)."""
    return variant_folder(variant_home(pack), variant)


def variant_home(pack: str) -> Path:
    """The folder whose `variants/` holds the variants of `pack` (a name, or a pack folder)."""
    return Path(pack) if is_folder(pack) else pack_folder(KNOWLEDGE, pack)


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
