"""`include:` — observations kept in other files (a board described once), merged in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from whybot.engine import Document, SnapshotError, excerpt, read_document
from whybot.engine import current_limits as current

# Boards whybot ships (the examples include them): its own data, so always allowed to include.
SHIPPED_MAPS = Path(__file__).resolve().parent / "maps"


def _include_target(name: Any, document: Document, index: int,
                    allowed: tuple[Path, ...]) -> Path:
    """Where `include[index]` points, if it may be read: inside the snapshot's own folder tree
    (symlinks resolved), inside a folder the user allowed with --include-from, or a board
    whybot ships. An absolute path only into the last two."""
    where = {**document.at(("include", index)), "path": f"$.include[{index}]"}
    if not isinstance(name, str) or not name:
        raise SnapshotError("include: takes file names", **where)
    absolute = Path(name).is_absolute()
    try:
        home = Path(document.file).parent.resolve()
        target = (home / name).resolve()
        roots = [*([] if absolute else [home]), SHIPPED_MAPS,
                 *(Path(folder).resolve() for folder in allowed)]
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name the OS refuses
        raise SnapshotError(f"cannot resolve the included file {excerpt(name, 80)!r}",
                            **where) from None
    if not any(target.is_relative_to(root) for root in roots):
        problem = "is an absolute path" if absolute else "is outside the snapshot's folder"
        raise SnapshotError(f"included file {excerpt(name, 80)!r} {problem}", **where,
                            hint="to read from another folder, name it with --include-from DIR")
    if not target.is_file():
        raise SnapshotError(f"included file {excerpt(name, 80)!r} not found", **where)
    return target


def with_includes(document: Document, allowed: tuple[Path, ...] = ()) -> Document:
    """`include: [map.yaml]`: observations kept in other files (a board described once).

    Paths are relative to the snapshot and stay inside its folder tree, or inside a folder in
    `allowed` (`--include-from DIR`) or whybot's shipped maps, so a snapshot cannot make whybot
    read a system file. The
    snapshot's own keys win over included ones; an included file may not include further (so
    there are no cycles), each file is included once, and all of them together are at most
    `file_bytes`. Errors name the file a value really came from, but never quote the content of
    an included file.
    """
    data = document.data
    if not isinstance(data, dict) or "include" not in data:
        return document
    names = data["include"] if isinstance(data["include"], list) else [data["include"]]
    merged: dict[str, Any] = {}
    parts: dict[str, Document] = {}
    seen: set[Path] = set()
    budget = current().file_bytes
    for index, name in enumerate(names):
        path = _include_target(name, document, index, allowed)
        if path in seen:
            raise SnapshotError(f"file {excerpt(name, 80)!r} is included twice",
                                **document.at(("include", index)), path=f"$.include[{index}]")
        seen.add(path)
        budget -= path.stat().st_size
        if budget < 0:
            current().check("file_bytes", current().file_bytes - budget,
                            "bytes in the included files together",
                            **document.at(("include", index)), path=f"$.include[{index}]")
        part = read_document(path, SnapshotError, quote=False)
        if not isinstance(part.data, dict) or "include" in part.data:
            raise SnapshotError("an included file is a mapping of observations without its "
                                "own include:", file=part.file, line=1)
        for key, value in part.data.items():
            if key not in ("pack", "name", "notes"):
                merged[key] = value
                parts[key] = part
    for key, value in data.items():
        if key != "include":
            merged[key] = value
            parts.pop(key, None)
    return Document(data=merged, file=document.file, lines=document.lines, parts=parts)
