"""engine/ and cli/ name no game: what a game calls things lives in its pack (knowledge/), so
a new pack or a house rule never needs a Python change. The words below are the shipped games'
own (their titles and the Arcs terms that once leaked into docstrings and help texts); a word
inside another (`Taxonomy`) does not count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME_WORDS = ("Arcs", "SUPERCAT", "Yellow Scarves", "Sparta", "Athens", "Thebes", "Three Kingdoms",
              "Fate", "Fates", "Tax", "Guild", "Golem", "Golems", "Imperial", "Summit",
              "ambition", "ambitions", "Blighted Reach")
SOURCES = (".py", ".html", ".js", ".css")
PATTERN = re.compile(r"\b(" + "|".join(re.escape(w) for w in GAME_WORDS) + r")\b")


@pytest.mark.parametrize("folder", ["engine", "cli"])
def test_no_game_word_in_the_engine_or_the_commands(folder: str) -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {match.group(0)}"
             for path in sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in SOURCES)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for match in PATTERN.finditer(line)]
    assert found == []


def test_the_pattern_finds_a_game_word_and_skips_one_inside_another() -> None:
    assert PATTERN.findall("a Fate's page; Taxonomy; the Imperial Council") == ["Fate", "Imperial"]
