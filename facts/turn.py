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

from .consult import (
    REVIEW,
    acted_on,
    action_review,
    after_action,
    assumed_at_table,
    definitions,
    names_in,
    naming,
    review,
    with_names,
)
from .inquiry import Inquiry, first_unrolled, said
from .question import AnswerError, Question, field_question, list_question
from .unasked import Unasked, open_asking_less
from .wording import plain, reason

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


class Turn:
    """Questions and answers for one decision of `bot` (see the module docstring)."""

    def __init__(self, table: Table, bot: str, point: Any = None, dice: str = "roll",
                 answers: list[tuple[str, Any]] | None = None, seed: int | None = None,
                 faces: list[int] | None = None, given: dict[str, Any] | None = None,
                 moves: bool = False) -> None:
        if dice not in DICE_MODES:
            raise ValueError(f"dice is one of {DICE_MODES}")
        self.table, self.bot, self.point, self.dice = table, bot, point, dice
        # every move listed, rather than the seed's questions asked (a turn decided again
        # from its answers lists them if it did)
        self.moves = moves or any(ident in table.move_lists for ident, _ in answers or [])
        self.number = len(table.game.log) + 1
        # the game's seed for this turn, unless given: the log keeps the faces either way
        self.seed = table.game.seed + self.number if seed is None else seed
        self.base = {**table.snapshot_for(bot, point), **(given or {})}  # given: by the flow
        if faces:  # rolled already (a turn decided again): the seed rolls only beyond them
            self.base["dice"] = list(faces)
        self.answers: list[tuple[Question, Any]] = []
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
        if self._open is None:
            book = self.table.playbook
            opened, trace, reading, given = open_asking_less(self.inquiry, book.unchanged,
                                                             book.settled)
            self.unasked += given
            self._state_trace = trace
            questions = [self._question(o) for o in opened]
            if trace is not None and reading is not None and self.dice == "table":
                questions = self._with_dice(opened, questions, trace, reading)
            if not questions and trace is not None:
                questions = self._again(trace) or self._naming(trace)
            elif questions and not self._reviewed() and \
                    questions[0].id in (unsaid := self._unsaid()):
                questions = [review(unsaid), *questions]
            elif questions and trace is not None and (held := self._held(opened, trace)):
                questions = [action_review(self.table.engine.pack, opened[0].layer, held,
                                           trace), *questions]
            self._open = questions, trace, reading
        return self._open

    def _with_dice(self, opened: list[Open], questions: list[Question], trace: Trace,
                   reading: Reading) -> list[Question]:
        """Dice rolled at the table are asked where the walk rolls them: after the facts it
        read before the roll (what it reads after may depend on the faces)."""
        given = len(self.inquiry.data.get("dice", []))
        roll = first_unrolled(trace, given)
        if roll is None:
            return questions
        index = next((i for i, r in enumerate(trace.dice) if r is roll["roll"]), None)
        step = reading.roll_steps[index] if index is not None and \
            index < len(reading.roll_steps) else len(trace.steps)
        pairs = list(zip(opened, questions, strict=True))
        return [*(q for o, q in pairs if o.step <= step), self._dice_question(roll),
                *(q for o, q in pairs if o.step > step)]

    def _question(self, item: Open) -> Question:
        return self._remembered(self._asked(item))

    def _asked(self, item: Open) -> Question:
        pack, book = self.table.engine.pack, self.table.playbook
        why = reason(pack, item.rule, item.page)
        if item.what == "list":
            entity = pack.facts.entities[item.kind]
            return list_question(item.name, entity, pack, book.hidden.get(item.kind, []),
                                 book.wording(item.name), self.table.kept_labels(self.bot,
                                                                                 item.kind),
                                 **why)
        if item.what == "answer":
            spec = pack.facts.judgments[item.name]
            question = field_question(spec, pack, item.name, "answer",
                                      book.wording(item.name), layer=item.layer, **why)
            if item.name in self.table.instead and (terms := definitions(
                    self.table.engine, item.name, book.terms)):
                question = _with(question, help=f"In the seed's words: {terms}")
            return after_action(question, item, self._state_trace) if item.layer else question
        spec = pack.facts.board[item.name]
        question = field_question(spec, pack, item.name, "fact", book.wording(item.name),
                                  **why)
        if spec.refers:  # it names a listed entity: those listed are the choices
            names = [e.get(f) for kind, f in spec.refers
                     for e in self.inquiry.data.get(pack.facts.entities[kind].key or "", [])
                     if isinstance(e, dict) and e.get(f)]
            question = _with(question, kind="choice", choices=[*(spec.enum or []), *names])
        return question

    def _remembered(self, question: Question) -> Question:
        """A fact or list the player said on an earlier turn (the pack's `remember:`): asked
        again, the last answer offered as the default to keep or change."""
        said = self.table.said(self.bot).get(question.id)
        if said is None or question.again:
            return question
        if isinstance(said, list):
            said = [{**item, **question.known.get(_label_of(item, question), {})}
                    for item in said]
            shown = f"{len(said)} entr{'y' if len(said) == 1 else 'ies'}"
        else:
            shown = plain(str(said)) if not isinstance(said, bool) else \
                ("yes" if said else "no")
        return _with(question, default=said, last=True,
                     help=f"Last time: {shown}. Anything changed? Keep it or give the new "
                          f"value. {question.help}".strip())

    def _naming(self, trace: Trace) -> list[Question]:
        named = names_in(self.asked())
        return [q for q in naming(self.table.engine.pack, self.table.playbook.consult, trace)
                if q.id not in named]

    def _reviewed(self) -> bool:
        return any(question.id == REVIEW for question, _ in self.answers)

    def _held(self, opened: list[Open], trace: Trace) -> dict[str, Any]:
        """After action k, the questions answered before it that the page reads again, but
        not those the rule that took it read (the action may well have changed those):
        offered at once, unless offered already."""
        first = opened[0] if opened else None
        if first is None or not first.again or \
                any(q.id == f"{REVIEW}.{first.layer}" for q, _ in self.answers):
            return {}
        fired = acted_on(trace, first.layer)
        return {o.name: o.value for o in opened
                if o.layer == first.layer and o.again and o.name not in fired}

    def _unsaid(self) -> dict[str, Any]:
        """What the player said on earlier turns that this turn has not been given yet."""
        return {name: value for name, value in self.table.said(self.bot).items()
                if name not in self.inquiry.data}

    def _again(self, trace: Trace) -> list[Question]:
        """A stop that decides nothing (the pack's `undecided:`): what it lacks, asked again,
        with what the procedure says is missing."""
        names = self.table.playbook.undecided.get(str(trace.decision.get("result")), [])
        says = trace.decision.get("say") or [""]
        why = plain(str(says[-1])) or "the procedure stopped before deciding"
        pack = self.table.engine.pack
        kinds = {spec.key: kind for kind, spec in pack.facts.entities.items() if spec.key}
        again = []
        for name in names:
            item = Open("list", name, [], "", "", "", kinds[name]) if name in kinds \
                else Open("fact", name, None, pack.facts.board[name].says, "", "")
            again.append(_with(self._question(item), again=why,
                               help=f"Not decided yet: {why}"))
        return again

    def undecided(self) -> str:
        """Why the procedure cannot decide on the answers given (empty: it can)."""
        questions = self.questions()
        return questions[0].again if questions else ""

    def _dice_question(self, roll: dict[str, Any]) -> Question:
        count, _, sides = str(roll["dice"]).partition("d")
        index = len(self.inquiry.data.get("dice", []))
        return Question(id=f"dice.{index}", what="dice", kind="dice",
                        text=plain(f"Roll {int(count) - roll['skip']}d{sides}: {roll['for']}"),
                        help=plain(str(roll["for"])), count=int(count) - roll["skip"],
                        sides=int(sides))

    # --- answering -------------------------------------------------------------------------

    def answer(self, ident: str, raw: Any) -> Any:
        """Answer the question `ident` (it must be the next one); the value as kept, or
        AnswerError (nothing changes)."""
        question = self.next_question()
        if question is None:
            raise AnswerError(f"nothing is asked now (answer to {ident!r} given)", path=ident)
        if question.id != ident:
            raise AnswerError(f"the question now is {question.id!r}, not {ident!r}",
                              path=ident, hint="answers go in the order they are asked")
        value = question.parse(raw)
        trial = copy.deepcopy(self.inquiry.data)
        self._give(trial, question, value)
        try:
            self._inquiry(trial).check()
        except SnapshotError as exc:
            raise AnswerError(exc.message, path=exc.path or ident, hint=exc.hint) from None
        self.inquiry.data = trial
        self.answers.append((question, value))
        self._open = None
        return value

    def _give(self, data: dict[str, Any], question: Question, value: Any) -> None:
        if question.what == "name":
            return  # the decision's target as the table names it: not a fact of the snapshot
        if question.what == "review":
            if value and question.layer:  # still so after that action: said of it again
                said(data, question.layer).update(
                    {name: known["value"] for name, known in question.known.items()})
            elif value:  # all of it still so: given, as the player said it last time
                data.update({name: known["value"] for name, known in question.known.items()
                             if name not in data})
        elif question.what == "answer":
            said(data, question.layer)[question.id] = value
        elif question.what == "dice":
            data["dice"] = [*data.get("dice", []), *value]
        elif question.what == "list":
            data[question.id] = [{**question.known.get(_label_of(item, question), {}), **item}
                                 for item in value]
        else:
            data[question.id] = value

    def back(self) -> Question | None:
        """Take back the last answer (it will be asked again); the question it answered."""
        if not self.answers:
            return None
        question, _ = self.answers.pop()
        data = copy.deepcopy(self.base)
        for earlier, value in self.answers:
            self._give(data, earlier, value)
        self.inquiry.data = data
        self.unasked = []  # given again as the walk reaches them
        self._open = None
        return question

    def asked(self) -> list[dict[str, Any]]:
        return [{"id": q.id, "value": v} for q, v in self.answers]

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
        snapshot["dice"] = [face for roll in trace.dice for face in roll["faces"]]
        final = self._inquiry(snapshot)
        situation = final.situation()
        reading = Reading()
        engine = self.table.engine
        explained = with_names(engine.pack, engine.decide(situation, seed=self.seed,
                                                          reading=reading),
                               names_in(self.asked()))
        explained.assumed = assumed_at_table(self.table, situation, explained, reading)
        point = self.table.playbook.point
        at = situation.board.get(point) if point else None
        return TurnResult(self.number, self.bot, at, snapshot, explained, reading, self.asked(),
                          self.unasked)


def _label_of(item: dict[str, Any], question: Question) -> str:
    return str(item.get(question.label, ""))


def _with(question: Question, **changes: Any) -> Question:
    return replace(question, **changes)


__all__ = ["DICE_MODES", "Turn", "TurnResult"]
