"""Building a snapshot by asking only what the procedure reaches.

Start from what is known (a game's standing state, the answers given so far), decide, and take
the first fact the walk reached that nobody gave (`engine/walk/facts_read.py`, reading order); ask
it, decide again, and repeat until nothing is open. Each question is then one the procedure truly
reaches given the answers before it; nothing a derivation computes, and nothing no reachable
rule reads, is ever asked. Dice work the same way: a roll the known dice do not cover is asked
for (physical dice) or rolled (seeded), then the procedure is followed again.

The same loop serves `whybot play` (a person answers), its `--answers` files, and the tests
that check that answering every question with an example's own values decides as the example.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from whybot.engine import (
    NOTHING_INSTEAD,
    Document,
    Engine,
    Instead,
    Open,
    Reading,
    Situation,
    Trace,
    open_facts,
)

from ..includes import with_includes as _included
from ..snapshot import missing_required, situation_from, unlisted_referred

Answer = Callable[[Open, "Inquiry"], Any]
Roll = Callable[[dict[str, Any], "Inquiry"], list[int]]


@dataclass
class Asked:
    """One question asked and the answer given."""

    question: Open
    value: Any

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.question.name, "what": self.question.what, "value": self.value,
                "rule": self.question.rule}


@dataclass
class Inquiry:
    """A snapshot being built for one decision of `engine`'s pack.

    `data` is the snapshot as a mapping (what is known so far); `origin` the file its
    `include:` paths are relative to; `ask` facts asked whenever the walk reads them although
    the pack's default is no assumption (a play section's `ask:`); `instead` the judgments
    asked as the seed's questions rather than the list of moves they are derived from
    (`reach.Instead`)."""

    engine: Engine
    data: dict[str, Any]
    origin: str
    seed: int | None = None
    ask: Collection[str] = ()
    instead: Instead = NOTHING_INSTEAD  # judgments asked instead of the moves they come from
    asked: list[Asked] = field(default_factory=list)
    rolled: list[dict[str, Any]] = field(default_factory=list)

    def situation(self, later: Collection[str] = ()) -> Situation:
        """The snapshot as a decision reads it; a required fact of `later` not given yet at
        its default, as one to be asked (`defaulted`)."""
        situation = situation_from(Document(data=self.data, file=self.origin), self.engine.pack,
                                   asking=True, later=later)
        situation.defaulted |= {name for name in [*self.ask, *later]
                                if name not in self.data and name in situation.board}
        return situation

    def known(self) -> Situation:
        """What the snapshot gives so far, checked together (each value against its field
        and the others); a required fact not given yet is no problem here: it is asked next."""
        return self.situation([o.name for o in self.required() if o.what == "fact"])

    def check(self) -> None:
        """The answers so far, checked together (`known`): SnapshotError if they do not fit."""
        self.known()

    def decide(self) -> tuple[Situation, Trace, Reading]:
        situation = self.situation()
        reading = Reading()
        trace = self.engine.decide(situation, seed=self.seed, explain=False, reading=reading)
        return situation, trace, reading

    def required(self) -> list[Open]:
        """Facts the snapshot must give before anything can be decided (a decision point, a
        value `required_when` the facts given so far make necessary, the lists of entities a
        value given names)."""
        pack = self.engine.pack
        board = pack.facts.board
        kinds = {spec.key: kind for kind, spec in pack.facts.entities.items() if spec.key}
        missing = [Open("fact", name, None, board[name].says, "", "")
                   for name in missing_required(self.data, pack)]
        with_includes = situation_data(self.data, self.origin)
        return missing + [Open("list", key, [], pack.facts.entities[kinds[key]].says, "", "",
                               kinds[key])
                          for key in unlisted_referred(with_includes, pack)]

    def open(self) -> tuple[list[Open], Trace | None, Reading | None]:
        """The open facts, first reading first (with the decision on what is known); the
        required ones first, without a decision."""
        required = self.required()
        if required:
            return required, None, None
        situation, trace, reading = self.decide()
        return open_facts(self.engine, trace, reading, situation, self.instead), trace, reading

    def give(self, question: Open, value: Any) -> None:
        """Record an answer where a snapshot holds it (a judgment under `answers:`)."""
        if question.what == "answer":
            said(self.data, question.layer)[question.name] = value
        else:
            self.data[question.name] = value

    def take_back(self) -> Asked | None:
        """Forget the last answer (the player typed `back`): it will be asked again."""
        if not self.asked:
            return None
        last = self.asked.pop()
        if last.question.what == "answer":
            said(self.data, last.question.layer).pop(last.question.name, None)
        else:
            self.data.pop(last.question.name, None)
        return last

    def run(self, answer: Answer, roll: Roll | None = None) -> tuple[Trace, Reading]:
        """Ask until nothing the walk reaches is open; then the decision, and what it read.

        `answer(question, self)` returns the value (or raises); `roll(roll, self)` the faces of
        a roll the known dice do not cover (None: the seeded dice roll it)."""
        while True:
            questions, trace, reading = self.open()
            if questions or trace is None or reading is None:
                question = questions[0]
                value = answer(question, self)
                if value is BACK:
                    self.take_back()
                    continue
                self.give(question, value)
                self.asked.append(Asked(question, value))
                continue
            unrolled = first_unrolled(trace, len(self.data.get("dice", [])))
            if roll is None or unrolled is None:
                return trace, reading
            faces = roll(unrolled, self)
            self.data["dice"] = [*self.data.get("dice", []), *faces]
            self.rolled.append({**unrolled, "faces": faces})


def said(data: dict[str, Any], layer: int) -> dict[str, Any]:
    """Where a snapshot holds the answers about the table `layer` actions in: `answers:`
    before any action, else that action's map in `answers_after:`."""
    if layer == 0:
        return data.setdefault("answers", {})
    later = data.setdefault("answers_after", [])
    later += [{} for _ in range(layer - len(later))]
    return later[layer - 1]


def situation_data(data: dict[str, Any], origin: str) -> dict[str, Any]:
    """The snapshot with what it includes merged in (a map's borders name its provinces)."""
    merged = _included(Document(data=data, file=origin)).data
    return merged if isinstance(merged, dict) else data


class _Back:
    """The answer `back`: revisit the previous question."""

    def __repr__(self) -> str:
        return "BACK"


BACK: Any = _Back()


def first_unrolled(trace: Trace, given: int) -> dict[str, Any] | None:
    """The first roll whose dice the snapshot's `dice:` did not give (a roll of several dice
    starts past them)."""
    used = 0
    for roll in trace.dice:
        count = len(roll.faces)
        if used + count > given:
            return {"dice": roll.dice, "for": roll.purpose, "skip": given - used, "roll": roll}
        used += count
    return None
