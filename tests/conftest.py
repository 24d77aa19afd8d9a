"""Shared fixtures: engines are compiled once per pack-and-overlays per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from whybot.engine import Engine, load_pack

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
TOY_PACKS = ROOT / "tests" / "engine" / "packs"
OVERLAYS = ROOT / "tests" / "engine" / "overlays"


@cache
def engine_for(root: Path, name: str, overlays: tuple[Path, ...] = ()) -> Engine:
    return Engine(load_pack(root, name, list(overlays), trusted=root == KNOWLEDGE))


@pytest.fixture(scope="session")
def toy() -> Engine:
    return engine_for(TOY_PACKS, "toy")
