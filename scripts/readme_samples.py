"""Write every sample output in README.md and docs/*.md from the real commands, so none goes
stale: `python scripts/readme_samples.py` rewrites the marked blocks, `--check` only compares
(exit 1 and a diff when a block differs; tests/test_docs.py runs it, one page at a time). Name
pages (`docs/player.md`) to render only those.

A block is marked in the Markdown, and the fenced block right after the marker is replaced:

    <!-- sample
    $ whybot decide facts/examples/arcs/demo.yaml --seed 7
    $ whybot decide docs/samples/bad.yaml            #| exit=2
    $ whybot why facts/examples/arcs/demo.yaml       #| head=12
    -->

Each `$` line is shown as typed (without its `#|` options) and followed by what it printed,
stdout and stderr as a terminal shows them. Options: `exit=N` (the exit status the sample shows;
another one is an error), `head=N` and `tail=N` (the first and the last N lines, `…`
between). `$ make demo` runs the
Makefile's demo recipe. `whybot` commands run in this process (the packs compile once); any
other line (a pipe, a glob, `grep`) runs in bash with the project's `whybot` first on PATH.
`<!-- sample-file PATH -->` (with `#| head=N` too) copies a file of the repository, and
`<!-- sample-output COMMAND -->` shows what a command prints without the command (a diagram);
`<!-- sample-raw COMMAND -->` ... `<!-- /sample -->` puts it in the page as Markdown (a table).

The commands of one page share one scratch folder, in page order (a game made by `whybot new`
is played by the next block). `whybot` runs from the repository's root, a relative path outside
its folders (`games/g1.yaml`) naming a file of the scratch folder; other lines run in the
scratch folder, the repository's folders linked in it. Output is the same on every machine:
80 columns, no colour, the limits' defaults, no machine paths.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKED = ("facts", "knowledge", "docs", "tests", "scripts", "benchmarks")
MARKER = re.compile(r"<!-- sample(-file|-output)?\s(.*?)-->\n(```[^\n]*\n)(.*?)```", re.DOTALL)
RAW = re.compile(r"<!-- sample-raw\s(.*?)-->\n(.*?)<!-- /sample -->", re.DOTALL)
OPTIONS = re.compile(r"\s+#\|\s*(.*)$")


def _terminal_environment() -> None:
    """What every sample is printed under, set before whybot is imported (rich reads it)."""
    for name in list(os.environ):
        if name.startswith("WHYBOT_") and name != "WHYBOT_CACHE":
            del os.environ[name]
    for name in ("FORCE_COLOR", "LINES"):
        os.environ.pop(name, None)
    os.environ.update(COLUMNS="80", TERM="dumb", NO_COLOR="1")


@dataclass(frozen=True)
class Command:
    shown: str  # as the reader types it
    exit: int = 0
    head: int | None = None
    tail: int | None = None

    def excerpt(self, lines: list[str]) -> list[str]:
        """The first `head` and the last `tail` lines, `…` for what lies between."""
        head = len(lines) if self.head is None and self.tail is None else self.head or 0
        tail = self.tail or 0
        if head + tail >= len(lines):
            return lines
        return [*lines[:head], "…", *(lines[-tail:] if tail else [])]

    @classmethod
    def parse(cls, line: str) -> Command:
        options: dict[str, int] = {}
        match = OPTIONS.search(line)
        if match:
            line = line[: match.start()]
            for pair in match.group(1).split():
                key, _, value = pair.partition("=")
                if key not in ("exit", "head", "tail") or not value.isdigit():
                    raise SystemExit(f"unknown sample option {pair!r} in: {line}")
                options[key] = int(value)
        return cls(line.strip(), **options)


def _demo_recipe() -> str:
    """The command `make demo` runs, read from the Makefile (so the README shows its output)."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    recipe = lines[lines.index(next(line for line in lines if line.startswith("demo:"))) + 1]
    return recipe.strip().lstrip("@").replace("$(BIN)/", "")


def _in_scratch(word: str, scratch: Path) -> str:
    """A relative path outside the repository's own folders names a file of the scratch
    folder (`games/g1.yaml`, `results.jsonl`): so a sample never writes into the repository."""
    is_path = "/" in word or word.endswith((".yaml", ".yml", ".json", ".jsonl"))
    if not is_path or word.startswith(("-", "/")) or word.split("/", 1)[0] in LINKED:
        return word
    return str(scratch / word)


def _run_whybot(args: list[str], scratch: Path) -> tuple[int, str]:
    """In this process, from the repository's root (as a user runs it: the packs' files then
    read as `knowledge/...`), with the scratch folder's files named by their full path."""
    from typer.testing import CliRunner

    from whybot.cli.app import app

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, [_in_scratch(word, scratch) for word in args],
                                    catch_exceptions=False)
    finally:
        os.chdir(here)
    return result.exit_code, result.output


def _run_shell(line: str) -> tuple[int, str]:
    """In bash, in the scratch folder (the repository's folders linked in it)."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True,
                          env={**os.environ, "PATH": path}, check=False)
    return done.returncode, done.stdout + done.stderr


def _output(command: Command, scratch: Path) -> list[str]:
    line = _demo_recipe() if command.shown == "make demo" else command.shown
    words = shlex.split(line)
    if words[0] == "whybot" and not set("|><;&*?") & set(line):
        status, text = _run_whybot(words[1:], scratch)
    else:
        status, text = _run_shell(line)
    if status != command.exit:
        raise SystemExit(f"`{command.shown}` exited {status}, the sample says {command.exit}:"
                         f"\n{text}")
    text = text.replace(f"{scratch}/", "").replace(f"{ROOT}/", "")
    return command.excerpt([row.rstrip() for row in text.rstrip("\n").splitlines()])


def _block(kind: str, spec: str, scratch: Path) -> list[str]:
    if kind == "-output":  # the output alone (a diagram, say), without the command
        return _output(Command.parse(spec.strip()), scratch)
    if kind == "-file":
        command = Command.parse(spec.strip())
        return command.excerpt(
            (ROOT / command.shown).read_text(encoding="utf-8").rstrip("\n").splitlines())
    shown: list[str] = []
    for raw in spec.strip().splitlines():
        if not raw.startswith("$ "):
            raise SystemExit(f"a sample line must start with '$ ': {raw!r}")
        command = Command.parse(raw[2:])
        shown += [f"$ {command.shown}", *_output(command, scratch)]
    return shown


def render(page: Path) -> str:
    """The page with every marked block as the commands print it now."""
    text = page.read_text(encoding="utf-8")
    if not MARKER.search(text) and not RAW.search(text):
        return text
    with tempfile.TemporaryDirectory(prefix="whybot-samples-") as folder:
        scratch = Path(folder).resolve()
        for name in LINKED:
            (scratch / name).symlink_to(ROOT / name)
        here = Path.cwd()
        os.chdir(scratch)
        try:
            def fill(match: re.Match[str]) -> str:
                body = _block(match.group(1) or "", match.group(2), scratch)
                head = match.group(0)[: match.start(4) - match.start(0)]
                return head + "".join(f"{line}\n" for line in body) + "```"

            def fill_raw(match: re.Match[str]) -> str:
                body = _output(Command.parse(match.group(1).strip()), scratch)
                return (match.group(0)[: match.start(2) - match.start(0)]
                        + "".join(f"{line}\n" for line in body) + "<!-- /sample -->")

            return RAW.sub(fill_raw, MARKER.sub(fill, text))
        finally:
            os.chdir(here)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    named = [ROOT / arg for arg in argv if not arg.startswith("--")]
    stale = 0
    for page in named or PAGES:
        old = page.read_text(encoding="utf-8")
        new = render(page)
        if new == old:
            continue
        stale += 1
        name = str(page.relative_to(ROOT))
        if check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True),
                f"{name} (as written)", f"{name} (as the commands print it now)"))
        else:
            page.write_text(new, encoding="utf-8")
            print(f"rewrote {name}")
    if check and stale:
        print(f"\n{stale} page(s) out of date: run python scripts/readme_samples.py")
    return 1 if check and stale else 0


if __name__ == "__main__":
    _terminal_environment()
    sys.exit(main(sys.argv[1:]))
