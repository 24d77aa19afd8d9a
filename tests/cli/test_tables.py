"""Tables written as plain text are exactly what rich prints for them on a console without
colour (`cli/tables.py`), and rich prints what the plain layout leaves to it."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, Group

from whybot.cli.tables import Column, Line, Part, Sheet, plain_text, print_parts

# words of ids and pages, wide (CJK, emoji) and zero-width characters, the ellipsis
WORDS = st.text(st.sampled_from("abcxyz.-_:0123…é漢字🎲\u0301"), min_size=0, max_size=40)
TEXTS = st.lists(WORDS, min_size=0, max_size=5).map(" ".join) | st.sampled_from(
    ["", " ", "  a", "b  ", "a  b"])
COLUMNS = st.builds(Column, header=TEXTS, justify=st.sampled_from(["left", "right"]),
                    overflow=st.sampled_from(["fold", "ellipsis"]), no_wrap=st.booleans())


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    columns = draw(st.lists(COLUMNS, min_size=1, max_size=4))
    rows = draw(st.lists(st.tuples(*(TEXTS for _ in columns)), max_size=6))
    return Sheet(draw(TEXTS), columns, rows)


PARTS = st.lists(sheets() | st.builds(Line, TEXTS), min_size=1, max_size=3)


def console(width: int) -> Console:
    return Console(file=io.StringIO(), width=width, highlight=False, markup=False,
                   emoji=False)


def rich_text(parts: list[Part], width: int) -> str:
    shown = console(width)
    shown.print(Group(*(part.as_rich() for part in parts)))
    return shown.file.getvalue()  # type: ignore[attr-defined]


@settings(max_examples=400, deadline=None)
@given(PARTS, st.integers(min_value=1, max_value=140))
def test_plain_tables_are_the_text_rich_prints_for_them(parts, width):
    text = plain_text(console(width), parts)
    if text is not None:
        assert text == rich_text(parts, width)


@given(PARTS, st.integers(min_value=1, max_value=140))
def test_what_the_plain_layout_leaves_to_rich_is_printed_by_rich(parts, width):
    shown = console(width)
    print_parts(shown, parts)
    assert shown.file.getvalue() == rich_text(parts, width)  # type: ignore[attr-defined]


def test_the_summarys_kind_of_tables_are_laid_out_without_rich():
    ids = [f"admiral.act{n}.move-guard-starport-and-secure-the-regent-captives" for n in range(9)]
    sheet = Sheet("never fired (9 of 12 rules)", [
        Column("page", style="cyan"), Column("fired", "right"),
        Column("rules that never fired", style="yellow", overflow="fold")],
        [(f"fate.admiral.act{n}", f"{n} of 12", ", ".join(ids[:n]) + " … and 6 more (--json)")
         for n in range(9)])
    for width in (40, 80, 200):
        text = plain_text(console(width), [sheet, Line("2 decision(s) where they disagree")])
        assert text is not None
        assert text == rich_text([sheet, Line("2 decision(s) where they disagree")], width)


def test_a_console_that_shows_colour_gets_rich_and_its_styles():
    shown = Console(file=io.StringIO(), width=80, force_terminal=True, color_system="standard")
    sheet = Sheet("t", [Column("page", style="cyan")], [("p",)])
    assert plain_text(shown, [sheet]) is None
    print_parts(shown, [sheet])
    assert "\x1b[36m" in shown.file.getvalue()  # type: ignore[attr-defined]
