"""Asking a table API question on a terminal, or taking its answer from an answers file.

On a terminal each question shows the seed's words, the kind of answer it takes and a default
only where the seed gives one; `?` shows why it is asked (the rule, its page, the seed's
question), `back` takes the previous answer back, and a wrong answer is explained and asked
again. A list of entities is typed one entry per line (`suit=administration, number=3`, or a
YAML flow mapping; a one-field list takes plain values, `red, blue`), an empty line ending it;
a card picked from a deck that is new to the game is asked what it prints on the next line
(or typed with it, `red 6, pips=2`; an answers file's `pips.red 6: 2` fills it in).
Names read as words (`best rival`) and may be typed so. An answers file (YAML/JSON: question
id → value) answers the questions it names (`include:` merges in a map's file, as a snapshot
does; `dice:` gives the faces rolled at the table, in order); any other question is asked on
the terminal, or, without one, refused with the question's id and text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import typer
import yaml

from whybot.engine import WhybotError
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.wording import as_name, plain

from . import picks

BACK = object()
Ask = Callable[[Question, int], Any]


class Unanswered(WhybotError):
    """A question neither the answers file nor a terminal can answer."""


def hint(question: Question) -> str:
    """What kind of answer it takes, in a few words (`y/n`, `0..20`, the choices)."""
    if question.kind == "yes_no":
        return "y/n"
    if question.kind == "number":
        low = "" if question.minimum is None else f"{question.minimum:g}"
        high = "" if question.maximum is None else f"{question.maximum:g}"
        return f"{low}..{high}" if low or high else "a number"
    if question.kind == "choice" and question.choices:
        return "|".join(plain(str(c)) for c in question.choices)
    if question.kind == "entities":
        return "a list of entries"
    if question.kind == "dice":
        return f"{question.count} face(s), 1..{question.sides}"
    if question.kind == "group":
        return ", ".join(f"{plain(f.id)} {hint(f)}" for f in question.fields)
    return "text"


def _fields(question: Question) -> str:
    return ", ".join(f"{plain(f.id)}{'*' if f.required else ''} ({hint(f)})"
                     for f in question.fields)


def _entries(line: str, question: Question) -> list[dict[str, Any]]:
    """A typed line's entries: cards picked by name (`red 6, bonus=yes, blue
    2`: each name starts an entry, field=value adds to it), a one-field list's plain values
    (`red, blue`), else one entry (`_entry`)."""
    if question.deck is not None and not line.startswith("{"):
        return question.parse(line)
    if len(question.fields) == 1 and "=" not in line and not line.startswith("{"):
        return [{question.fields[0].id: part.strip()} for part in line.split(",")
                if part.strip()]
    return [_entry(line)]


def _entry(line: str) -> dict[str, Any]:
    """`suit=administration, best rival=3` or `{suit: administration}` → a mapping of texts
    (each field's question types them; a field's name may be typed in words)."""
    if line.startswith("{"):
        value = yaml.safe_load(line)
        if not isinstance(value, dict):
            raise AnswerError("a YAML flow mapping: {field: value, ...}")
        return value
    entry = {}
    for part in line.split(","):
        name, equals, value = part.partition("=")
        if not equals or not name.strip():
            raise AnswerError(f"{part.strip()!r}: write field=value, separated by commas")
        entry[as_name(name)] = value.strip().strip("\"'")
    return entry


def problem(error: AnswerError) -> None:
    """A wrong answer, said on the terminal (the question is asked again)."""
    typer.echo(f"   {error.message}" + (f" ({error.hint})" if error.hint else ""))


class Terminal:
    """Questions asked on the terminal (`read` is `input`, replaced in tests)."""

    def __init__(self, read: Callable[[str], str] = input) -> None:
        self.read = read

    def line(self, prompt: str) -> str:
        """One line typed (end of input: exit 130)."""
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise typer.Exit(130) from None

    def __call__(self, question: Question, number: int) -> Any:
        typer.echo(f"\n{number}. {question.text}")
        if question.help and question.help != question.text:
            typer.echo(f"   {question.help}")
        if question.kind == "entities":
            return self._entities(question)
        if question.kind == "group":
            first = question.fields[0].id
            typer.echo(f"   each as its name and value, separated by commas ({plain(first)} 2, "
                       f"…), or the values alone in this order"
                       + (f"; only what changed ({plain(first)} 2), or Enter to keep it all"
                          if question.last else ""))
        default = f" [{_word(question.default)}]" if question.default not in (None, "") else ""
        while True:
            text = self._answer(f"   ({hint(question)}){default} > ", question)
            if text == "back":
                return BACK
            if text == "" and question.default is not None:
                return question.default
            try:
                return question.parse(text)
            except AnswerError as exc:
                problem(exc)

    def _answer(self, prompt: str, question: Question) -> str:
        """A line typed; `?` shows why the question is asked and reads the next."""
        while (text := self.line(prompt)) == "?":
            typer.echo(f"   why: {question.why()}")
        return text

    def _entities(self, question: Question) -> Any:
        if question.deck is not None:
            typer.echo("\n".join(picks.how_to_pick(question)))
        elif len(question.fields) == 1:
            typer.echo(f"   {hint(question.fields[0])}: one or more per line, separated by "
                       "commas; an empty line ends the list")
        else:
            typer.echo(f"   fields: {_fields(question)}")
            typer.echo("   one entry per line (field=value, ...); an empty line ends the list")
        if question.last:
            typer.echo("   an empty line keeps the entries of last time:")
            for item in question.default:
                typer.echo("     " + ", ".join(f"{plain(k)}={_word(v)}" for k, v in item.items()))
        for label, kept in question.known.items():
            typer.echo(f"   kept by the game for {label}: "
                       + ", ".join(f"{plain(k)}={v}" for k, v in kept.items()))
        items: list[dict[str, Any]] = []
        while True:
            text = self._answer(f"   entry {len(items) + 1} > ", question)
            if text == "back":
                if items:
                    items.pop()
                    continue
                return BACK
            if text == "":
                return question.default if question.last and not items else \
                    question.parse(items)
            try:
                entries = _entries(text, question)
                question.parse([*items, *entries])  # a card twice is refused at once
            except yaml.YAMLError:
                problem(AnswerError("not a YAML flow mapping"))
            except AnswerError as exc:
                problem(exc)
            else:
                if not picks.ask_printed(self._answer, question, entries):
                    continue  # `back` at what a new card prints: the line is dropped
                items.extend(entries)
                picks.told_back(question, entries)


def _word(value: Any) -> str:
    """A value as typed back (yes/no for booleans; facts asked together as `name value, …`)."""
    if isinstance(value, dict):
        return ", ".join(f"{plain(str(name))} {_word(item)}" for name, item in value.items())
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


class FromFile:
    """Answers from a mapping (an answers file); what it lacks goes to `fallback`."""

    def __init__(self, answers: dict[str, Any], origin: str,
                 fallback: Ask | None = None) -> None:
        self.answers, self.origin, self.fallback = answers, origin, fallback
        self.used: set[str] = set()
        self.rolled = 0  # faces of `dice:` taken so far
        self.taken: dict[str, int] = {}  # a judgment asked after each action: values taken

    def _faces(self, question: Question) -> Any:
        """A roll's faces from the file's `dice:` list (as a snapshot gives them), in order;
        None when it has no more."""
        faces = self.answers.get("dice")
        if question.kind != "dice" or not isinstance(faces, list) or \
                len(faces) - self.rolled < question.count:
            return None
        self.used.add("dice")
        taken = faces[self.rolled:self.rolled + question.count]
        self.rolled += question.count
        return taken

    def __call__(self, question: Question, number: int) -> Any:
        if question.id not in self.answers and (faces := self._faces(question)) is not None:
            try:
                return question.parse(faces)
            except AnswerError as exc:
                raise AnswerError(exc.message, file=self.origin, path="$.dice",
                                  hint=exc.hint) from None
        if question.again and question.id in self.used:  # its answer left the turn undecided
            if self.fallback is not None:
                return self.fallback(question, number)
            raise Unanswered(f"not decided, nothing saved: {question.again}", file=self.origin,
                             hint=f"give {question.id}: as the procedure asks, then play again")
        if question.id in self.answers:
            self.used.add(question.id)
            given = self.answers[question.id]
            if question.what == "answer" and isinstance(given, list):  # asked again after
                taken = self.taken.get(question.id, 0)  # each action: the values in order
                if taken >= len(given):
                    raise AnswerError(f"{question.id} is asked {taken + 1} times: the list "
                                      f"gives {len(given)} value(s)", file=self.origin,
                                      path=f"$.{question.id}",
                                      hint="give one value for each time it is asked")
                self.taken[question.id], given = taken + 1, given[taken]
            try:
                value = question.parse(given)
            except AnswerError as exc:
                raise AnswerError(exc.message, file=self.origin, path=f"$.{question.id}",
                                  hint=exc.hint) from None
            return picks.printed_from_file(question, value, self.answers, self.used,
                                           self.origin)
        if question.kind == "group" and (members := {
                f.id: self.answers[f.id] for f in question.fields if f.id in self.answers}):
            self.used.update(members)  # a group's facts given one by one (`FACT: 2`)
            try:
                return question.parse(members)
            except AnswerError as exc:
                raise AnswerError(exc.message, file=self.origin, path=f"$.{question.id}",
                                  hint=exc.hint) from None
        if question.what == "name":  # the table's name for a target: unnamed if not given
            return question.default
        if question.what == "review" and question.layer:  # after an action: still so,
            return True  # unless the file says `unchanged.N: no`
        if question.what == "review":  # still so, unless the file gives one of them anew
            return not any(name in self.answers for name in question.known)
        if question.last:  # what the player said last time holds: the file changes nothing
            return question.default
        if self.fallback is not None:
            return self.fallback(question, number)
        raise Unanswered(f"no answer to {question.id!r}: {question.text}", file=self.origin,
                         hint=f"add `{question.id}:` ({hint(question)}), or play on a terminal")

    def unused(self) -> list[str]:
        return [name for name in self.answers if name not in self.used]


def answers_from(text: str, origin: str) -> dict[str, Any]:
    """An answers file's mapping, with what its `include:` names merged in (a map kept in
    its own file, included as a snapshot includes it; the file's own answers win)."""
    from whybot.engine import SnapshotError, parse_text
    from whybot.facts.includes import with_includes

    document = parse_text(text, origin, AnswerError)
    if document.data is None:
        return {}
    if not isinstance(document.data, dict):
        raise AnswerError("an answers file is a mapping of question id: answer", file=origin)
    try:
        data = with_includes(document).data
    except SnapshotError as exc:
        raise AnswerError(exc.message, file=exc.file, line=exc.line, path=exc.path,
                          hint=exc.hint) from None
    return data if isinstance(data, dict) else {}


def interactive() -> bool:
    return sys.stdin.isatty()


__all__ = ["BACK", "FromFile", "Terminal", "Unanswered", "answers_from", "hint", "interactive",
           "problem"]
