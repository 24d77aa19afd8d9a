"""Shared fixtures: engines are compiled once per pack-and-overlays per test session, and the
test workers (`make test` runs them in parallel, pytest-xdist) share the compiled packs through
the session's own compiled-pack cache."""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest
import yaml

from whybot.engine import Engine, load_pack
from whybot.engine.compile.disk_cache import cached
from whybot.engine.load.variants import variant_folder

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
TOY_PACKS = ROOT / "tests" / "engine" / "packs"
OVERLAYS = ROOT / "tests" / "engine" / "overlays"
_CACHE = pytest.StashKey[str]()


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


def _pack_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.suffix in (".yaml", ".json"))


@cache
def engine_for(root: Path, name: str, overlays: tuple[Path, ...] = ()) -> Engine:
    """The engine of pack `name` under `root` with `overlays`: compiled by the first worker that
    needs it, read from the session's cache by the others."""
    return cached("test-engine", [root / name, *overlays], _pack_files,
                  lambda: Engine(load_pack(root, name, list(overlays))))


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


def pytest_configure(config: pytest.Config) -> None:
    """Tests never read or write the user's compiled-pack cache: the session has its own,
    made before anything is collected; the workers xdist starts inherit it."""
    if hasattr(config, "workerinput"):
        return
    folder = tempfile.mkdtemp(prefix="whybot-test-cache-")
    config.stash[_CACHE] = folder
    os.environ["WHYBOT_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CACHE in config.stash:
        shutil.rmtree(config.stash[_CACHE], ignore_errors=True)
