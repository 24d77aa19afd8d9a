"""The documented limits on what whybot reads and does, checked before the work starts.

Every input path is bounded so that no file, snapshot, batch line or house-rule folder can make
whybot crash, hang or exhaust memory. A refused input is one line naming the limit and exits 2.
A user who really needs more raises a limit with an environment variable
`WHYBOT_LIMIT_<NAME>` (e.g. `WHYBOT_LIMIT_ENTITIES=20000`) or `--limit NAME=N` on a command.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

from .errors import WhybotError


class LimitError(WhybotError):
    """An input exceeds one of the documented limits (exit 2, the limit's name in the text)."""


@dataclass(frozen=True)
class Limits:
    """Each field is one limit; its docstring line in LIMIT_HELP says what it bounds."""

    file_bytes: int = 8 * 1024 * 1024
    line_bytes: int = 1024 * 1024
    yaml_aliases: int = 100
    yaml_nodes: int = 200_000
    depth: int = 40
    string_chars: int = 10_000
    entities: int = 5_000
    rules: int = 10_000
    alternatives: int = 64
    condition_chars: int = 4_000
    dice_count: int = 100
    dice_sides: int = 1_000
    steps: int = 5_000
    combinations: int = 150_000
    message_chars: int = 300
    odds_runs: int = 5_000
    odds_seconds: int = 60
    request_bytes: int = 64 * 1024
    game_bytes: int = 2 * 1024 * 1024

    def check(self, name: str, value: int, where: str = "", **location: object) -> None:
        """Raise LimitError when `value` exceeds limit `name`."""
        limit = getattr(self, name)
        if value > limit:
            raise LimitError(f"{where + ': ' if where else ''}{value:,} exceeds the limit "
                             f"{name} = {limit:,}", hint=f"raise it with WHYBOT_LIMIT_"
                             f"{name.upper()}=N or --limit {name}=N if you need more",
                             **location)  # type: ignore[arg-type]


LIMIT_HELP = {
    "file_bytes": "size of one file read (snapshot, rule file, included map; all of a "
                  "snapshot's includes together)",
    "line_bytes": "size of one line of a JSONL batch file",
    "yaml_aliases": "YAML alias references (*name) in one document",
    "yaml_nodes": "values in one YAML/JSON document, aliases expanded",
    "depth": "nesting depth of one document, and of one condition",
    "string_chars": "characters in one text value (or key)",
    "entities": "entities (cards, options, provinces, ...) in one snapshot",
    "rules": "rules in one pack with its house rules (compiled: each alternative of a "
             "condition counts as one)",
    "alternatives": "alternatives ('or' branches, multiplied out) of one rule's condition",
    "condition_chars": "characters in one condition",
    "dice_count": "dice in one roll",
    "dice_sides": "sides of one die",
    "steps": "steps of one decision (pages read, rules applied): stops goto/call loops",
    "combinations": "entity combinations one decision may examine, summed over its rules "
                    "and their runs (a join: the product of its kinds' counts)",
    "message_chars": "characters of the user's own text quoted in an error",
    "odds_runs": "runs of the procedure one `whybot odds` may make (exact, or --samples)",
    "odds_seconds": "seconds one `whybot odds` may take",
    "request_bytes": "size of one request body `whybot serve` accepts (a form)",
    "game_bytes": "size of one game file `whybot serve` opens",
}


def parse_override(text: str) -> tuple[str, int]:
    """`entities=20000` → ("entities", 20000); unknown names get a did-you-mean."""
    from .errors import did_you_mean

    name, sep, value = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    if not sep or not value.strip().isdigit():
        raise WhybotError(f"--limit takes NAME=N, got {text!r}")
    if name not in LIMIT_HELP:
        raise WhybotError(f"unknown limit {name!r}", hint=did_you_mean(name, set(LIMIT_HELP))
                          or f"limits: {', '.join(LIMIT_HELP)}")
    return name, int(value)


def from_environment(overrides: list[str] | None = None) -> Limits:
    """The defaults, raised or lowered by WHYBOT_LIMIT_* variables, then by --limit options."""
    changes: dict[str, int] = {}
    for spec in fields(Limits):
        variable = f"WHYBOT_LIMIT_{spec.name.upper()}"
        raw = os.environ.get(variable)
        if raw is not None:
            if not raw.strip().isdigit():
                raise WhybotError(f"{variable} takes a whole number, not {raw!r}")
            changes[spec.name] = int(raw)
    for text in overrides or []:
        name, value = parse_override(text)
        changes[name] = value
    return replace(Limits(), **changes)


_CURRENT: list[Limits | None] = [None]


def current() -> Limits:
    """The limits in force: set by the CLI from its options, else read from the environment
    when first needed (a bad WHYBOT_LIMIT_* is then one clear error, never a traceback)."""
    limits = _CURRENT[0]
    if limits is None:
        _CURRENT[0] = Limits()  # what the error about a bad variable is reported with
        limits = _CURRENT[0] = from_environment()
    return limits


def use(limits: Limits | None) -> None:
    _CURRENT[0] = limits


__all__ = ["LIMIT_HELP", "LimitError", "Limits", "current", "from_environment",
           "parse_override", "use"]
