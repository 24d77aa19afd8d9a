"""Correcting an answer given at a past turn: that turn decided again, and what follows.

`plan_fix(table, N, {"power": 3})` takes the game back to before turn N (in memory), decides
turn N again with its logged answers and dice, the corrected ones replaced (a question the
correction makes the procedure reach that nobody answered goes to `ask`, or is refused), then
decides every later turn again with its own answers on the state that now follows, and says
which decide differently. Nothing is saved until `apply_fix(table, plan, keep)`: turn N as
decided again, then — with `keep` — the later turns as decided again (up to the first that
now asks something nobody answered), or — without — none of them: they are played again.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whybot.engine import did_you_mean

from .after import AFTER, logged_page
from .first import FIRST, logged_pick
from .ledger import summary
from .naming import given_again, logged_targets, raw_of
from .question import AnswerError, Question

if TYPE_CHECKING:
    from .table import Table
    from .turn import Turn

Ask = Callable[[Question], Any]


@dataclass
class Later:
    """A turn after the corrected one, decided again on what now comes before it."""

    number: int
    bot: str
    was: dict[str, Any]  # the decision as logged
    asks: str = ""  # what it now needs that nobody answered (then it cannot be kept)
    blocked: bool = False  # a turn before it could not be decided again
    entry: dict[str, Any] = field(default_factory=dict)  # as decided again

    @property
    def differs(self) -> bool:
        return not self.entry or self.entry["decision"] != self.was

    @property
    def logged(self) -> str:
        return summary(self.was)

    @property
    def now(self) -> str:
        return summary(self.entry["decision"]) if self.entry else ""


@dataclass
class FixPlan:
    """Turn `number` decided again (`entry`) and the later turns (`later`), not saved."""

    number: int
    entry: dict[str, Any]
    was: str
    later: list[Later]

    @property
    def changed(self) -> list[Later]:
        return [t for t in self.later if t.differs]


def _logged_answers(logged: dict[str, Any]) -> dict[str, list[Any]]:
    """A logged turn's answers by question id, each in the order it was asked: a question
    asked again after an action keeps both answers (the table before and after it). A pick of
    the first of several, or a page after an action, gives what it said of each question
    (`said`), so the turn is answered alike however they are asked now (one at a time, as a
    run, or on one page: a game logged before pages is decided again as it was)."""
    answers: dict[str, list[Any]] = {}
    for asked in logged.get("asked", []):
        answers.setdefault(asked["id"], []).append(raw_of(asked))
        if isinstance(asked.get("said"), dict):  # a run's pick or a page: each question too
            for ident, value in asked["said"].items():
                answers.setdefault(ident, []).append(value)
    return answers


def _again(table: Table, logged: dict[str, Any], given: dict[str, list[Any]],
           ask: Ask | None, used: set[str] | None = None,
           ) -> tuple[dict[str, Any] | None, Question | None, str]:
    """A logged turn decided again with `given` (each id's answers, taken in the order the
    questions come) on the state as it is now: the new entry (not saved), or None, the
    question nobody answered (or answered as no longer fits) and what is wrong. `used`
    collects the ids asked."""
    used = set() if used is None else used
    answers = {ident: list(values) for ident, values in given.items()}
    turn, targets = turn_again(table, logged), logged_targets(logged)
    while (question := turn.next_question()) is not None:
        used.add(question.id)
        if question.what in (FIRST, AFTER):
            used.update(member.id for member in question.fields)
        if question.what == FIRST and (picked := logged_pick(question, answers)) is not None:
            own = answers[question.id].pop(0) if answers.get(question.id) else None
            turn.answer(question.id, given_again(question, own, picked, logged, targets))
            continue
        if question.what == AFTER and (answers.get(question.id) or any(
                answers.get(member.id) for member in question.fields)):
            paged = logged_page(question, answers)  # each one as logged (taken)...
            own = answers[question.id].pop(0) if answers.get(question.id) else None
            turn.answer(question.id, own if isinstance(own, dict) and set(own) <= {
                m.id for m in question.fields} else paged)  # ...or the page as corrected
            continue
        if question.kind == "group" and not answers.get(question.id) and \
                (values := _logged_group(question, answers)) is not None:
            turn.answer(question.id, values)  # logged otherwise grouped (an older game)
            continue
        if answers.get(question.id) and not question.again:
            try:
                turn.answer(question.id, answers[question.id].pop(0))
            except AnswerError as exc:
                if ask is None:
                    return None, question, f"{question.text} ({exc.message})"
                raise
        elif ask is not None:
            turn.answer(question.id, ask(question))
        else:
            return None, question, question.again or question.text
    return table._entry(turn.decide()), None, ""


def plan_fix(table: Table, number: int, corrections: dict[str, Any],
             ask: Ask | None = None) -> FixPlan:
    """Turn `number` with `corrections` (question id → answer; of a question the turn asked
    again after an action, the first answer; of one the flow asked before it, its answer) and
    every later turn, decided again; the game as it was (nothing saved). AnswerError: no such
    turn, or an id it was not asked."""
    corrections = dict(corrections)
    with _rewound(table, number) as logged:
        flow = logged[0].get("flow") or {}  # the flow's answers: the turn is offered anew
        logged[0] = {**logged[0], "flow": {k: corrections.pop(k, v) for k, v in flow.items()}}
        asked = _logged_answers(logged[0])
        for ident, value in _by_card(table, asked, _by_group(asked, corrections)).items():
            asked[ident] = [value, *asked.get(ident, [])[1:]]  # it replaces its first answer
        used: set[str] = set()
        entry, question, missing = _again(table, logged[0], asked, ask, used)
        used |= {fact for ident in used for value in asked.get(ident, [])[:1]
                 if isinstance(value, dict) for fact in value} | \
            set(_printed_with_pick(table, asked))
        if entry is None or question is not None:
            ident = question.id if question is not None else ""
            raise AnswerError(f"turn {number} now asks {ident!r}: {missing}", path=ident,
                              hint=f"add `{ident}:` to the corrections (a terminal asks it)")
        for ident in corrections:
            if ident not in used:
                raise AnswerError(f"turn {number} does not ask {ident!r}", path=ident,
                                  hint=did_you_mean(str(ident), set(used))
                                  or f"it asks: {', '.join(sorted(used)) or 'nothing'}")
        table._append(entry)
        later = []
        for old in logged[1:]:
            one = Later(old["turn"], old["bot"], old["decision"])
            later.append(one)
            if any(not t.entry for t in later[:-1]):
                one.blocked = True
                continue
            new, _, one.asks = _again(table, old, _logged_answers(old), None)
            if new is not None:
                one.entry = new
                table._append(new)
        return FixPlan(number, entry, summary(logged[0]["decision"]), later)


def _by_group(asked: dict[str, list[Any]], corrections: dict[str, Any]) -> dict[str, Any]:
    """The corrections, a fact the turn asked together with others (play.yaml `together:`)
    folded into that question's answer (`material: 2` corrects the bot's resources)."""
    found: dict[str, Any] = {}
    for ident, value in corrections.items():
        group = next((name for name, values in asked.items()
                      if values and isinstance(values[0], dict) and ident in values[0]
                      and name != ident), None)
        if group is None or ident in asked:
            found[ident] = value
        else:
            found[group] = {**(found.get(group) or asked[group][0]), ident: value}
    return found


def _logged_group(question: Question, answers: dict[str, list[Any]]) -> dict[str, Any] | None:
    """A group's answer from a log that asked its facts otherwise (one at a time, or in
    other groups: a game logged before they were asked as one); None if it lacks one."""
    values: dict[str, Any] = {}
    for member in question.fields:
        alone = answers.get(member.id)
        held = next((v[0] for v in answers.values()
                     if v and isinstance(v[0], dict) and member.id in v[0]), None)
        if alone:
            values[member.id] = alone[0]
        elif held is not None:
            values[member.id] = held[member.id]
        else:
            return None
    for member in question.fields:
        if answers.get(member.id):
            answers[member.id].pop(0)
    return values


def _printed_with_pick(table: Table, asked: dict[str, list[Any]]) -> dict[str, str]:
    """What the turn was told its cards print with the pick itself, as the id it goes by
    (`pips.red 6`) → the card's name."""
    deck = table.playbook.deck
    picked = (asked.get(deck.key) or [None])[0] if deck is not None else None
    return {f"{name}.{card}": card for entry in picked or []
            if deck is not None and (card := deck.name_of(entry))
            for name in deck.printed_fields() if name in entry}


def _by_card(table: Table, asked: dict[str, list[Any]],
             corrections: dict[str, Any]) -> dict[str, Any]:
    """The corrections, what a card prints that the turn was told with its pick folded into
    that card's entry (`pips.red 6: 2` corrects the cards picked)."""
    deck, told = table.playbook.deck, _printed_with_pick(table, asked)
    found: dict[str, Any] = {}
    for ident, value in corrections.items():
        if deck is None or ident not in told or ident in asked:
            found[ident] = value
            continue
        field_ = ident.partition(".")[0]
        found[deck.key] = [{**entry, field_: value} if deck.name_of(entry) == told[ident]
                           else entry for entry in found.get(deck.key) or asked[deck.key][0]]
    return found


@contextlib.contextmanager
def _rewound(table: Table, number: int) -> Iterator[list[dict[str, Any]]]:
    """The game in memory as before turn `number` (the turns taken back, in order); as it
    was again afterwards."""
    game = table.game
    if not 1 <= number <= len(game.log):
        raise AnswerError(f"no turn {number}: the log has {len(game.log)} turn(s)",
                          file=str(game.path or ""), path="--turn")
    saved = (copy.deepcopy(game.state), copy.deepcopy(game.pending), list(game.log),
             list(game.undone))
    try:
        yield [table._take_back() for _ in range(len(game.log) - number + 1)][::-1]
    finally:
        game.state, game.pending, game.log, game.undone = saved


def asked_at(table: Table, number: int) -> list[tuple[Question, Any]]:
    """The questions turn `number` asked, as asked then, with the answers given."""
    with _rewound(table, number) as logged:
        answers = [(a["id"], raw_of(a)) for a in logged[0].get("asked", [])]
        turn = turn_again(table, logged[0])
        for ident, value in answers:
            turn.answer(ident, value)
        return list(turn.answers)


def apply_fix(table: Table, plan: FixPlan, keep: bool) -> list[int]:
    """Save the corrected turn and — with `keep` — the later turns as decided again (up to
    the first that cannot be); the later turns dropped (their numbers)."""
    game = table.game
    saved = (copy.deepcopy(game.state), copy.deepcopy(game.pending), list(game.log),
             list(game.undone))
    while len(game.log) >= plan.number:
        table._take_back()
    table._append(plan.entry)
    dropped: list[int] = []
    for one in plan.later:
        if keep and one.entry and not dropped:
            table._append(one.entry)
        else:
            dropped.append(one.number)
    game.undone = []

    def restore() -> None:
        game.log, game.undone = saved[2], saved[3]
    table._save(saved[:2], restore)
    return dropped


def turn_again(table: Table, logged: dict[str, Any]) -> Turn:
    """A logged turn to decide again, given all it was given when played: its dice, the kept
    facts the player gave (`given`), the answers to the flow's questions (`flow`), and what
    the flow offered and the round told, worked out again from the log as it now stands (the
    same, unless an earlier turn changed)."""
    return table.turn(logged["bot"], logged.get("point"),
                      faces=list(logged.get("snapshot", {}).get("dice", [])), follow=True,
                      given=logged.get("given"), moves=listed_moves(table, logged),
                      flow=logged.get("flow"))


def listed_moves(table: Table, logged: dict[str, Any]) -> bool:
    """Whether a logged turn listed the bot's moves (then its answers are asked so again)."""
    return any(asked["id"] in table.move_lists for asked in logged.get("asked", []))


__all__ = ["FixPlan", "Later", "apply_fix", "asked_at", "plan_fix", "turn_again"]
