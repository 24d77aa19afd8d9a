"""A snapshot read for deciding: its pack named, its variant laid, checked into a Situation.

What every way in does before it decides (`decide`, `why`, `odds`, a batch row, a cluster
worker in the same order): the pack is `--pack` or the snapshot's `pack:`, the variant is
`--variant` or the snapshot's `variant:`, and the engine is the registry's (`packs.py`).
"""

from __future__ import annotations

from pathlib import Path

from whybot.engine import (
    Document,
    Engine,
    RuleFileError,
    Situation,
    SnapshotError,
    did_you_mean,
    read_document,
)

from .packs import engine_for, pack_names, with_variant
from .snapshot import situation_from, snapshot_variant, with_includes


def pack_of(document: Document, given: str | None) -> str:
    """`--pack` if given, else the snapshot's own `pack:` field."""
    if given:
        return given
    data = document.data
    name = data.get("pack") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        raise SnapshotError("the snapshot does not say its pack", file=document.file, line=1,
                            hint=f"add `pack: NAME` ({', '.join(pack_names())}), or give --pack")
    if name not in pack_names():
        raise SnapshotError(f"no knowledge pack named {name!r}", file=document.file,
                            line=document.line(("pack",)), path="$.pack",
                            hint=did_you_mean(name, pack_names())
                            or f"packs: {', '.join(pack_names())}")
    return name


def variant_refused(error: RuleFileError, document: Document) -> SnapshotError:
    """A variant the snapshot's `variant:` names that cannot be laid, as the snapshot's error
    (at its `variant:` line)."""
    return SnapshotError(error.message, file=document.file, line=document.line(("variant",)),
                         path="$.variant", hint=error.hint)


def read_situation(document: Document, pack: str | None, overlays: tuple[str, ...],
                   include_from: tuple[Path, ...] = (), reasoner: str = "durable",
                   variant: str | None = None) -> tuple[Engine, Situation]:
    """Validate a parsed snapshot against its pack; return the pack's engine and the situation.

    `include_from`: folders (--include-from) the snapshot's `include:` may read besides its own
    folder tree. `variant` (--variant) wins over the snapshot's own `variant:`; the variant's
    folder is laid over the pack under the house rules."""
    name = pack_of(document, pack)
    chosen = variant or snapshot_variant(document)
    try:
        keyed = with_variant(name, chosen, overlays)
    except RuleFileError as error:
        if variant:
            raise
        raise variant_refused(error, document) from None
    engine = engine_for(name, keyed, reasoner)
    situation = situation_from(with_includes(document, include_from), engine.pack)
    situation.variant = chosen or ""
    return engine, situation


def load_situation(path: Path, pack: str | None, overlays: tuple[str, ...],
                   include_from: tuple[Path, ...] = (), variant: str | None = None,
                   ) -> tuple[Engine, Situation]:
    return read_situation(read_document(path, SnapshotError), pack, overlays, include_from,
                          variant=variant)
