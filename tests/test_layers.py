"""The engine's one front door, and the direction of the layers, read from the imports (AST).

Nothing outside engine/ (cli, facts, benchmarks, scripts) imports an engine stage: only
`whybot.engine` (issue 22). The layers import downward only, engine ← facts ← cli: the engine
imports neither facts nor cli, and facts does not import cli. Imports inside functions and
those only a type checker reads count too. And no module of the layers is over 300 lines.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import whybot.engine as engine

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("cli", "facts", "benchmarks", "scripts")
LAYERS = ("engine", "facts", "cli")  # each imports only those before it


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, absolute module, names imported from it) for every import in a file."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = ["whybot", *parts[:-1]] if parts[0] in LAYERS else []
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([module] if module else [])])
            found.append((node.lineno, module, [alias.name for alias in node.names]))
    return found


def _sources(*tops: str) -> list[Path]:
    return [path for top in tops for path in sorted((ROOT / top).rglob("*.py"))]


def _stages() -> set[str]:
    """The engine's own modules and folders: what only the engine may import."""
    folder = ROOT / "engine"
    return {path.stem for path in folder.glob("*.py") if path.stem != "__init__"} | {
        path.name for path in folder.iterdir() if (path / "__init__.py").is_file()}


def test_nothing_outside_the_engine_imports_an_engine_stage() -> None:
    stages = _stages()
    behind = [f"{path.relative_to(ROOT)}:{line}: {module} {names}"
              for path in _sources(*OUTSIDE) for line, module, names in _imports(path)
              if module.startswith("whybot.engine.")
              or (module == "whybot.engine" and set(names) & stages)]
    assert behind == []


def test_the_front_door_exports_every_name_it_lists_and_no_stage_name() -> None:
    assert not set(engine.__all__) & _stages()
    assert all(getattr(engine, name) is not None for name in engine.__all__)


def test_importing_the_front_door_loads_no_rule_file_reader() -> None:
    """A decision on a cached pack never imports the loader (the stages it does not run load
    on first use)."""
    code = ("import sys, whybot.engine; "
            "print(sorted(m for m in sys.modules if m.startswith('whybot.engine.load')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


def _upward(layer: str) -> set[tuple[str, str]]:
    """(file, module) for each import of a layer into a layer above it."""
    above = LAYERS[LAYERS.index(layer) + 1:]
    return {(str(path.relative_to(ROOT)), module)
            for path in _sources(layer) for _, module, _ in _imports(path)
            if module.split(".")[:2] in (["whybot", name] for name in above)}


def test_the_engine_imports_neither_facts_nor_cli() -> None:
    assert _upward("engine") == set()


def test_facts_imports_nothing_of_cli() -> None:
    assert _upward("facts") == set()


def test_every_package_of_the_layers_is_installed() -> None:
    """A folder missing from pyproject.toml's `packages` would be left out of a wheel."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'"(whybot\.[a-z_.]+)"', text.split("packages = [", 1)[1]
                            .split("]", 1)[0]))
    folders = {"whybot." + ".".join(path.parent.relative_to(ROOT).parts)
               for layer in LAYERS for path in (ROOT / layer).rglob("__init__.py")}
    assert folders - listed == set()


def test_every_module_is_small_enough_to_read_whole() -> None:
    """A module over 300 lines is split by concept (issue 22): the tree shows the design."""
    long = {str(path.relative_to(ROOT)): lines for layer in LAYERS
            for path in (ROOT / layer).rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 300}
    assert long == {}
