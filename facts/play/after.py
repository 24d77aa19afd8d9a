"""After an action, everything it may have changed asked on one page, the last answers given.

A multi-action card restarts its page after each action, and the walk reads again the seed's
questions it read before: "Can bot Tax to gain resources?" was answered of the table before
the Tax, and the Tax may have changed it. Those the action cannot change (play.yaml
`unchanged:`) the table carries (unasked.py); the others are asked again. Asked one at a time
they are scattered over several questions ("After action 1: which is the first of these …",
"After action 1: Can bot …?"); here they are one page: every judgment answered before action
k that the walk reads again after it and the table does not answer, in the order the walk
reads them, each with its last answer as the default ("which of these are so now?"). A page of
yes/no judgments only, each read only if the one before it is no, is asked instead as the run
of the flowchart's questions it heads (first.py: the run goes on, past a yes said before the
action, to what the walk reads once they are all no now), one question for both.

Why the decision and the snapshot are those of the same answers given one at a time. One at
a time, the next question is always the first item the walk reads that nobody gave (turn.py),
and an answer changes only what the walk reads after that item. The page's answers are held
back, and each is given only when its judgment is that first item (`open_with_pages`): every
item the walk read before it has the value it would have one at a time, so the walk reaches it
and reads it with the value the player would have given when asked. An answer for a judgment
the walk no longer reaches after action k (one before it, answered otherwise, took the walk
elsewhere) is never given: one at a time it would not have been asked, so it is not in the
snapshot; and once the walk is past action k it never will be, for nothing answered later
changes what was read before. So the snapshot, hence the decision, is the same. A judgment
the walk reaches after the action for the first time (never answered) is asked as before,
alone or in a run of yes/no questions (first.py); to find those, the walk reads the page's
held-back answers for action k in place (only k's: an unread one must not stand for a later
action's table), so the run shown is the one the page's answers lead to, and a run is sound
on any such reading (first.py). An answers file's list gives a judgment the value after those
the player said of it before in the turn (`counted`): a page's answer never given was never
said, as one never asked was never asked.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from whybot.engine import did_you_mean

from .consult import STILL_SO
from .first import FIRST, given, member_named, why_each
from .inquiry import Inquiry, said
from .question import AnswerError, Question
from .unasked import Follows, Settled, Unasked, Unchanged, open_asking_less
from .wording import plain

if TYPE_CHECKING:
    from whybot.engine import Open, Reading, Trace

AFTER = "after"  # the page's `what` and `kind`, and the start of its id (`after.N`)
KINDS = ("yes_no", "number")  # what a judgment on the page may be answered with


def paged(questions: list[Question], opened: list[Open], words: str,
          by_table: Callable[[Open], Any], answers: list[tuple[Question, Any]],
          ) -> list[Question]:
    """The open questions with the page for the action whose table the next one is about
    first (`words`: "After action 1 (…)"; none: empty), unless one was asked for it (each is
    asked once) or fewer than two judgments answered before it are read again (a single one
    is asked as it is). `by_table(item)`: the table's own answer to an item, if any."""
    page = _page(questions, opened, words, by_table,
                 {question.layer for question, _ in answers if question.what == AFTER})
    return [page, *(q for q in questions if q not in page.fields)] if page else []


def open_with_pages(inquiry: Inquiry, answers: list[tuple[Question, Any]],
                    unchanged: Mapping[str, Unchanged], settled: Iterable[Settled],
                    follows: Mapping[str, Follows], fresh: Callable[[dict[str, Any]], Inquiry],
                    ) -> tuple[list[Open], Trace | None, Reading | None, Inquiry,
                               list[Unasked]]:
    """`open_asking_less` (the table's answers given), with each answer of a page given when
    the walk reads that judgment next, as one at a time (into `inquiry.data`); the open items
    read with the page's other answers in place, for the table the action left (on a copy made
    by `fresh`, returned: the inquiry they came from). The snapshot holds only those given."""
    told: list[Unasked] = []
    while True:
        opened, trace, reading, given = open_asking_less(inquiry, unchanged, settled, follows)
        told += given
        held = _waiting(answers, inquiry.data)
        value = _reached(held, opened[0]) if opened and trace is not None else None
        if value is None:
            break
        said(inquiry.data, opened[0].layer)[opened[0].name] = value
    layer = opened[0].layer if opened else 0
    if not opened or trace is None or layer not in held:
        return opened, trace, reading, inquiry, told
    trial = fresh(copy.deepcopy(inquiry.data))  # those held back, in place
    said(trial.data, layer).update(held[layer])
    return (*open_asking_less(trial, unchanged, settled, follows)[:3], trial, told)


def _page(questions: list[Question], opened: list[Open], words: str,
          by_table: Callable[[Open], Any], asked: set[int]) -> Question | None:
    """The page for the action whose table the next question is about, or None (see
    `paged`; `asked`: the actions whose page was asked)."""
    layer = questions[0].layer if questions else 0
    if not layer or layer in asked:
        return None
    again = {o.name for o in opened if o.layer == layer and o.what == "answer" and o.again
             and by_table(o) is None}
    members = [q for q in questions if q.what == "answer" and q.layer == layer and
               q.id in again and q.kind in KINDS]
    if len(members) < 2:
        return None
    prefix = f"{words}: "
    fields = [replace(q, text=q.text.removeprefix(prefix), help=_own_help(q)) for q in members]
    counts = any(f.kind == "number" for f in fields)
    text = "which of these are so now" + (", and how many?" if counts else "?")
    return Question(id=f"{AFTER}.{layer}", what=AFTER, kind=AFTER, layer=layer,
                    text=f"{words}: {text} (the last answers are given)",
                    help="The action may have changed them: keep the last answers, or say "
                         "what is so now.", fields=fields, last=True,
                    default={f.id: f.default for f in fields}, meaning=why_each(fields))


def _own_help(question: Question) -> str:
    """A judgment's help without "Before that action: …" (the page says it once)."""
    before, asked, own = question.help.partition(STILL_SO.strip())
    return own.strip() if asked else before


def page_value(question: Question, raw: Any) -> dict[str, Any]:
    """A page's answer: each judgment's value. A mapping gives them by id (or by the
    question's words), the others keep their last answers; typed text gives the numbers of
    those that are yes (`1 3`, `0` or `none`: none) and a count as number=value (`2=1`), Enter
    keeps the last answers; a list gives those that are yes."""
    values = dict(question.default or {})
    if raw is None or raw is True or (isinstance(raw, str) and not raw.strip()):
        return values
    if raw is False:
        raw = []
    if isinstance(raw, str):
        raw = _typed(question, raw)
    if isinstance(raw, list):
        raw = {**{f.id: False for f in question.fields if f.kind == "yes_no"},
               **{_member(question, item).id: True for item in raw}}
    if not isinstance(raw, dict):
        raise AnswerError("give each one's answer (yes/no, or the count)", path=question.id)
    for key, value in raw.items():
        member = _member(question, key)
        try:
            values[member.id] = member.parse(value)
        except AnswerError as exc:
            raise AnswerError(f"{plain(member.text)} {exc.message}", path=question.id,
                              hint=exc.hint) from None
    return values


def _typed(question: Question, text: str) -> dict[str, Any]:
    """`1 3, 4=2`: the numbers of those that are yes, counts as number=value."""
    counts: dict[str, Any] = {}
    yes: list[str] | None = None
    for part in re.split(r"[,\s]+", text.strip()):
        number, equals, value = part.partition("=")
        if equals:
            counts[_member(question, number).id] = value
        elif part.lower() in ("0", "none"):
            yes = yes or []
        elif part:
            member = _member(question, part)
            if member.kind != "yes_no":
                raise AnswerError(f"{part}: a count is given as {part}=N", path=question.id)
            yes = [*(yes or []), member.id]
    given = {} if yes is None else \
        {f.id: f.id in yes for f in question.fields if f.kind == "yes_no"}
    return {**given, **counts}


def _member(question: Question, key: Any) -> Question:
    """The judgment a page's answer names: by its number, its id or its words."""
    text = str(key).strip()
    if (member := member_named(question, text)) is not None:
        return member
    raise AnswerError(f"{text!r} is not on this page: 1 to {len(question.fields)}",
                      path=question.id,
                      hint=did_you_mean(text, {f.id for f in question.fields}))


def _waiting(answers: list[tuple[Question, Any]], data: dict[str, Any],
             ) -> dict[int, dict[str, Any]]:
    """The pages' answers the walk has not reached yet (not given: see the module
    docstring), by action."""
    found = {question.layer: {name: v for name, v in value.items()
                              if name not in _said_at(data, question.layer)}
             for question, value in answers if question.what == AFTER}
    return {layer: values for layer, values in found.items() if values}


def _reached(held: dict[int, dict[str, Any]], item: Open) -> Any:
    """The page's answer to `item` when the walk reads it next (None: it has none)."""
    if item.what != "answer" or not item.again:
        return None
    return held.get(item.layer, {}).get(item.name)


def counted(questions: list[Question], answers: list[tuple[Question, Any]],
            data: dict[str, Any]) -> list[Question]:
    """The questions, each judgment (a run's or a page's too) with the times the player said
    it before this turn, of the tables before its own (a review kept as said last time says
    it too, and the page of the bot's standing, of the card's start): an answers file's list
    gives the next value, as one asked one at a time takes it (a page's answer the walk never
    read was never said)."""
    def one(question: Question) -> Question:
        if question.what in (FIRST, AFTER):
            return replace(question, fields=[one(f) for f in question.fields])
        if question.what != "answer" or not question.layer:
            return question
        return replace(question, times_said=sum(
            1 for earlier, value in answers if earlier.layer < question.layer and (
                (earlier.what == "answer" and earlier.id == question.id) or
                (earlier.what == "review" and value and question.id in earlier.known) or
                (earlier.what == FIRST and question.id in given(earlier, value)) or
                (earlier.what == "group" and question.id in value) or
                (earlier.what == AFTER and question.id in value and
                 question.id in _said_at(data, earlier.layer)))))
    return [one(question) for question in questions]


def _said_at(data: dict[str, Any], layer: int) -> dict[str, Any]:
    """What the snapshot holds as said of the table `layer` actions in (nothing yet: empty)."""
    later = data.get("answers_after", [])
    return data.get("answers", {}) if not layer else \
        later[layer - 1] if layer <= len(later) else {}


def logged_page(question: Question, answers: dict[str, list[Any]]) -> dict[str, Any]:
    """The page's answer from a log that asked its judgments one at a time (a game logged
    before they were asked on one page; `answers`: each id's logged answers in order, those
    used taken): each one's next logged answer, else its last answer."""
    values = dict(question.default or {})
    for member in question.fields:
        if answers.get(member.id):
            values[member.id] = answers[member.id].pop(0)
    return values


def page_words(question: Question, value: dict[str, Any]) -> str:
    """A page's answer as the player reads it: those that are so, and the counts."""
    said_of = [f.text if f.kind == "yes_no" else f"{plain(f.text)} {value.get(f.id)}"
               for f in question.fields if f.kind != "yes_no" or value.get(f.id)]
    return "; ".join(said_of) or "none of these"


__all__ = ["AFTER", "counted", "logged_page", "open_with_pages", "page_value", "page_words",
           "paged"]
