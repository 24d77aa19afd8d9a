"""`include:` — observations kept in other files (a board described once), merged in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from whybot.engine.errors import SnapshotError
from whybot.engine.sources import Document, read_document


def with_includes(document: Document) -> Document:
    """`include: [map.yaml]`: observations kept in other files (a board described once).

    Paths are relative to the snapshot; the snapshot's own keys win over included ones; an
    included file may not include further. Errors name the file a value really came from.
    """
    data = document.data
    if not isinstance(data, dict) or "include" not in data:
        return document
    names = data["include"] if isinstance(data["include"], list) else [data["include"]]
    merged: dict[str, Any] = {}
    parts: dict[str, Document] = {}
    for index, name in enumerate(names):
        where = document.at(("include", index))
        if not isinstance(name, str):
            raise SnapshotError("include: takes file names", **where, path=f"$.include[{index}]")
        path = Path(document.file).parent / name
        if not path.is_file():
            raise SnapshotError(f"included file {name!r} not found", **where,
                                path=f"$.include[{index}]")
        part = read_document(path, SnapshotError)
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
