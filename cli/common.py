"""What the commands share that is CLI: paths and errors as a user reads them, `--pack` asked
for, and the folder `batch --diff` names. The pack registry is `whybot.facts.packs`."""

from __future__ import annotations

from pathlib import Path

from whybot.engine import WhybotError, excerpt, printable
from whybot.facts.packs import pack_names, variant_overlay


def rel(path: str | None) -> str | None:
    """A path as the user would type it: relative to the working folder when inside it."""
    if not path:
        return path
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
        return path


def message(error: WhybotError) -> str:
    """The error's one line, its file shown relative to the working folder.

    Whatever raised it, the line stays short and printable: the message (which may quote the
    user's text, e.g. a value jsonschema refused) is cut to `message_chars`, and control
    characters and undecodable bytes of file names are escaped."""
    error.file = printable(rel(error.file)) if error.file else error.file
    error.message = excerpt(error.message)
    error.path = excerpt(error.path) if error.path else error.path
    error.hint = excerpt(error.hint) if error.hint else error.hint
    return error.render()


def overlay_folder(name: str, pack: str | None) -> Path:
    """The overlay `batch --diff` lays over the base rules: a folder of house-rule files, or
    the name of a variant the --pack ships."""
    path = Path(name)
    if path.is_dir():
        return path
    if pack and not path.exists():
        return variant_overlay(pack, name)
    problem = "is a file, not a folder" if path.exists() else "is not a folder"
    raise WhybotError(f"--diff: {printable(name)!r} {problem} of house rules",
                      hint="give the folder of rule files to compare with the base rules, or "
                           "with --pack the name of a variant it ships")


def require_pack(given: str | None) -> str:
    """Commands about rules need a pack: there is no default."""
    if given:
        return given
    raise WhybotError("which pack? give --pack NAME", hint=f"packs: {', '.join(pack_names())}")
