"""A rederivation that would read exactly what the last one read gets exactly its result.

A `rederive` outcome derives every judgment again after an action; often the action changed
only values no derivation reads (a page's own counters, a card that was chosen). Derivations
are deterministic — the same board values and entities give the same judgments, supports,
conflicts and created entities, whichever reasoner found them — so the last run's result is
handed out again, as a copy the walk may change, without asking the reasoner. What counts as
"the same" is strict: equal values of the same types, fields in the same order.
"""

from __future__ import annotations

from typing import Any

from ..derivation import EID, Derivation
from ..pack_reads import DerivedFrom
from .incremental import Dependencies, Replay
from .sameness import ABSENT, PLAIN, frozen, identical


class LastDerivation:
    """The inputs and the result of a decision's last derivation."""

    def __init__(self, reads: DerivedFrom, dependencies: Dependencies | None = None) -> None:
        self.reads = reads
        self.dependencies = dependencies
        self.key: tuple[Any, ...] | None = None
        self.result: Derivation | None = None

    def _key(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             ) -> tuple[Any, ...]:
        values = {name: value if type(value := board.get(name, ABSENT)) in PLAIN
                  else frozen(value) for name in self.reads.names}
        read = {kind: frozen(items) for kind, items in entities.items()
                if kind in self.reads.kinds}
        return values, read, list(entities), _top(entities)  # created ids count from top

    def find(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             ) -> Derivation | None:
        """The last result, if these inputs are the last ones wherever derivations read."""
        if self.key is None or self.result is None:
            return None
        values, read, order, top = self.key
        if order != list(entities) or not all(identical(board.get(name, ABSENT), value)
                                              for name, value in values.items()):
            return None
        if not identical(read, {k: v for k, v in entities.items() if k in self.reads.kinds}) \
                or top != _top(entities):
            return None
        return self._copy(board, entities)

    def replay(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               ) -> Replay | None:
        """What a run on these inputs can take from the last one: the firings of every
        derivation that reads none of what changed (None: derive afresh)."""
        if self.dependencies is None or self.key is None or self.result is None \
                or self.result.log is None:
            return None
        values, read, order, top = self.key
        if order != list(entities) or top != _top(entities):
            return None
        changed = self.dependencies.changed(values, read, board, entities)
        affected = None if changed is None else self.dependencies.affected(changed)
        return None if affected is None else Replay(affected, self.result.log)

    def keep(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             run: Derivation) -> None:
        """Remember a run (as it is now, before the walk changes its entities)."""
        self.key = self._key(board, entities)
        self.result = None
        self.result = self._copy(board, entities, run)

    def _copy(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
              run: Derivation | None = None) -> Derivation:
        """The result as a run on `board` and `entities` would give it: kinds no derivation
        touches are the ones given; the rest, and the kinds rules created, as derived."""
        source = run or self.result
        assert source is not None
        derived = {kind: [dict(e) for e in (source.entities[kind] if kind in self.reads.kinds
                                           else items)]
                   for kind, items in entities.items()}
        for kind, items in source.entities.items():
            derived.setdefault(kind, [dict(e) for e in items])
        return source.copy(dict(board), derived)


def _top(entities: dict[str, list[dict[str, Any]]]) -> int:
    return max((e[EID] for items in entities.values() for e in items), default=0)
