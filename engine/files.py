"""Which files make a pack: known without reading any (the disk cache hashes them first)."""

from __future__ import annotations

from pathlib import Path

PACK_FILE = "pack.yaml"
SECTIONS_FILE = "sections.yaml"  # the seed's sections, for `rules coverage` (not rules)
PLAY_FILE = "play.yaml"  # how a game of the pack is kept at the table (facts/playbook.py)


def rule_files(folder: Path) -> list[Path]:
    """Rule files of a folder, in a stable order (sorted paths); a pack's own pack.yaml,
    sections.yaml and play.yaml are not rule files."""
    found = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and not p.is_dir()]
    own = {folder / PACK_FILE, folder / SECTIONS_FILE, folder / PLAY_FILE}
    return sorted(p for p in found if p not in own)
