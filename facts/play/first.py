"""The flowchart's yes/no questions in a row, asked as one: which is the first answered yes.

A page of the procedure reads its rules top to bottom and acts on the first that applies; a
player following it by hand reads "Can bot Secure the Imperial Council?", "Can bot Influence
the Imperial Council?", … down to the first yes. The walk, deciding on what is known, reads an
unanswered judgment as its default and goes on, so when that default is no, the questions
open after it are exactly those the walk reads if it is answered no (one answered before an
action is read with that answer: a yes ends the run, the last asked in it). A run of such yes/no
questions (the same table, no roll and nothing else asked between them) is asked as one:
which is the first of these whose answer is yes? Picking one answers it yes and each one
before it no; "none" answers them all no. Those are the answers the questions one by one
would have been given, so the snapshot, and the decision, are the same. After an action, a
run that ends on a yes said before it goes on (`onward`) to the questions the walk reads once
the run is answered no now: those one at a time would ask next after those noes, so the
same holds; the yes said before is the pick offered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .question import AnswerError, Question
from .wording import as_name, plain

if TYPE_CHECKING:
    from whybot.engine import Open

FIRST = "first"  # the question's `what`, and the start of its id
NONE = "none"  # the answer: none of them is so


# what the walk reads once a run's judgments (of one action's table) are all answered no:
# its open questions, the items they ask and the table's own answers (none: it decides)
Onward = Callable[[dict[str, bool], int],
                  "tuple[list[Question], list[Open], Callable[[Open], Any]] | None"]


def first_of(questions: list[Question], opened: list[Open], after: str = "",
             by_table: Callable[[Open], Any] | None = None,
             onward: Onward | None = None) -> list[Question]:
    """The open questions with a leading run of two or more yes/no judgments the walk read as
    no (see the module docstring) asked as one; `after`: "After action 1 (…)" when the run
    is about the table an action left. `by_table(item)`: the table's own answer to an item
    (None: the player's to give); one it answers as the walk read it is passed over (it is
    given when the walk reaches it), one it answers otherwise ends the run. A run that ends on
    a yes said before an action goes on, with `onward`, to what the walk reads once every one
    of it is no now: the questions one at a time would ask after those noes."""
    run, end, carried = _run(questions, opened, by_table)
    while carried and onward is not None and \
            (found := onward({q.id: False for q in run}, run[0].layer)) is not None:
        more, more_end, carried = _run(*found)
        if not more or more[0].layer != run[0].layer:
            break
        run, questions, end = [*run, *more], found[0], more_end
    if len(run) < 2:
        return questions
    members = [replace(q, text=_own_words(q, after)) for q in run]
    text = "Which is the first of these whose answer is yes? (the procedure reads them in " \
           "this order)"
    return [Question(id=f"{FIRST}.{run[0].layer}.{run[0].id}", what=FIRST, kind=FIRST,
                     text=f"{after}: {text[0].lower()}{text[1:]}" if after else text,
                     help="Pick the first one that is so: the ones above it are no. None: no "
                          "to every one.", fields=members, layer=run[0].layer,
                     default=(last := _last_pick(run)), last=last is not None,
                     meaning=why_each(members)),
            *questions[end:]]


def _run(questions: list[Question], opened: list[Open],
         by_table: Callable[[Open], Any] | None) -> tuple[list[Question], int, bool]:
    """The leading run of `questions` (see `first_of`), where the questions after it start,
    and whether it ends on a yes said before an action (the walk read on from that yes)."""
    items = {(o.name, o.layer): o for o in opened}
    run: list[Question] = []
    for index, question in enumerate(questions):
        item = items.get((question.id, question.layer))
        if run and item is not None and by_table is not None and \
                (told := by_table(item)) is not None:
            if told == item.value:  # the walk read on from the table's answer: passed over
                continue
            return run, index, False
        if question.what != "answer" or question.kind != "yes_no" or item is None or \
                question.spec is None or question.spec.default is not False or \
                (run and question.layer != run[0].layer):
            return run, index, False
        run.append(question)
        if item.value is not False:  # a last answer yes, carried: the walk read on from a yes
            return run, index + 1, True
    return run, len(questions), False


def covers(run: Question, page: Question) -> bool:
    """Whether `run` asks every judgment of `page` (an after-action page of yes/no ones
    heading it): then the run is asked instead, one question for both."""
    return {member.id for member in page.fields} <= {member.id for member in run.fields}


def pick(question: Question, raw: Any) -> str:
    """A "first of these" answer: the judgment picked (its number, its words or its name),
    or `none`."""
    text = str(raw).strip()
    names = [member.id for member in question.fields]
    if raw is False or text.lower() in (NONE, "0", "no", "n"):
        return NONE
    if (found := member_named(question, text)) is not None:
        return found.id
    raise AnswerError(f"{text!r}: answer with the number of the first one that is so, 1 to "
                      f"{len(names)}, or 0 for none", path=question.id)


def logged_pick(question: Question, answers: dict[str, list[Any]]) -> str | None:
    """The pick a log that asked the run's questions one at a time makes (a game logged before
    runs were asked as one; `answers`: each id's logged answers in order, those used taken);
    None if it does not answer the run down to its first yes."""
    said: list[bool] = []
    for member in question.fields:
        values = answers.get(member.id)
        if not values:
            return None
        said.append(bool(values[0]))
        if said[-1]:
            break
    for member in question.fields[:len(said)]:
        answers[member.id].pop(0)
    return question.fields[len(said) - 1].id if said[-1] else NONE


def given(question: Question, value: str) -> dict[str, bool]:
    """The judgments a pick answers: the one picked yes, each before it no (`none`: all no)."""
    answers: dict[str, bool] = {}
    for member in question.fields:
        answers[member.id] = member.id == value
        if member.id == value:
            break
    return answers


def _last_pick(run: list[Question]) -> str | None:
    """The pick the answers given before an action make (each member asked again offers
    its last answer): the first said yes, or none if every one was said no; None when a
    member was not asked before it."""
    for question in run:
        if not question.last:
            return None
        if question.default:
            return question.id
    return NONE


def _own_words(question: Question, after: str) -> str:
    """A member's question without the "After action 1 (…): " the whole question says once."""
    prefix = f"{after}: "
    return question.text[len(prefix):] if after and question.text.startswith(prefix) \
        else question.text


def member_named(question: Question, text: str) -> Question | None:
    """The member of a question made of several (a run, a page) that `text` names: by its
    number, its name or its words; None if none."""
    if text.isdigit() and 1 <= int(text) <= len(question.fields):
        return question.fields[int(text) - 1]
    return next((member for member in question.fields
                 if member.id in (text, as_name(text)) or text.lower() == member.text.lower()),
                None)


def why_each(members: list[Question]) -> str:
    """What `?` says: where the procedure reads each of them, in the seed's words, and what
    its words mean (the seed's definitions, each question's help)."""
    return "\n".join(f"{number}) {plain(m.text)} {m.why()}"
                     + (f" {m.help}" if m.help and m.help != m.text else "")
                     for number, m in enumerate(members, 1))


__all__ = ["FIRST", "NONE", "Onward", "covers", "first_of", "given", "logged_pick",
           "member_named", "pick", "why_each"]
