"""Which files make a pack: known without reading any (the disk cache hashes them first)."""

from __future__ import annotations

from pathlib import Path

from ..errors import RuleFileError, did_you_mean
from .variants import VARIANTS

PACK_FILE = "pack.yaml"
SECTIONS_FILE = "sections.yaml"  # the seed's sections, for `rules coverage` (not rules)
PLAY_FILE = "play.yaml"  # how a game of the pack is kept at the table (facts/playbook.py)


def rule_files(folder: Path) -> list[Path]:
    """Rule files of a folder, in a stable order (sorted paths); a pack's own pack.yaml,
    sections.yaml and play.yaml are not rule files, nor are its shipped variants (`variants/`:
    each is an overlay, read only when asked for)."""
    found = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and not p.is_dir()]
    own = {folder / PACK_FILE, folder / SECTIONS_FILE, folder / PLAY_FILE}
    variants = folder / VARIANTS if (folder / PACK_FILE).is_file() else None
    return sorted(p for p in found if p not in own
                  and not (variants and p.is_relative_to(variants)))


def pack_folder(root: Path, name: str) -> Path:
    """The folder of pack `name` under `root`, or an error listing the packs there."""
    folder = root / name
    if name.replace("_", "").isalnum() and (folder / PACK_FILE).is_file():
        return folder
    known = sorted(p.name for p in root.iterdir() if (p / PACK_FILE).is_file())
    raise RuleFileError(f"no knowledge pack named {name!r}",
                        hint=did_you_mean(name, known) or f"packs: {', '.join(known)}")
