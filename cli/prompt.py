"""Asking a table API question on a terminal (an answers file's answers: answers_file.py).

On a terminal each question shows the seed's words, the kind of answer it takes and a default
only where the seed gives one; `?` shows why it is asked (the rule, its page, the seed's
question), `back` takes the previous answer back, and a wrong answer is explained and asked
again. A list of entities is typed one entry per line (`suit=administration, number=3`, or a
YAML flow mapping; a one-field list takes plain values, `red, blue`), an empty line ending it;
a card picked from a deck that is new to the game is asked what it prints on the next line
(picks.py). After an action, the judgments it may have changed are listed with their last
answers: the numbers of those so now (a count as number=value), or Enter to keep them all.
Names read as words (`best rival`) and may be typed so.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import typer
import yaml

from whybot.facts.play import naming
from whybot.facts.play.naming import TARGET, split
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.together import sample
from whybot.facts.play.wording import as_name, plain

from . import picks

BACK = object()
Ask = Callable[[Question, int], Any]


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
    if question.kind == "first":
        return f"1..{len(question.fields)}, 0 for none"
    if question.kind == "after":
        counts = [str(n) for n, f in enumerate(question.fields, 1) if f.kind != "yes_no"]
        return "the numbers of those so now, 0 for none" + \
            (f"; a count as {counts[0]}=N" if counts else "")
    if question.kind == "names":
        return "a name, or Enter to leave it unnamed"
    return "text"


def _field(question: Question) -> str:
    return f"{plain(question.id)}{'*' if question.required else ''} ({hint(question)})"


def _wrapped(text: str, first: str = "   ", rest: str = "   ") -> str:
    """A line wrapped to the terminal's width (a line of guidance under the question;
    `first`, `rest`: the indents of its first line and of the others)."""
    width = shutil.get_terminal_size((80, 24)).columns
    return textwrap.fill(text, width=max(40, width - 1), initial_indent=first,
                         subsequent_indent=rest, break_on_hyphens=False)


def fitted(text: str, first: str = "", rest: str = "  ") -> str:
    """A line of a command's own output, wrapped to the terminal's width when a person reads
    it there (piped or captured, it stays one line for whatever reads it)."""
    return _wrapped(text, first, rest) if sys.stdout.isatty() else first + text


def _how_to_enter(question: Question) -> str:
    """How a list of several fields is typed: by its naming field (and the other fields it
    needs), more fields as field=value; `?` lists them all."""
    named = next((f for f in question.fields if f.id == question.label), question.fields[0])
    needed = [f for f in question.fields if f.required and f is not named]
    other = next((f for f in question.fields if f is not named and f not in needed), None)
    example = ", ".join([plain(str(named.choices[0])) if named.choices else plain(named.id),
                         *(f"{plain(f.id)}=..." for f in needed),
                         *([f"{plain(other.id)}=" + ("yes" if other.kind == "yes_no" else "...")]
                           if other else [])])
    also = f", with {', '.join(_field(f) for f in needed)}" if needed else ""
    return (f"one entry per line, by its {_field(named)}{also} (for example: {example}); "
            "any other field as field=value (? lists them); an empty line ends the list")


def _entries(line: str, question: Question) -> list[dict[str, Any]]:
    """A typed line's entries: cards picked by name (`red 6, bonus=yes, blue 2`), a YAML flow
    mapping (`{name: tycoon}`), else entries by their naming field (`tycoon, declared=yes,
    warlord`: each plain name starts an entry, field=value adds to it; a one-field list's plain
    values, `red, blue`, are its entries)."""
    if question.deck is not None and not line.startswith("{"):
        return question.parse(line)
    if line.startswith("{"):
        return [_entry(line)]
    label = question.label or question.fields[0].id
    entries: list[dict[str, Any]] = []
    for part in (part.strip() for part in line.split(",")):
        name, equals, value = part.partition("=")
        if not part:
            continue
        if not equals:
            entries.append({label: part.strip("\"'")})
        elif not name.strip():
            raise AnswerError(f"{part!r}: write field=value, separated by commas")
        elif entries:
            entries[-1][as_name(name)] = value.strip().strip("\"'")
        else:
            entries.append({as_name(name): value.strip().strip("\"'")})
    return entries


def _entry(line: str) -> dict[str, Any]:
    """`{suit: administration}` → a mapping (each field's question types its values)."""
    value = yaml.safe_load(line)
    if not isinstance(value, dict):
        raise AnswerError("a YAML flow mapping: {field: value, ...}")
    return value


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
        typer.echo("\n" + _wrapped(question.text, f"{number}. ", "   "))
        if question.help and question.help != question.text:
            typer.echo(_wrapped(question.help))
        if question.kind == "entities":
            return self._entities(question)
        if question.kind == "names":
            return self._names(question)
        if question.kind == "first":
            for index, member in enumerate(question.fields, start=1):
                typer.echo(_wrapped(member.text + (f" [last answer: {_word(member.default)}]"
                                                   if member.last else ""),
                                    f"   {index}) ", "      "))
            typer.echo("   0) none of these")
        if question.kind == "after":
            for index, member in enumerate(question.fields, start=1):
                typer.echo(_wrapped(f"{member.text} [{_word(question.default[member.id])}]",
                                    f"   {index}) ", "      "))
            counts = any(member.kind != "yes_no" for member in question.fields)
            typer.echo(_wrapped("Enter keeps the last answers (in brackets)" +
                                ("; counts typed alone keep the yes/no answers" if counts
                                 else "")))
        if question.kind == "group":
            for member in question.fields:  # each fact's own question, by the name it takes
                if member.text != plain(member.id):
                    typer.echo(_wrapped(f"{plain(member.id)}: {member.text} ({hint(member)})",
                                        "   - ", "     "))
            first = f"{plain(question.fields[0].id)} {sample(question.fields[0])}"
            typer.echo(_wrapped(f"each as its name and value, separated by commas "
                                f"({first}, …), or the values alone in this order"
                                + (f"; only what changed ({first}), or Enter to "
                                   "keep it all" if question.last else "")))
        if question.nameable and question.kind in ("yes_no", "first"):  # naming.typed
            typer.echo(_wrapped("a yes may name what it picks, as you see it on the table: "
                                f"{'the number' if question.kind == 'first' else 'y'}, then "
                                "the name"))
        default = f" [{_typed_back(question)}]" if question.default not in (None, "") else ""
        while True:
            kind = "name value, …" if question.kind == "group" else hint(question)  # kinds: above
            text = self._answer(f"   ({kind}){default} > ", question)
            if text == "back":
                return BACK
            if text == "" and question.default is not None:
                return question.default
            try:
                answer, target = split(question, naming.typed(question, text))
                parsed = question.parse(answer)
                return {"answer": parsed, TARGET: target} if target else parsed
            except AnswerError as exc:
                problem(exc)

    def _answer(self, prompt: str, question: Question) -> str:
        """A line typed; `?` shows why the question is asked and reads the next."""
        while (text := self.line(prompt)) == "?":
            for line in f"why: {question.why()}".splitlines():
                typer.echo(_wrapped(line))
            if question.kind == "entities" and question.deck is None and \
                    len(question.fields) > 1:
                typer.echo(_wrapped("fields: " + "; ".join(
                    _field(f) + (f": {f.text}" if f.text != plain(f.id) else "")
                    for f in question.fields)))
        return text

    def _names(self, question: Question) -> Any:
        """A name for each target, one line each (Enter: unnamed; `back`: the question
        before)."""
        names = {}
        for field in question.fields:
            text = self._answer(f"   {field.text} > ", question)
            if text == "back":
                return BACK
            names[field.id] = text
        return question.parse(names)

    def _entities(self, question: Question) -> Any:
        if question.deck is not None:
            for line in picks.how_to_pick(question):
                typer.echo(_wrapped(line))
        elif len(question.fields) == 1:
            typer.echo(_wrapped(f"{hint(question.fields[0])}: one or more per line, separated "
                                "by commas; an empty line ends the list"))
        else:
            typer.echo(_wrapped(_how_to_enter(question)))
        if question.last:
            typer.echo("   an empty line keeps the entries of last time:")
            for item in question.default:
                typer.echo("     " + ", ".join(f"{plain(k)}={_word(v)}" for k, v in item.items()))
        for label, kept in question.known.items():
            typer.echo(f"   kept by the game for {label}: "
                       + ", ".join(f"{plain(k)}={_word(v)}" for k, v in kept.items()))
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


def _typed_back(question: Question) -> str:
    """A question's default as it would be typed (a pick of the first of several: its
    number, 0 for none; a page after an action: the numbers of those so, and the counts)."""
    if question.kind == "first":
        ids = [member.id for member in question.fields]
        return str(ids.index(question.default) + 1) if question.default in ids else "0"
    if question.kind == "after":
        return " ".join([*(str(n) for n, f in enumerate(question.fields, 1)
                           if f.kind == "yes_no" and question.default[f.id]),
                         *(f"{n}={question.default[f.id]}" for n, f in
                           enumerate(question.fields, 1) if f.kind != "yes_no")]) or "0"
    return _word(question.default)


def _word(value: Any) -> str:
    """A value as typed back (yes/no for booleans; facts asked together as `name value, …`)."""
    if isinstance(value, dict):
        return ", ".join(f"{plain(str(name))} {_word(item)}" for name, item in value.items())
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


class Typed(Terminal):
    """The terminal behind an answers file: it remembers the question it answered last, so a
    wrong answer typed there is asked again, as on the terminal alone (`typed`)."""

    answered: Question | None = None

    def __call__(self, question: Question, number: int) -> Any:
        self.answered = question
        return super().__call__(question, number)


def interactive() -> bool:
    return sys.stdin.isatty()


__all__ = ["BACK", "Ask", "Terminal", "Typed", "fitted", "hint", "interactive", "problem"]
