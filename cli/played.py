"""The table companion's side of `whybot new`, `play` and `fix` at the terminal: who answers
(an answers file, standard input or the terminal), the decision point the pack's flow offers
next and why, the answers the table gave without asking, and what a turn changed and saved.

Its own module, imported when one of those commands runs, so that every other command (a
batch above all) starts without the table companion's modules.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from whybot.engine import STDIN, decode_text, read_bytes, read_stream
from whybot.facts.play.consult import by_reason
from whybot.facts.play.flow import Flow
from whybot.facts.play.ledger import change_words
from whybot.facts.play.offer import Offer, next_point
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table
from whybot.facts.play.wording import plain

from .answers_file import FromFile, answers_from, typed
from .prompt import BACK, Ask, Terminal, Typed, fitted, interactive, problem


def answerer(answers: Path | None) -> tuple[Ask, FromFile | None]:
    """Who answers: the answers file (with the terminal for what it lacks, if there is one),
    standard input's answers when it is not a terminal, else the terminal."""
    if answers is None and interactive():
        return Terminal(), None
    if answers is None or str(answers) == STDIN:
        text = decode_text(read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>", AnswerError)
        source = FromFile(answers_from(text, "<stdin>"), "<stdin>")
    else:
        text = decode_text(read_bytes(answers, AnswerError), str(answers), AnswerError)
        source = FromFile(answers_from(text, str(answers)), str(answers),
                          Typed() if interactive() else None)
    return source, source


def report_unused(source: FromFile | None) -> None:
    if source is not None and source.unused():
        typer.echo(f"note: not asked (the procedure did not reach them): "
                   f"{', '.join(source.unused())}", err=True)


def ask_bots(ask: Ask, question: Any) -> list[Any]:
    if isinstance(ask, FromFile) and "bots" in ask.answers:
        ask.used.add("bots")
        raw = ask.answers["bots"]
    else:
        raw = ask(question, 1)
        raw = [] if raw is BACK else raw
    return raw if isinstance(raw, list) else str(raw).replace(",", " ").split()


def follow(table: Table, at: str | None, ask: Ask, json_out: bool,
           ) -> tuple[Offer | None, dict[str, Any]]:
    """The decision point the pack's flow offers next (none with `--at`), said with why,
    after its questions (a trigger only the table knows, in the seed's words); their
    answers."""
    said: dict[str, Any] = {}
    while at is None and (offer := next_point(table, said)) is not None and \
            offer.question is not None:
        value, at_terminal = typed(ask, offer.question, len(said) + 1)
        if value is BACK:  # the flow's previous question again
            if said:
                said.popitem()
            continue
        try:
            said[offer.question.id] = offer.question.parse(value)
            next_point(table, said)  # a bot's name that is none of them: refused here
        except AnswerError as exc:
            if not at_terminal:
                raise
            problem(exc)
            said.pop(offer.question.id, None)
    offer = next_point(table, said) if at is None else None
    say_next(table, offer, json_out)
    return offer, said


def say_next(table: Table, offer: Offer | None, json_out: bool) -> None:
    """The decision point the pack's flow offers next, and why."""
    if offer is None:
        return
    flow = table.playbook.flow
    also = ", ".join(plain(p) for p in flow.arise) if flow else ""
    typer.echo(fitted(f"next: {plain(str(offer.point))} for {offer.bot}: {offer.why}"
                      + (f" (or, when it arises, --at {also})" if also else "")), err=json_out)


def print_unasked(table: Table, entry: dict[str, Any]) -> None:
    """The answers the table gave, not asked (play.yaml `unchanged:`, `settled:`)."""
    found = by_reason(table.playbook, table.engine.pack, entry.get("unasked", []))
    if found:
        typer.echo("not asked, the table answers them:")
    for why, questions in found.items():
        typer.echo("\n".join([fitted(f"{why}:", "  ", "  "),
                              *(fitted(q, "    ", "      ") for q in questions)]))


def print_after(table: Table, entry: dict[str, Any], game: Path) -> None:
    """What the turn changed, what is offered next time, and where every reason is."""
    asked = len(entry["asked"])
    lines = [f"\nturn {entry['turn']} ({entry['bot']}) saved to {game}: {asked} "
             f"question{'s' if asked != 1 else ''} asked"]
    said = [plain(str(c["path"][-1])) for c in entry["changes"] if c["path"][0] == "said"]
    for change in entry["changes"]:
        if change["path"][0] == "said":
            continue
        lines.append(f"  {change_words(change)}")
    if said:
        lines.append(fitted("remembered, offered next time (anything changed?): "
                            + ", ".join(said), "  ", "    "))
    if entry["carried"].get("after"):
        flow = table.playbook.flow
        lines.append(f"  {flow.continues if flow else Flow.continues} at this bot's next play")
    lines.append(f"every reason: whybot why {game} --turn {entry['turn']}")
    typer.echo("\n".join(lines))


__all__ = ["print_after", "print_unasked", "say_next"]
