"""Witnesses: a probe written as a snapshot, and decided by the rule engine before any finding
that rests on it is reported.

A witness is a snapshot file (observations at the top level, judgments under `answers:`, entity
lists under their keys) and the page it is about. What earlier pages of a turn would have set
(turn variables, the fields of a chosen card) cannot be written in a snapshot: the witness
lists them under `notes:` and the confirmation sets them on the board before the page is read,
as the walk would have. The snapshot is read back through the same reader `whybot decide` uses
(the caller passes it in), so a witness the schema refuses is never reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from .. import budget
from ..decide import Engine
from ..errors import WhybotError
from ..language.pack import Pack, Rule
from ..situation import Situation
from ..walk.turn import Turn
from .search import Probe

Reader = Callable[[str, Pack], Situation]  # snapshot text → Situation, or WhybotError


@dataclass
class Witness:
    """A snapshot (as data), the page it shows something on, and the turn values set first."""

    page: str
    snapshot: dict[str, Any]
    turn: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return yaml.safe_dump(self.snapshot, allow_unicode=True, sort_keys=False)

    def as_dict(self) -> dict[str, Any]:
        return {"page": self.page, "turn": self.turn, "snapshot": self.snapshot}


def witness(pack: Pack, probe: Probe, name: str, says: str) -> Witness:
    """The probe as a snapshot: what it sets that a snapshot cannot say goes to `turn`."""
    facts = pack.facts
    snapshot: dict[str, Any] = {"pack": pack.name, "name": name}
    answers: dict[str, Any] = {}
    turn: dict[str, Any] = {}
    for key, value in probe.board.items():
        if key in facts.board:
            snapshot[key] = value
        elif key in facts.judgments:
            answers[key] = value
        else:
            turn[key] = value
    if answers:
        snapshot["answers"] = answers
    for kind, items in probe.entities.items():
        spec = facts.entities.get(kind)
        if spec is not None and spec.key:
            snapshot[spec.key] = [dict(item) for item in items]
    notes = [f"whybot rules check: {says}", f"read page {probe.page!r}"]
    if turn:
        notes.append("with what earlier pages of the turn set: " + ", ".join(
            f"{k} = {v}" for k, v in turn.items()))
    snapshot["notes"] = notes
    return Witness(probe.page, snapshot, turn)


class Confirmer:
    """Reads a witness's page with the rule engine."""

    def __init__(self, engine: Engine, read: Reader) -> None:
        self.engine = engine
        self.read = read
        self.decided = 0

    def first(self, found: Witness, starts: list[int]) -> list[Rule | None] | None:
        """For each rank in `starts`, the first rule of the page from that rank that applies
        (None: none does); None if the snapshot is refused or cannot be decided."""
        with budget.decision():
            turn = self._turn(found)
            if turn is None:
                return None
            try:
                return [turn.session.first(found.page, start, turn.world())[0]
                        for start in starts]
            except WhybotError:
                return None
            finally:
                turn.session.close()

    def judged(self, found: Witness, targets: list[tuple[str, str]]) -> list[Any] | None:
        """What the engine derives from the witness for each target: ("", a board judgment)
        its value, (kind, field) the field of each entity of the kind (None: the snapshot is
        refused)."""
        with budget.decision():
            turn = self._turn(found)
            if turn is None:
                return None
            turn.session.close()
            return [turn.board.get(name) if not kind else
                    [entity.get(name) for entity in turn.store.by_kind.get(kind, [])]
                    for kind, name in targets]

    def _turn(self, found: Witness) -> Turn | None:
        """The witness read and its judgments derived, the turn values set on the board."""
        self.decided += 1
        try:
            turn = Turn(self.engine, self.read(found.text(), self.engine.pack), seed=0,
                        explain=False)
        except WhybotError:
            return None
        turn.board.update(found.turn)
        return turn
