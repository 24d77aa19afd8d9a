"""A rederivation that would read exactly what the last one read gets exactly its result.

A `rederive` outcome derives every judgment again after an action; often the action changed
only values no derivation reads (a page's own counters, a card that was chosen). Derivations
are deterministic — the same board values and entities give the same judgments, supports,
conflicts and created entities, whichever reasoner found them — so the last run's result is
handed out again, as a copy the walk may change, without asking the reasoner. What counts as
"the same" is strict: equal values of the same types, fields in the same order.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from ..derivation import EID, Derivation
from ..pack_reads import DerivedFrom
from .incremental import Dependencies, Replay
from .sameness import ABSENT, ATOMS, frozen, identical


class LastDerivation:
    """The inputs and the result of a decision's last derivation."""

    def __init__(self, reads: DerivedFrom, dependencies: Dependencies | None = None) -> None:
        self.reads = reads
        self.names = tuple(reads.names)  # one order for the key's values and the board's
        self.dependencies = dependencies
        self.key: tuple[Any, ...] | None = None
        # the last run, and the entities it derived as they were then (of the kinds
        # derivations touch or rules created: the walk changes the run's own)
        self.run: Derivation | None = None
        self.derived: dict[str, list[dict[str, Any]]] = {}

    def _key(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             ) -> tuple[Any, ...]:
        values = dict(zip(self.names, map(board.get, self.names, repeat(ABSENT)), strict=True))
        if not ATOMS.issuperset(map(type, values.values())):
            values = frozen(values)
        read = {kind: frozen(items) for kind, items in entities.items()
                if kind in self.reads.kinds}
        return values, read, list(entities), _top(entities)  # created ids count from top

    def find(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             ) -> Derivation | None:
        """The last result, if these inputs are the last ones wherever derivations read."""
        if self.key is None or self.run is None:
            return None
        values, read, order, top = self.key
        if order != list(entities) or not identical(
                list(map(board.get, self.names, repeat(ABSENT))), list(values.values())):
            return None
        if not identical(read, {k: v for k, v in entities.items() if k in self.reads.kinds}) \
                or top != _top(entities):
            return None
        kinds, derived = self.reads.kinds, self.derived
        result = {kind: [dict(e) for e in (derived[kind] if kind in kinds else items)]
                  for kind, items in entities.items()}
        for kind, items in derived.items():  # the kinds rules created
            result.setdefault(kind, [dict(e) for e in items])
        return self.run.copy(dict(board), result)

    def replay(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               ) -> Replay | None:
        """What a run on these inputs can take from the last one: the firings of every
        derivation that reads none of what changed (None: derive afresh)."""
        if self.dependencies is None or self.key is None or self.run is None \
                or self.run.log is None:
            return None
        values, read, order, top = self.key
        if order != list(entities) or top != _top(entities):
            return None
        changed = self.dependencies.changed(values, read, board, entities)
        affected = None if changed is None else self.dependencies.affected(changed)
        return None if affected is None else Replay(affected, self.run.log)

    def keep(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             run: Derivation) -> None:
        """Remember a run (its entities as they are now, before the walk changes them). What
        it concluded is shared: a finished run's values and supports are never changed
        (`Derivation.copy`)."""
        self.key = self._key(board, entities)
        kinds = self.reads.kinds
        self.run = run
        self.derived = {kind: [dict(e) for e in items] for kind, items in run.entities.items()
                        if kind in kinds or kind not in entities}


def _top(entities: dict[str, list[dict[str, Any]]]) -> int:
    return max((e[EID] for items in entities.values() for e in items), default=0)
