"""Arithmetic helpers a built-in pack may ship in Python (`then: {compute: NAME}`).

Only packs installed with whybot have them; a folder given by path loads YAML only. A helper
reads and changes the board and entities through a `Computation`, and whatever it changes or
notes goes into the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .dice import Dice
from .errors import DecisionError, SnapshotError

if TYPE_CHECKING:
    from .walk import Turn


@dataclass
class Computation:
    """What a pack helper may read and change (and say)."""

    state: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    data: dict[str, Any]
    settings: dict[str, Any]
    dice: Dice
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.notes.append(text)


def run_computation(turn: Turn, name: str) -> dict[str, Any]:
    before = dict(turn.board)
    work = Computation(turn.board, turn.store.by_kind, turn.pack.data, turn.pack.settings,
                       turn.dice)
    try:
        turn.pack.functions[name](work)
    except ValueError as exc:  # the helper's word that the situation is impossible
        raise DecisionError(f"{name}: {exc}") from None
    turn.store.changed_all()
    changed = {k: {"from": before.get(k), "to": v} for k, v in turn.board.items()
               if before.get(k) != v}
    turn.trace.decision["say"].extend(work.notes)
    turn.trace.decision["steps"].extend({"say": note, "computed_by": name}
                                        for note in work.notes)
    return {"function": name, "set": changed, "notes": work.notes}


def run_fact_helpers(pack: Any, board: dict[str, Any],
                     entities: dict[str, list[dict[str, Any]]]) -> None:
    """An installed pack's `facts.computed` helpers, before derivations (being replaced by
    rules); entities they add get ids."""
    from .derivation import EID

    for name in pack.computed:
        try:
            pack.functions[name](board, entities, pack.data, pack.settings)
        except ValueError as exc:  # the helper's word that the snapshot cannot be
            raise SnapshotError(str(exc)) from None
    top = max((e.get(EID, 0) for items in entities.values() for e in items), default=0)
    for items in entities.values():
        for entity in items:
            if EID not in entity:
                top += 1
                entity[EID] = top
