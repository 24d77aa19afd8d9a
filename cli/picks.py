"""Cards picked from a pack's deck, at a terminal and from an answers file: how to type them, and
what a card new to the game prints (asked with the pick itself, never on its own screen).

A card new to the game is asked what it prints right after the line that picked it (still the
same numbered question), unless typed with it (`red 6, pips=2`); an answers file gives it in the
card's entry or as `FIELD.CARD` (`pips.red 6: 2`). A card the game was told about before is
said back, never asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from whybot.facts.play.printed import printed_on, with_pick
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.wording import plain


def how_to_pick(question: Question) -> list[str]:
    """The guidance under a card pick's question, a line each (the terminal wraps them): a
    card's name, a field beside it, and what a new card prints."""
    deck = question.deck
    if deck is None:
        return []
    example = deck.example()
    other = next((f for f in question.fields if f.id not in deck.name_fields()), None)
    also = f"; with {plain(other.id)}: {example}, {plain(other.id)}=" + \
        ("yes" if other.kind == "yes_no" else "...") if other else ""
    lines = [f"one card per line, by name ({example}{also}), or several separated by commas; "
             "an empty line ends the list"]
    if deck.printed:
        lines.append("a card new to this game: what it prints is asked next (or type it with "
                     f"it: {example}, {deck.printed[0].field}=...)")
    return lines


def ask_printed(answer: Callable[[str, Question], str], question: Question,
                entries: list[dict[str, Any]]) -> bool:
    """What each card just picked and new to the game prints, asked on the next line
    (`answer`: a line typed at a prompt); False: `back`, the line is taken back."""
    from .prompt import hint, problem  # prompt.py imports this module: read at call time

    for asked in with_pick(question, entries):
        while True:
            text = answer(f"   {asked.text} ({hint(asked)}) > ", asked)
            if text == "back":
                return False
            try:
                value = asked.parse(text)
            except AnswerError as exc:
                problem(exc)
                continue
            if question.deck is not None:
                printed_on(question.deck, entries, asked, value)
            break
    return True


def told_back(question: Question, entries: list[dict[str, Any]]) -> None:
    """What the game was told the cards just picked show: said back, never asked again."""
    for entry in question.parse(entries) if question.deck is not None else []:
        name = question.deck.name_of(entry)
        known = question.printed.get(name or "", {})
        if known:
            typer.echo(f"   {name}: " + ", ".join(f"{v} {plain(k)}" for k, v in known.items())
                       + " (as told earlier this game)")


def printed_from_file(question: Question, value: Any, answers: dict[str, Any], used: set[str],
                      origin: str) -> Any:
    """Cards picked from an answers file: what a card new to the game prints, from the file's
    `FIELD.CARD` (`pips.red 6: 2`, each one `used`) where its entry does not give it."""
    for asked in with_pick(question, value):
        if asked.id in answers and question.deck is not None:
            used.add(asked.id)
            try:
                printed = asked.parse(answers[asked.id])
            except AnswerError as exc:
                raise AnswerError(exc.message, file=origin, path=f"$.{asked.id}",
                                  hint=exc.hint) from None
            printed_on(question.deck, value, asked, printed)
    return value


__all__ = ["ask_printed", "how_to_pick", "printed_from_file", "told_back"]
