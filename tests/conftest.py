"""Shared fixtures: engines are compiled once per pack-and-overlays per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from whybot.engine import Engine, load_pack
from whybot.engine.load.variants import variant_folder

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
TOY_PACKS = ROOT / "tests" / "engine" / "packs"
OVERLAYS = ROOT / "tests" / "engine" / "overlays"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the fuzz suite (tests/fuzz) with ten times as many cases; "
                          "WHYBOT_FUZZ_LONG=1 does the same")
    parser.addoption("--exhaustive", action="store_true", default=False,
                     help="run the sampled equivalence tests (engine reuse and replay) on every "
                          "example instead of every fourth; WHYBOT_EXHAUSTIVE=1 does the same")


@pytest.fixture(scope="session")
def exhaustive(request: pytest.FixtureRequest) -> bool:
    """Whether a sampled test takes every case (--exhaustive or WHYBOT_EXHAUSTIVE=1)."""
    import os

    return bool(request.config.getoption("--exhaustive") or os.environ.get("WHYBOT_EXHAUSTIVE"))


def example_overlays(path: Path) -> tuple[Path, ...]:
    """What a shipped example is decided with, over its pack (the folder under facts/examples
    it sits in): the variant it names (`variant:`), then the house rules its `expect: rules:`
    lists."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data = data if isinstance(data, dict) else {}
    pack = path.relative_to(ROOT / "facts" / "examples").parts[0]
    variant = (variant_folder(KNOWLEDGE / pack, data["variant"]),) if data.get("variant") else ()
    return (*variant, *(ROOT / rules for rules in (data.get("expect") or {}).get("rules", [])))


@cache
def engine_for(root: Path, name: str, overlays: tuple[Path, ...] = ()) -> Engine:
    return Engine(load_pack(root, name, list(overlays)))


def refused(result, *words: str) -> str:
    """The one line of a CLI refusal (exit 2, no traceback), checked to hold `words`."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    line = result.stderr.strip()
    assert "\n" not in line, line
    for word in words:
        assert word in line, line
    return line


@pytest.fixture(scope="session")
def toy() -> Engine:
    return engine_for(TOY_PACKS, "toy")


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Tests never write to the user's compiled-pack cache."""
    import os

    os.environ["WHYBOT_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
