"""Tables to print: built once, printed through rich, or written as the very text rich would
print when there is nothing to colour.

A batch summary of a large pack is some 1,600 table lines; rich's general layout (a segment
pipeline for every cell) took about 0.2 s of a batch process to print them. On a console
without colour (a file, a pipe: `color_system` None) rich's output is plain text, so
`plain_text` lays the tables out as rich does (measured, collapsed and wrapped with rich's own
rules: cell widths, word wrap and folding are rich's functions) and writes that text. What it
does not lay out exactly as rich does (a table wider than the console once collapsed, a
column too narrow for its padding, text with control characters) it leaves to rich: `None`.
`tests/cli/test_tables.py` compares the two on generated tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import Console

Justify = Literal["left", "right"]
Overflow = Literal["fold", "ellipsis"]
PAD = 1  # rich's default cell padding, each side
EDGES = 2  # the box's left and right edges


@dataclass(frozen=True)
class Column:
    """A column as rich's `Table.add_column` takes it."""

    header: str
    justify: Justify = "left"
    style: str = ""
    overflow: Overflow = "ellipsis"
    no_wrap: bool = False


@dataclass
class Sheet:
    """A table with a left-justified title (rich's default box, padding and edges)."""

    title: str
    columns: list[Column]
    rows: list[tuple[str, ...]] = field(default_factory=list)
    title_style: str = ""

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def as_rich(self) -> Any:
        from rich.table import Table

        table = Table(title=self.title, title_justify="left", title_style=self.title_style or None)
        for column in self.columns:
            table.add_column(column.header, justify=column.justify, style=column.style,
                             overflow=column.overflow, no_wrap=column.no_wrap)
        for row in self.rows:
            table.add_row(*row)
        return table


@dataclass(frozen=True)
class Line:
    """A line of text after the tables (wrapped at the console's width, as rich wraps it)."""

    text: str
    style: str = ""

    def as_rich(self) -> Any:
        from rich.text import Text

        return Text(self.text, style=self.style)


Part = Sheet | Line


def print_parts(console: Console, parts: list[Part]) -> None:
    """Print the parts one after the other, as rich's `Group` of them prints."""
    text = plain_text(console, parts)
    if text is None:
        from rich.console import Group

        console.print(Group(*(part.as_rich() for part in parts)))
        return
    console.file.write(text)
    console.file.flush()


def plain_text(console: Console, parts: list[Part]) -> str | None:
    """What rich would print for the parts on this console, or None: not plain text, or not
    laid out here exactly as rich lays it out."""
    if console.color_system is not None or console.legacy_windows \
            or not console.encoding.startswith("utf"):
        return None
    lines: list[str] = []
    for part in parts:
        if not all(map(str.isprintable, _texts(part))):
            return None  # tabs, newlines and control codes: rich's own handling
        drawn = _wrapped(console, part.text, console.width, None, "fold") \
            if isinstance(part, Line) else _table(console, part)
        if drawn is None:
            return None
        lines.extend(drawn)
    return "".join(line + "\n" for line in lines)


def _texts(part: Part) -> list[str]:
    if isinstance(part, Line):
        return [part.text]
    return [part.title, *(c.header for c in part.columns), *(c for row in part.rows for c in row)]


def _table(console: Console, sheet: Sheet) -> list[str] | None:
    from rich.cells import cell_len, set_cell_size

    widths = _widths(sheet, console.width - EDGES - (len(sheet.columns) - 1))
    if widths is None:
        return None
    table_width = sum(widths) + EDGES + len(widths) - 1
    if table_width > console.width or min(widths, default=PAD * 2 + 1) <= PAD * 2:
        return None  # cropped by the console, or no room inside the padding: rich's to do
    lines = _wrapped(console, sheet.title, table_width, "left", "fold") if sheet.title else []

    def rule(left: str, cross: str, right: str, line: str) -> str:
        return left + cross.join(line * width for width in widths) + right

    def row(cells: tuple[str, ...], edge: str) -> list[str]:
        blocks = []
        for text, width, column in zip(cells, widths, sheet.columns, strict=True):
            inner = width - PAD * 2
            if cell_len(text) <= inner:  # fits: only justified
                shown = [text + " " * (inner - cell_len(text)) if column.justify == "left"
                         else " " * (inner - cell_len(text.rstrip())) + text.rstrip()]
            else:
                shown = [set_cell_size(line, inner) for line in _wrapped(
                    console, text, inner, column.justify, column.overflow, column.no_wrap)]
            blocks.append(shown)
        height = max(map(len, blocks))
        for block, width in zip(blocks, widths, strict=True):  # headers sit on the rule below
            blank = [" " * (width - PAD * 2)] * (height - len(block))
            where = 0 if edge == "┃" else len(block)
            block[where:where] = blank
        return [edge + edge.join(f" {block[index]} " for block in blocks) + edge
                for index in range(height)]

    lines.append(rule("┏", "┳", "┓", "━"))
    lines.extend(row(tuple(c.header for c in sheet.columns), "┃"))
    lines.append(rule("┡", "╇", "┩", "━"))
    for cells in sheet.rows:
        lines.extend(row(cells, "│"))
    lines.append(rule("└", "┴", "┘", "─"))
    return lines


def _widths(sheet: Sheet, available: int) -> list[int] | None:
    """Each column's width with its padding, as `Table._calculate_column_widths` works it
    out (not expanded, no fixed or minimum widths)."""
    from rich._ratio import ratio_reduce
    from rich.table import Table

    if available < PAD * 2 + 1:
        return None
    widths = [_measured(sheet, index, available)[1] or 1 for index in range(len(sheet.columns))]
    if sum(widths) > available:
        widths = Table._collapse_widths(widths, [not c.no_wrap for c in sheet.columns],
                                        available)
        if sum(widths) > available:  # rich's last resort: every column alike
            widths = ratio_reduce(sum(widths) - available, [1] * len(widths), widths, widths)
        if min(widths) < PAD * 2 + 1:
            return None
        widths = [_measured(sheet, index, width)[1] for index, width in enumerate(widths)]
    return widths


def _measured(sheet: Sheet, index: int, width: int) -> tuple[int, int]:
    """A column's narrowest and widest (its longest word, its longest cell) with padding,
    at most `width` (which leaves room for the padding)."""
    from rich.cells import cell_len

    texts = [sheet.columns[index].header, *(row[index] for row in sheet.rows)]
    least = most = 0
    for text in texts:
        longest = cell_len(text)
        word = max(map(cell_len, text.split()), default=longest)
        least = max(least, min(word, width) + PAD * 2 if longest else PAD * 2)
        most = max(most, min(longest, width) + PAD * 2 if longest else PAD * 2)
    return min(least, width), min(most, width)


def _wrapped(console: Console, text: str, width: int, justify: Justify | None,
             overflow: Overflow, no_wrap: bool = False) -> list[str]:
    """The lines rich's `Text.wrap` breaks the text into (justified: padded to `width`)."""
    from rich.text import Text

    return [line.plain for line in Text(text).wrap(
        console, width, justify=justify, overflow=overflow, no_wrap=no_wrap)]
