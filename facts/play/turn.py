"""One bot decision at the table: ask what the walk reaches, one question at a time, then decide.

A `Turn` starts from what the game file knows (the standing state, what a stopped card
carries, the pack's fixed snapshot values) and the answers given so far, in order. Its next
question is always the first fact the walk reads that nobody gave (`inquiry.py`), so it never
asks what is known, what a derivation computes, or what no reachable rule reads. With dice at
the table (`dice="table"`), a roll the answers do not cover is asked too (the faces rolled);
otherwise the game's seed for this turn rolls it. A Turn is a pure function of its answers: a
web page can rebuild it from a form on every request.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from whybot.engine import NOTHING_INSTEAD, Open, Reading, SnapshotError, Trace

from .after import AFTER, counted, open_with_pages, paged
from .asking import facts_of, label_of, question_for, with_dice
from .consult import REVIEW, action_words, assumed_at_table, review
from .first import FIRST, Onward, covers, first_of, given
from .inquiry import Inquiry, said
from .naming import logged, names_in, parsed, to_name, with_nameable, with_names
from .printed import check_drawn, give_printed, said_this_turn, unprinted
from .question import AnswerError, Question
from .standing import asked_as_one, give_together
from .told import told_needed
from .unasked import Unasked, open_asking_less, told_by_table
from .wording import plain

if TYPE_CHECKING:
    from .table import Table

DICE_MODES = ("roll", "table")


@dataclass
class TurnResult:
    """A decided turn, ready for `Table.record`: the full snapshot (dice included, so a replay
    decides the same), the explained trace, what the walk left on the board."""

    number: int
    bot: str
    point: Any
    snapshot: dict[str, Any]
    trace: Trace
    reading: Reading
    asked: list[dict[str, Any]]
    unasked: list[Unasked]  # answered by the table, not asked (unasked.py)
    given: dict[str, Any]  # kept facts the player gave again, not asked (logged for a replay)
    flow: dict[str, Any]  # the flow's questions answered on the way to it (offer.py)


class Turn:
    """Questions and answers for one decision of `bot` (see the module docstring)."""

    def __init__(self, table: Table, bot: str, point: Any = None, dice: str = "roll",
                 answers: list[tuple[str, Any]] | None = None, seed: int | None = None,
                 faces: list[int] | None = None, given: dict[str, Any] | None = None,
                 moves: bool = False, offered: dict[str, Any] | None = None) -> None:
        if dice not in DICE_MODES:
            raise ValueError(f"dice is one of {DICE_MODES}")
        self.table, self.bot, self.point, self.dice = table, bot, point, dice
        # every move listed, rather than the seed's questions asked (a turn decided again
        # from its answers lists them if it did)
        self.moves = moves or any(ident in table.move_lists for ident, _ in answers or [])
        self.number = len(table.game.log) + 1
        # the game's seed for this turn, unless given: the log keeps the faces either way
        self.seed = table.game.seed + self.number if seed is None else seed
        # offered: by the flow and the round (worked out again from the log); given: by the
        # player, replacing kept values (logged, so the turn decided again is given them too)
        self.given = dict(given or {})
        self.told: dict[str, Unasked] = {}  # what the game gave it, with why (Table.turn)
        self.flow: dict[str, Any] = {}  # the flow's questions that led to it (Table.turn)
        self.base = {**table.snapshot_for(bot, point), **(offered or {}), **self.given}
        if faces:  # rolled already (a turn decided again): the seed rolls only beyond them
            self.base["dice"] = list(faces)
        self.answers: list[tuple[Question, Any]] = []
        self.targets: dict[int, dict[str, str]] = {}  # by answer's place: its yeses' targets
        self._open: tuple[list[Question], Trace | None, Reading | None] | None = None
        self._state_trace: Trace | None = None  # the decision the open questions came from
        self.unasked: list[Unasked] = []  # answers the table gave, not the player
        self.inquiry = self._inquiry(copy.deepcopy(self.base))
        for ident, value in answers or []:
            self.answer(ident, value)

    # --- the questions ---------------------------------------------------------------------

    def _inquiry(self, data: dict[str, Any]) -> Inquiry:
        origin = str(self.table.game.path or f"{self.table.game.name or 'game'}.yaml")
        listed = self.moves or any(key in data for key in self.table.move_lists)
        return Inquiry(self.table.engine, data, origin, seed=self.seed,
                       ask=self.table.playbook.ask,
                       instead=NOTHING_INSTEAD if listed else self.table.instead)

    def questions(self) -> list[Question]:
        """Every question open now, the next one first (the later ones may go away once it
        is answered: they are what the walk read after it)."""
        return self._state()[0]

    def next_question(self) -> Question | None:
        found = self.questions()
        return found[0] if found else None

    def _state(self) -> tuple[list[Question], Trace | None, Reading | None]:
        if self._open is None and (card := unprinted(self.table, self.inquiry.data)):
            self._open = [card], None, None
        if self._open is None:
            book = self.table.playbook
            opened, trace, reading, inquiry = self._opened()
            self._state_trace = trace
            questions = self._asked(self.inquiry.data, opened, trace, reading)
            told = told_by_table(book, inquiry, trace, reading) if trace and reading else None
            questions = asked_as_one(self.table, self.bot, inquiry, questions, opened, told, trace)
            if questions and told is not None and trace is not None:
                words = action_words(trace, questions[0].layer) if questions[0].layer else ""
                page = paged(questions, opened, words, told, self.answers)
                if not page or all(f.kind == "yes_no" for f in page[0].fields):  # as one run?
                    run = first_of(questions, opened, words, told, self._onward(inquiry))
                    page = run if not page or covers(run[0], page[0]) else page
                questions = with_nameable(page, self.table.nameable)
            if not questions and trace is not None:
                questions = self._again(trace) or to_name(
                    self.table.engine.pack, book.consult, trace, self.asked())
            elif questions and all(q.id != REVIEW for q, _ in self.answers) and \
                    self._told_by(questions[0]) & set(unsaid := self._unsaid()):
                questions = [review(unsaid, book.together.values(),
                                    self.table.engine.pack.facts.judgments), *questions]
            self._open = counted(questions, self.answers, self.inquiry.data), trace, reading
        return self._open

    def _opened(self) -> tuple[list[Open], Trace | None, Reading | None, Inquiry]:
        """What is open once the table's answers, and a page's the walk reaches, are given."""
        book = self.table.playbook
        opened, trace, reading, inquiry, given = open_with_pages(
            self.inquiry, self.answers, book.unchanged, book.settled, book.follows,
            self._inquiry)
        self.unasked += given
        return opened, trace, reading, inquiry

    def _onward(self, inquiry: Inquiry) -> Onward:
        """What the walk reads from `inquiry` once a run's judgments are all no (first.py)."""
        book = self.table.playbook
        def onward(noes: dict[str, bool], layer: int) -> Any:
            trial = self._inquiry(copy.deepcopy(inquiry.data))
            said(trial.data, layer).update(noes)
            opened, trace, reading, _ = open_asking_less(trial, book.unchanged, book.settled,
                                                         book.follows)
            return None if trace is None or reading is None else (
                self._asked(trial.data, opened, trace, reading), opened,
                told_by_table(book, trial, trace, reading))
        return onward

    def _asked(self, data: dict[str, Any], opened: list[Open], trace: Trace | None,
               reading: Reading | None) -> list[Question]:
        """The open items' questions, with the dice rolled at the table where the walk rolls."""
        questions = [question_for(self.table, self.bot, data, o, trace) for o in opened]
        if trace is None or reading is None or self.dice != "table":
            return questions
        return with_dice(opened, questions, trace, reading, len(data.get("dice", [])))

    def _told_by(self, question: Question) -> set[str]:
        """What the player tells by answering `question`, or that its answer follows from
        (play.yaml `follows:`): said on an earlier turn, it is offered for review first."""
        names = set(facts_of(question))
        follows = self.table.playbook.follows
        return names.union(*(follows[name].told for name in names if name in follows))

    def _unsaid(self) -> dict[str, Any]:
        """What the player said on earlier turns that this turn has not been given yet."""
        given = {**self.inquiry.data, **self.inquiry.data.get("answers", {})}
        return {name: value for name, value in self.table.said(self.bot).items()
                if name not in given}

    def _again(self, trace: Trace) -> list[Question]:
        """A stop that decides nothing (the pack's `undecided:`): what it lacks, asked again,
        with what the procedure says is missing."""
        names = self.table.playbook.undecided.get(trace.decision.result, [])
        says = trace.decision.say or [""]
        why = plain(str(says[-1])) or "the procedure stopped before deciding"
        pack = self.table.engine.pack
        kinds = {spec.key: kind for kind, spec in pack.facts.entities.items() if spec.key}
        again = []
        for name in names:
            item = Open("list", name, [], "", "", "", kinds[name]) if name in kinds \
                else Open("fact", name, None, pack.facts.board[name].says, "", "")
            asked = question_for(self.table, self.bot, self.inquiry.data, item, trace)
            again.append(replace(asked, again=why, help=f"Not decided yet: {why}"))
        return again

    def undecided(self) -> str:
        """Why the procedure cannot decide on the answers given (empty: it can)."""
        questions = self.questions()
        return questions[0].again if questions else ""

    # --- answering -------------------------------------------------------------------------

    def answer(self, ident: str, raw: Any) -> Any:
        """Answer the question `ident` (it must be the next one; a yes may name its target,
        naming.py); the value as kept, or AnswerError (nothing changes)."""
        question = self.next_question()
        if question is None:
            raise AnswerError(f"nothing is asked now (answer to {ident!r} given)", path=ident)
        if question.id != ident:
            raise AnswerError(f"the question now is {question.id!r}, not {ident!r}",
                              path=ident, hint="answers go in the order they are asked")
        value, target = parsed(question, raw)
        trial = copy.deepcopy(self.inquiry.data)
        self._give(trial, question, value)
        check_drawn(self.table, question, value, trial, self.answers)
        try:
            self._inquiry(trial).check()
        except SnapshotError as exc:
            raise AnswerError(exc.message, path=exc.path or ident, hint=exc.hint) from None
        self.inquiry.data = trial
        if target:
            self.targets[len(self.answers)] = target
        self.answers.append((question, value))
        self._open = None
        return value

    def _give(self, data: dict[str, Any], question: Question, value: Any) -> None:
        if question.what == "name":
            return  # the decision's target as the table names it: not a fact of the snapshot
        if question.what == AFTER:
            return  # given as the walk reaches each (`_opened`)
        if question.what == "review":
            if value:  # all of it still so: as the player said it last time (a judgment:
                for name, known in question.known.items():  # said of the card's start)
                    (said(data, 0) if known.get("judged") else data).setdefault(
                        name, known["value"])
        elif question.what == "answer":
            said(data, question.layer)[question.id] = value
        elif question.what == FIRST:  # the first of a run answered yes, those above it no
            said(data, question.layer).update(given(question, value))
        elif question.what == "group":  # facts asked together: each given (standing.py)
            give_together(data, question, value)
        elif question.what == "dice":
            data["dice"] = [*data.get("dice", []), *value]
        elif question.what == "printed":  # what a card new to the game shows
            give_printed(self.table.playbook.deck, data, question, value)
        elif question.what == "list":
            known = question.known if question.deck is None else \
                {**said_this_turn(question.deck, data), **question.printed}
            data[question.id] = [{**known.get(label_of(item, question), {}), **item}
                                 for item in value]
        else:
            data[question.id] = value

    def back(self) -> Question | None:
        """Take back the last answer (it will be asked again); the question it answered."""
        if not self.answers:
            return None
        question, _ = self.answers.pop()
        self.targets.pop(len(self.answers), None)
        data = copy.deepcopy(self.base)
        for earlier, value in self.answers:
            self._give(data, earlier, value)
        self.inquiry.data = data
        self.unasked = []  # given again as the walk reaches them
        self._open = None
        return question

    def asked(self) -> list[dict[str, Any]]:
        """The answers, as the log keeps them (a pick of a run, or a page, also says what it
        answered; a yes, the target it named)."""
        return [{"id": q.id, "value": v, **({"said": given(q, v)} if q.what == FIRST else
                                            {"said": v} if q.what == AFTER else {}),
                 **logged(self.targets.get(n), q)}
                for n, (q, v) in enumerate(self.answers)]

    # --- deciding --------------------------------------------------------------------------

    def decide(self) -> TurnResult:
        """The decision, once nothing is open: decided again with every die written into
        the snapshot, and explained."""
        questions, trace, _ = self._state()
        if questions or trace is None:
            what = questions[0].again or (f"{len(questions)} question(s) still open, the "
                                          f"next {questions[0].text!r}")
            raise AnswerError(f"not decided, nothing saved: {what}", path=questions[0].id)
        snapshot = copy.deepcopy(self.inquiry.data)
        snapshot["dice"] = [face for roll in trace.dice for face in roll.faces]
        final = self._inquiry(snapshot)
        situation = final.situation()
        reading = Reading()
        engine = self.table.engine
        decided = engine.decide(situation, seed=self.seed, reading=reading)
        explained = with_names(engine.pack, decided, names_in(self.asked(), decided))
        explained.assumed = assumed_at_table(self.table, situation, explained, reading)
        point = self.table.playbook.point
        at = situation.board.get(point) if point else None
        told = told_needed(self, situation, explained, reading)  # the game's, not asked
        return TurnResult(self.number, self.bot, at, snapshot, explained, reading, self.asked(),
                          [*self.unasked, *told], self.given, self.flow)


__all__ = ["DICE_MODES", "Turn", "TurnResult"]
