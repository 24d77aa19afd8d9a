"""One exception root for everything a user can fix, each error carrying where it was found.

`str(error)` is the one line the CLI prints; `exit_code` is what the CLI exits with.
"""

from __future__ import annotations


class WhybotError(Exception):
    """Root of every error caused by the user's input (rule files, snapshots, options)."""

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 path: str | None = None, hint: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.path = path
        self.hint = hint
        super().__init__(self.render())

    @property
    def location(self) -> str:
        where = self.file or ""
        if self.file and self.line:
            where += f":{self.line}"
        if self.path:
            where += f" ({self.path})" if where else self.path
        return where

    def render(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        return f"{text} ({self.hint})" if self.hint else text


class RuleFileError(WhybotError):
    """A rule file (or a pack description) is malformed, inconsistent or unsafe."""


class SnapshotError(WhybotError):
    """A snapshot does not match its pack's fact schema."""


class DecisionError(WhybotError):
    """The procedure cannot be followed for this snapshot (a missing die, a dead end)."""


class EngineFault(Exception):
    """durable_rules misbehaved or an action failed: a bug, not bad input (exit 1)."""

    exit_code = 1


def did_you_mean(name: str, known: list[str] | set[str]) -> str | None:
    """Suggest the closest known name, the way click suggests options."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None
