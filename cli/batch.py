"""`whybot batch`: decide many snapshots, one JSON line each, then counts and rule coverage.

Inputs are files, folders (searched recursively for .yaml, .yml, .json and .jsonl) and JSONL files
(one snapshot per line, named `file:line`). Inputs are streamed, never all held in memory. A bad
snapshot becomes an error row and the batch goes on. With `jobs > 1` a fork Pool decides in
parallel; each worker compiles its own engines once (the initializer), and rows keep input order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import stat
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whybot.engine.errors import EngineFault, SnapshotError, WhybotError
from whybot.engine.sources import Document, parse_text, read_document

from .common import engine_for, message, pack_for, read_situation

SUFFIXES = {".yaml", ".yml", ".json", ".jsonl"}


@dataclass(frozen=True)
class Item:
    """One snapshot to decide: a whole file, or one line of a JSONL file."""

    path: str
    line: int | None = None
    text: str | None = None

    @property
    def origin(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def document(self) -> Document:
        if self.text is None:
            return read_document(Path(self.path), SnapshotError)
        try:
            document = parse_text(self.text, self.path, SnapshotError)
        except SnapshotError as exc:  # the line inside the JSONL file, not inside the line
            raise SnapshotError(exc.message, file=self.path, line=self.line, path=exc.path,
                                hint=exc.hint) from None
        document.lines = {key: self.line or 1 for key in document.lines}
        return document


def file_id(stream: Any) -> tuple[int, int] | None:
    """(device, inode) of an open regular file, so a batch never reads its own output."""
    try:
        info = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def _files(path: Path, skip: set[tuple[int, int]] = frozenset()) -> list[Path]:
    found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file()) \
        if path.is_dir() else [path]
    if not skip:
        return found
    return [p for p in found if (p.stat().st_dev, p.stat().st_ino) not in skip]


def iter_items(paths: Iterable[Path], skip: set[tuple[int, int]] = frozenset()
               ) -> Iterator[Item]:
    """Every snapshot under `paths`, in order; files in `skip` (the output) are left out."""
    for path in paths:
        for file in _files(path, skip):
            if file.suffix != ".jsonl":
                yield Item(str(file))
                continue
            with file.open(encoding="utf-8") as lines:
                for number, text in enumerate(lines, 1):
                    if text.strip():
                        yield Item(str(file), number, text)


def count_items(paths: Iterable[Path], skip: set[tuple[int, int]] = frozenset()) -> int:
    total = 0
    for path in paths:
        for file in _files(path, skip):
            if file.suffix == ".jsonl":
                with file.open(encoding="utf-8") as lines:
                    total += sum(1 for text in lines if text.strip())
            else:
                total += 1
    return total


# --- deciding one item (in this process or in a worker) -----------------------------------

_CONFIG: dict[str, Any] = {"pack": None, "overlays": (), "seed": None}


def configure(pack: str | None, overlays: tuple[str, ...], seed: int | None,
              fresh: bool = False) -> None:
    """Set what every item is decided with; in a worker, compile the engine once up front."""
    if fresh:  # a forked worker must not share engines compiled by its parent
        engine_for.cache_clear()
        pack_for.cache_clear()
    _CONFIG.update(pack=pack, overlays=overlays, seed=seed)
    if pack:
        with contextlib.suppress(WhybotError):  # if it fails, every row will carry the error
            engine_for(pack, overlays)


def _init_worker(pack: str | None, overlays: tuple[str, ...], seed: int | None) -> None:
    configure(pack, overlays, seed, fresh=True)


def decide_item(item: Item) -> dict[str, Any]:
    """One result row; never raises (a bad snapshot or an engine fault becomes an error row)."""
    row: dict[str, Any] = {"snapshot": item.origin, "ok": False}
    try:
        engine, situation = read_situation(item.document(), _CONFIG["pack"],
                                           _CONFIG["overlays"])
        trace = engine.decide(situation, seed=_CONFIG["seed"], explain=False)
    except WhybotError as exc:
        row["error"] = message(exc)
        return row
    except EngineFault as exc:
        row.update(error=f"engine fault: {exc}", fault=True)
        return row
    except Exception as exc:  # a bug: record it against this row and carry on
        row.update(error=f"internal error: {type(exc).__name__}: {exc}", fault=True)
        return row
    decision = trace.decision
    choices = {alias: c.get("entity") for alias, c in decision.get("choices", {}).items()}
    columns = engine.pack.presentation.get("columns", {})
    row.update(
        ok=True, name=situation.name, pack=engine.pack.name,
        result=decision.get("result", "decided"),
        **{column: choices.get(alias) for column, alias in columns.items()},
        choices=choices,
        actions=[{k: a[k] for k in ("action", "goal", "suit", "target", "rule", "page")
                  if a.get(k) is not None} for a in decision.get("actions", [])],
        fired=trace.fired(),
        derived_by=sorted({s["rule"] for j in trace.judgments.values() for s in j.by
                           if j.origin == "derived"} |
                          {s["rule"] for j in trace.entity_judgments for s in j["by"]}),
        dice=[r["total"] for r in trace.dice],
        assumed=[a["name"] for a in trace.assumed],
        disagreements=trace.disagreements,
        error=None,
    )
    return row


def run(items: Iterable[Item], jobs: int) -> Iterator[dict[str, Any]]:
    """Rows in input order, from this process or from a fork Pool of `jobs` workers."""
    if jobs <= 1:
        yield from map(decide_item, items)
        return
    if "fork" not in multiprocessing.get_all_start_methods():
        raise WhybotError("--jobs needs the 'fork' start method (Linux or macOS)")
    context = multiprocessing.get_context("fork")
    config = (_CONFIG["pack"], _CONFIG["overlays"], _CONFIG["seed"])
    with context.Pool(jobs, initializer=_init_worker, initargs=config) as pool:
        yield from pool.imap(decide_item, items, chunksize=16)


# --- the summary ------------------------------------------------------------------------------


@dataclass
class Summary:
    snapshots: int = 0
    decided: int = 0
    errors: int = 0
    faults: int = 0
    disagreements: int = 0
    results: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    fired: dict[str, Counter] = field(default_factory=dict)

    def add(self, row: dict[str, Any]) -> None:
        self.snapshots += 1
        if not row["ok"]:
            self.errors += 1
            self.faults += bool(row.get("fault"))
            return
        self.decided += 1
        self.disagreements += bool(row.get("disagreements"))
        self.results[row["result"]] += 1
        for action in row["actions"]:
            self.actions[action["action"]] += 1
        counts = self.fired.setdefault(row["pack"], Counter())
        counts.update(row["fired"])
        counts.update(row["derived_by"])

    def coverage(self, overlays: tuple[str, ...]) -> dict[str, list[tuple[str, str, int]]]:
        """Per pack: (rule id, page, times fired) for every rule, in page order."""
        table: dict[str, list[tuple[str, str, int]]] = {}
        for name, counts in sorted(self.fired.items()):
            pack = pack_for(name, overlays)
            table[name] = [(r.id, r.page, counts.get(r.id, 0)) for r in pack.rules()]
        return table

    def as_dict(self, overlays: tuple[str, ...]) -> dict[str, Any]:
        coverage = self.coverage(overlays)
        return {
            "snapshots": self.snapshots, "decided": self.decided, "errors": self.errors,
            "faults": self.faults, "disagreements": self.disagreements,
            "results": dict(self.results.most_common()),
            "actions": dict(self.actions.most_common()),
            "coverage": {p: {rule: n for rule, _, n in rows} for p, rows in coverage.items()},
            "never_fired": {p: [rule for rule, _, n in rows if n == 0]
                            for p, rows in coverage.items()},
        }


def render_summary(summary: Summary, overlays: tuple[str, ...]):
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    counts = Table(title="batch", title_justify="left")
    counts.add_column("snapshots", justify="right")
    counts.add_column("decided", justify="right", style="green")
    counts.add_column("errors", justify="right", style="red" if summary.errors else "")
    counts.add_column("engine faults", justify="right")
    counts.add_row(str(summary.snapshots), str(summary.decided), str(summary.errors),
                   str(summary.faults))
    results = Table(title="results", title_justify="left")
    results.add_column("result")
    results.add_column("count", justify="right")
    for name, count in summary.results.most_common():
        results.add_row(name, str(count))
    for name, count in summary.actions.most_common():
        results.add_row(f"action: {name}", str(count))
    parts: list[Any] = [counts, results]
    for pack, rows in summary.coverage(overlays).items():
        fired = Table(title=f"rule coverage ({pack}): rules that fired, how often (a "
                            "derivation counts when a decision read its judgment)",
                      title_justify="left")
        fired.add_column("page", style="cyan")
        fired.add_column("rule", overflow="fold")
        fired.add_column("fired", justify="right")
        for rule, page, count in rows:
            if count:
                fired.add_row(page, rule, str(count))
        pages: dict[str, list[str]] = {}
        totals: Counter = Counter()
        for rule, page, count in rows:
            totals[page] += 1
            if not count:
                pages.setdefault(page, []).append(rule)
        never = Table(title=f"never fired ({sum(map(len, pages.values()))} of {len(rows)} "
                            "rules)", title_justify="left", title_style="yellow")
        never.add_column("page", style="cyan")
        never.add_column("fired", justify="right")
        never.add_column("rules that never fired", style="yellow", overflow="fold")
        for page, ids in pages.items():
            never.add_row(page, f"{totals[page] - len(ids)} of {totals[page]}",
                          Text(", ".join(ids)))
        parts.extend([fired, never])
    if summary.disagreements:
        parts.append(Text(f"{summary.disagreements} decision(s) where durable_rules and the "
                          "explainer disagree: a bug, see the rows' disagreements",
                          style="bold red"))
    return Group(*parts)


def progress_wanted() -> bool:
    return sys.stderr.isatty()
