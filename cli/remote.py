"""What a Dask worker runs for `whybot batch --cluster`: shipped snapshots, shipped engines.

Nothing here reads the worker's own files, so a worker decides exactly what the client would.
The client sends each snapshot as bytes it read (a JSONL line is the `Item` it already is, a
file becomes a `FileText`), or, once it has read the files a snapshot includes, as the merged
document (`Resolved`); and the compiled engine of every pack a snapshot may name, built on the
client from the rule files it was given (`--pack`, `--rules`), and with each variant the pack
ships laid over them for a snapshot's `variant:`, as one pickled blob that each worker process
unpickles once. A snapshot found to include other files is answered None: only
the client can read them, so it resolves them and sends the snapshot again.

Errors come back as the `WhybotError` itself, for the client to render (`rows.py`). Deciding
holds a process-wide lock, since durable_rules and the limits are per process and a worker may
run several tasks at once on its threads.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import io
import os
import pickle
import platform
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import whybot.cli
import whybot.engine
import whybot.facts
from whybot.engine import (
    Document,
    Engine,
    Limits,
    RuleFileError,
    Situation,
    SnapshotError,
    current_limits,
    decode_text,
    no_variant,
    parse_text,
    use_limits,
)
from whybot.facts.snapshot import situation_from, snapshot_variant

from .common import pack_names, pack_of, variant_refused
from .diffrows import attempt_diff
from .inputs import Item
from .rows import Outcome, attempt


@dataclass(frozen=True)
class FileText:
    """A snapshot file, read on the client: parsed where it is decided."""

    origin: str
    file: str
    raw: bytes

    def document(self) -> Document:
        return parse_text(decode_text(self.raw, self.file, SnapshotError), self.file,
                          SnapshotError)


@dataclass(frozen=True)
class Resolved:
    """A snapshot whose `include:` the client has merged in (it alone can read those files);
    `variant` is the snapshot's own, which an included file's cannot replace."""

    origin: str
    merged: Document
    variant: str = ""

    def document(self) -> Document:
        return self.merged


Unit = Item | FileText | Resolved


@dataclass
class Table:
    """The engines of one set of rules (a --diff has two), as `common.read_situation` picks
    them: per (pack, variant the snapshot names or ""), the compiled engine or why it failed
    to load; the variants this run may not lay (`refused`); and per pack, its folder's name and
    the variants it ships, to word the error for any other name (or why it has no folder)."""

    engines: dict[tuple[str, str], Engine | Exception] = field(default_factory=dict)
    refused: dict[tuple[str, str], RuleFileError] = field(default_factory=dict)
    shipped: dict[str, tuple[str, list[str]] | RuleFileError] = field(default_factory=dict)

    def engine(self, document: Document, name: str, variant: str) -> Engine:
        """The engine of pack `name` with `variant` laid, or the error `read_situation`
        raises."""
        key = (name, variant)
        if key in self.refused or (variant and key not in self.engines):
            raise variant_refused(self.refused.get(key) or self._unknown(name, variant),
                                  document)
        engine = self.engines[key]
        if isinstance(engine, Exception):  # the pack (or a house rule) failed to load
            raise engine.with_traceback(None)
        return engine

    def _unknown(self, name: str, variant: str) -> RuleFileError:
        home = self.shipped.get(name, (name, []))
        if isinstance(home, RuleFileError):
            return home
        folder, shipped = home
        return no_variant(folder, variant, shipped)


@dataclass(frozen=True)
class Settings:
    """What every snapshot of a batch is decided with, besides the engines (`digest` names
    their blob)."""

    digest: str
    pack: str | None
    seed: int
    limits: Limits
    odds: bool = False


class _Includes(BaseException):
    """The snapshot includes files. A BaseException, so that a row's own error handling
    (`except Exception` in `attempt`) passes it on."""


_LOCK = threading.Lock()
_ENGINES: OrderedDict[str, tuple[Table, ...]] = OrderedDict()
_OWN = "whybot.engine."  # the modules whose classes a compiled engine is made of
_KEPT = 2  # blobs of recent batches kept unpickled (a worker may serve several batches)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt(3) parameters


def keep(blob: bytes) -> bytes:
    """A task that holds the engines' blob, so that Dask makes it again if its worker dies."""
    return blob


def decide_units(blob: bytes, settings: Settings, units: list[Unit]) -> list[Outcome | None]:
    """One answer per unit, in order: a row, the WhybotError that is its row, or None when
    the snapshot includes files the client must resolve. The blob holds one table of engines,
    or two for a --diff (the base rules, then with the overlay)."""
    with _LOCK:
        engines = _engines(settings.digest, blob)
        previous = current_limits()
        use_limits(settings.limits)
        try:
            return [_answer(unit, engines, settings) for unit in units]
        finally:
            use_limits(previous)


def _engines(digest: str, blob: bytes) -> tuple[Table, ...]:
    if digest not in _ENGINES:
        _roomy_malloc()
        _ENGINES[digest] = _EnginesOnly(io.BytesIO(blob)).load()
        while len(_ENGINES) > _KEPT:
            _ENGINES.popitem(last=False)
    _ENGINES.move_to_end(digest)
    return _ENGINES[digest]


def engines_blob(engines: tuple[Table, ...]) -> bytes:
    """The engines, pickled with pickle's own reductions only: in a process that imported
    Dask, tblib pickles exceptions (a pack's loading error) through a function of its own,
    which a worker refuses (`_EnginesOnly`)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {}  # not copyreg's, where tblib registered itself
    pickler.dump(engines)
    return buffer.getvalue()


class _EnginesOnly(pickle.Unpickler):
    """Unpickles compiled engines, and nothing else: the rule files they were compiled from
    arrive as data (whybot's own model classes holding their values), never as code, since any
    other global a blob names is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module.startswith(_OWN) or (module, name) == (__name__, Table.__name__):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"an engines blob may name only whybot's own classes, "
                                     f"not {module}.{name}")


@functools.cache
def _roomy_malloc() -> None:
    """Undo, in this worker process, what Dask's nanny does to glibc's allocator.

    The nanny starts workers with MALLOC_TRIM_THRESHOLD_ set (to hand freed memory back to the
    system), which also pins glibc's mmap threshold at 128 KiB: durable_rules' allocations for
    each decision then cost an mmap and a munmap each, and deciding takes twice as long. These
    are the highest thresholds glibc's own dynamic ones reach on 64-bit machines."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20)
        libc.mallopt(_M_TRIM_THRESHOLD, 64 << 20)
    except (OSError, AttributeError):  # not glibc: nothing to undo
        pass


def _answer(unit: Unit, engines: tuple[Table, ...], settings: Settings) -> Outcome | None:
    document = functools.cache(unit.document)  # parsed once, for both sides of a --diff
    situate = [functools.partial(_situate, unit, document, table, settings.pack)
               for table in engines]
    try:
        if len(situate) == 2:
            return attempt_diff(unit.origin, settings.seed, *situate, odds=settings.odds)
        return attempt(unit.origin, settings.seed, situate[0], settings.odds)
    except _Includes:
        return None


def _situate(unit: Unit, read: Callable[[], Document], engines: Table, pack: str | None,
             ) -> tuple[Engine, Situation]:
    """As `common.read_situation`, in its order (pack, variant, engine, includes, facts), with
    the shipped engines and without reading a file."""
    document = read()
    name = pack_of(document, pack)
    variant = unit.variant if isinstance(unit, Resolved) else snapshot_variant(document)
    engine = engines.engine(document, name, variant)
    if isinstance(document.data, dict) and "include" in document.data:
        raise _Includes
    situation = situation_from(document, engine.pack)
    situation.variant = variant
    return engine, situation


def dask_setup(worker: Any) -> None:
    """Run by Dask as each worker process of `--cluster local` starts (a preload), restarted
    ones too: Ctrl-C reaches the whole process group, and is for whybot to handle (a worker
    would only die printing a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def fingerprint() -> dict[str, Any]:
    """What must be the same on the client and on every worker for rows to be the same bytes:
    whybot's code, the packs it knows, durable_rules and the Python version."""
    source = hashlib.sha256()
    for package in (whybot.engine, whybot.facts, whybot.cli):
        folder = Path(package.__file__).parent
        for path in sorted(folder.rglob("*.py")):  # its subpackages too
            name = f"{package.__name__}/{path.relative_to(folder)}"
            source.update(name.encode() + b"\0" + path.read_bytes())
    return {"whybot": metadata.version("whybot"), "source": source.hexdigest()[:12],
            "packs": pack_names(), "durable-rules": metadata.version("durable-rules"),
            "python": ".".join(platform.python_version_tuple()[:2])}


__all__ = ["FileText", "Resolved", "Settings", "Table", "Unit", "dask_setup", "decide_units",
           "engines_blob", "fingerprint", "keep"]
