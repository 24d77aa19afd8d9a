"""A bot's standing on one page: the facts the game remembers of a bot and the table
(play.yaml `remember:`), asked together the first time a turn reaches one of them.

A pack marks the page as a group of the remembered facts (`together:` with `remembered:
true`). When the next question is a remembered fact or count that nobody has said for this
bot, the page asks with it every other one the rules of this decision point can read
(`can_read`: the rules of every page its walk can reach, whatever the answers not given yet),
not only those the walk has read so far: a walk reads the power markers, the bonus cards and
the bot's starports at different stops, some only after a roll or an action, and each would
be a question of its own. Left off the page: what anybody said (offered as it was: "Since
the last turn …", consult.py), what the table answers itself (unasked.py), what the walk
never asks (an observation the pack does not ask, a judgment it derives), and a list (the
cards, the Golems: a table inside a form is no page a player fills in).

Once answered, the game remembers the page's values like any answer: the bot's later turns
ask only whether they changed. A count given here is said of the card's start: after an action
that can change it, the walk asks it again (after.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from whybot.engine import NAME, Open, Reading, Situation, Trace, can_read

from .asking import as_one, grouped, side_by_side, unit_of, unread_of
from .inquiry import said
from .question import Question
from .together import Together
from .unasked import followed, settled

if TYPE_CHECKING:
    from .inquiry import Inquiry
    from .table import Table

ASKED = ("fact", "answer")  # an observation, or a judgment asked as the seed's question


def asked_as_one(table: Table, bot: str, inquiry: Inquiry, questions: list[Question],
                   opened: list[Open], by_table: Callable[[Open], Any] | None,
                   trace: Trace | None) -> list[Question]:
    """`questions` (of a turn of `bot`; `opened`: the walk's items, `by_table`: what the table
    answers of one; `inquiry`: the snapshot so far, `trace`: the decision they came from) with
    the page of the bot's standing first when the next one opens it, else with the next one's
    group (asking.grouped)."""
    unread = unread_of(table, bot, inquiry.data, trace)
    return _with_standing(table, bot, inquiry, questions, opened, by_table, unread) or \
        grouped(table, questions, unread)


def give_together(data: dict[str, Any], question: Question, value: dict[str, Any]) -> None:
    """Facts asked together, each given where a snapshot holds it: a count (a judgment) as
    said of the card's start (`answers:`)."""
    for asked in question.fields:
        (said(data, 0) if asked.what == "answer" else data)[asked.id] = value[asked.id]


def _with_standing(table: Table, bot: str, inquiry: Inquiry, questions: list[Question],
                   opened: list[Open], by_table: Callable[[Open], Any] | None,
                   unread: Callable[[str], Question | None]) -> list[Question] | None:
    """`questions` with the page of the bot's standing first, when the next one opens it;
    None when it does not (`unread`: a fact's question before the walk reads it)."""
    first = questions[0] if questions else None
    page = next((g for g in table.playbook.together.values() if g.remembered), None)
    if first is None or page is None or not _unsaid(first, page):
        return None
    answered = {o.name for o in opened
                if o.what in ASKED and by_table is not None and by_table(o) is not None}
    members = {q.id: q for q in questions if _unsaid(q, page) and q.id not in answered}
    members.update((name, found) for name in _readable(table, bot, inquiry, page)
                   if name not in members and (found := unread(name)) is not None)
    groups = table.playbook.together.values()
    fields = side_by_side(groups, list(members.values()))
    if len({unit_of(groups, f.id) for f in fields}) < 2:
        return None
    # each fact shows its own question: no group's help (a power track's) beside them
    whole = Together(page.name, tuple(f.id for f in fields), page.ask)
    return as_one(table, whole, fields, questions[1:])


def _unsaid(question: Question, page: Together) -> bool:
    """A remembered fact or count of the table before any action, nobody has said."""
    return question.what in ASKED and not question.layer and not question.last and \
        question.id in page.facts


def _readable(table: Table, bot: str, inquiry: Inquiry, page: Together) -> list[str]:
    """The page's facts the rules of this decision point can read, in the order they read
    them, that the walk would ask and nobody gave or said, nor the table answers itself."""
    situation = inquiry.known()
    given = {name: value for name, value in situation.board.items()
             if name not in situation.defaulted}
    judgments, said = table.engine.pack.facts.judgments, table.said(bot)
    told = _told_before_walk(table, situation)
    found = []
    for what, name in can_read(table.engine, given, inquiry.instead):
        if what != NAME or name not in page.facts or name in said:
            continue
        judged = name in judgments
        if name in situation.answers if judged else name not in situation.defaulted:
            continue  # given (an observation not asked: at its default, as the walk reads it)
        if told(Open("answer" if judged else "fact", name, None, "", "", "")) is None:
            found.append(name)
    return found


def _told_before_walk(table: Table, situation: Situation) -> Callable[[Open], Any]:
    """What the table itself answers of an item on the table before any action (None: the
    player's to give): what follows from what the game was told, or what a `settled:`
    condition answers on the board the snapshot gives (as the walk leaves it, it may not:
    then the walk asks it when it reads it, or the table answers it)."""
    book, before = table.playbook, Reading()  # no walk: the board as the snapshot gives it

    def told(item: Open) -> Any:
        found = settled(list(book.settled), item, situation, before) or \
            followed(book.follows, item, situation)
        return found.value if found else None
    return told


__all__ = ["asked_as_one", "give_together"]
