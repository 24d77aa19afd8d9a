"""The progress line of `whybot batch` on a terminal: snapshots done of all, the rate, time left.

Imported only when stderr is a terminal, so a batch whose stderr is a file or a pipe stays
quiet and pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

Row = TypeVar("Row")


class _Rate(ProgressColumn):
    """Snapshots decided per second (blank until there is a rate to show)."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f}/s" if task.speed else "", style="progress.data.speed")


def shown(rows: Iterator[Row], total: int, where: str = "") -> Iterator[Row]:
    """`rows`, counted on stderr as they pass: "deciding on WHERE ━━━ 1,234 / 10,000
    snapshots 512/s 0:00:17"; the line goes away when the batch ends."""
    progress = Progress(TextColumn(f"deciding{where}"), BarColumn(),
                        TextColumn("{task.completed:,} / {task.total:,.0f} snapshots"),
                        _Rate(), TimeRemainingColumn(), console=Console(stderr=True),
                        transient=True)
    with progress:
        yield from progress.track(rows, total=total)


__all__ = ["shown"]
