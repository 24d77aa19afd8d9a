"""The compiled pack, kept on disk between runs, so a cold `whybot decide` skips the YAML.

The key is a hash of the engine's own source (so an edited checkout never reads a stale pack),
the Python version and the durable_rules library file, and the path and bytes of every file the
pack is read from (the pack folder and every house-rule folder): change any of them and the pack
is read and compiled again. The cache lives in `$WHYBOT_CACHE_DIR`, or
`$XDG_CACHE_HOME/whybot`, or `~/.cache/whybot`; `WHYBOT_CACHE=0` turns it off. It holds only
what whybot itself built from those files (pickled, owner-only permissions); a cache that
cannot be read or written is simply not used.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import io
import os
import pickle
import pickletools
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

T = TypeVar("T")


@functools.cache
def _code() -> bytes:
    """The engine's source files and the durable_rules library they drive, by content (read
    once a process: a batch keys an engine for each pack and variant it meets)."""
    import durable_rules_engine

    digest = hashlib.sha256()
    engine = Path(__file__).resolve().parent.parent  # every stage's folder
    for path in sorted(engine.rglob("*.py")):
        digest.update(str(path.relative_to(engine)).encode() + b"\0" + path.read_bytes())
    library = Path(durable_rules_engine.__file__)
    digest.update(f"{library.name}:{library.stat().st_size}".encode())
    return digest.digest()


def folder() -> Path | None:
    if os.environ.get("WHYBOT_CACHE", "1") == "0":
        return None
    if os.environ.get("WHYBOT_CACHE_DIR"):
        return Path(os.environ["WHYBOT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whybot"


def key(kind: str, folders: list[Path], files: Callable[[Path], list[Path]]) -> str:
    """A hash of everything the result depends on."""
    digest = hashlib.sha256()
    for part in (kind, sys.version):
        digest.update(part.encode() + b"\0")
    digest.update(_code())
    for root in folders:
        for path in [root / "pack.yaml", *files(root)]:
            if path.is_file():
                # as the loader names it (a link not followed): the pack keeps these names
                digest.update(str(path.absolute()).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry(kind: str, folders: list[Path], files: Callable[[Path], list[Path]]) -> str:
    """The name a result built from these files is kept under."""
    return f"{kind}-{key(kind, folders, files)[:40]}"


def cached(kind: str, folders: list[Path], files: Callable[[Path], list[Path]],
           build: Callable[[], T], kept: Callable[[T, str], None] | None = None) -> T:
    """`build()`, or its result from an earlier run on the very same files; `kept` is told
    the result and the name it is kept under (what it builds later may be kept beside it)."""
    if folder() is None:
        return build()  # the key hashes every source: not worked out for nothing
    name = entry(kind, folders, files)
    found = load(name)
    result = cast(T, found) if found is not None else build()
    if found is None:
        store(name, result)
    if kept is not None:
        kept(result, name)
    return result


def load(name: str, known: Callable[[str], object | None] | None = None) -> object | None:
    """What an earlier run kept under `name` (an `entry`, or a name beginning with one), or
    None. `known` hands back the objects `store` was told to name rather than keep (None: a
    name it does not know, and the entry is not used)."""
    where = folder()
    if where is None:
        return None
    try:
        with (where / f"{name}.pickle").open("rb") as handle, _collector_paused():
            return _Reader(handle, known).load()
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError,
            TypeError, ValueError):
        return None


class _Reader(pickle.Unpickler):
    """An unpickler that takes named objects from `known`."""

    def __init__(self, handle: BinaryIO, known: Callable[[str], object | None] | None) -> None:
        super().__init__(handle)
        self.known = known

    def persistent_load(self, pid: Any) -> object:
        found = self.known(pid) if self.known is not None and isinstance(pid, str) else None
        if found is None:
            raise pickle.UnpicklingError(f"no object named {pid!r} here")
        return found


class _Writer(pickle.Pickler):
    """A pickler that names, rather than keeps, the objects `named` has a name for."""

    def __init__(self, handle: BinaryIO, named: Callable[[object], str | None]) -> None:
        super().__init__(handle, protocol=pickle.HIGHEST_PROTOCOL)
        self.named = named

    def persistent_id(self, obj: Any) -> str | None:
        return self.named(obj)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Unpickling an engine makes some 165,000 containers at once: the cyclic collector
    would walk the growing heap over and over (three quarters of a load's time) and find
    nothing to free."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def store(name: str, value: object, named: Callable[[object], str | None] | None = None,
          ) -> None:
    """Keep `value` under `name` for later runs (nothing, if the cache is off or unwritable).
    With `named`, an object it gives a name is kept as that name only: one the reader holds
    already (`load`'s `known` gives it back), such as the rules of the engine a ruleset of
    its derivations is kept beside."""
    where = folder()
    if where is None:
        return
    path = where / f"{name}.pickle"
    try:
        if named is None:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            buffer = io.BytesIO()
            _Writer(buffer, named).dump(value)
            data = buffer.getvalue()
        # Without the memo entries no later part refers to (most of an engine's 160,000),
        # an engine reads back in about four fifths of the time; optimizing costs its
        # writer a fraction of compiling it.
        data = pickletools.optimize(data)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
