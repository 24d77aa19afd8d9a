"""The entities of one decision: what the snapshot listed and rules created, as they change.

Outcomes change entities (a field updated, units spread, an option used up); the rule engine's
states must then see the new versions. Every change bumps a generation, so each state can
bring exactly the changed entities up to date before its next evaluation.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from .derivation import EID


class EntityStore:
    """kind → entities (dicts with an id under `#`), with change tracking."""

    def __init__(self, by_kind: dict[str, list[dict[str, Any]]]) -> None:
        self.by_kind = {kind: list(items) for kind, items in by_kind.items()}
        self.kind_of = {e[EID]: kind for kind, items in self.by_kind.items() for e in items}
        self.by_eid = {e[EID]: e for items in self.by_kind.values() for e in items}
        self.generation = 0
        self.touched: dict[int, int] = {}
        self.removed: set[int] = set()

    def replace(self, by_kind: dict[str, list[dict[str, Any]]]) -> None:
        """All entities anew (after the judgments were derived again)."""
        for eid in self.kind_of:
            self._touch(eid)
            self.removed.add(eid)
        self.by_kind = {kind: list(items) for kind, items in by_kind.items()}
        self.kind_of = {e[EID]: kind for kind, items in self.by_kind.items() for e in items}
        self.by_eid = {e[EID]: e for items in self.by_kind.values() for e in items}
        for eid in self.kind_of:
            self.removed.discard(eid)
            self._touch(eid)

    def items(self, kind: str) -> list[dict[str, Any]]:
        return self.by_kind.get(kind, [])

    def find(self, kind: str, eid: int) -> dict[str, Any] | None:
        return self.by_eid.get(eid) if self.kind_of.get(eid) == kind else None

    def entity(self, eid: int) -> dict[str, Any]:
        return self.by_eid[eid]

    def set(self, entity: dict[str, Any], name: str, value: Any) -> None:
        if entity.get(name) != value or name not in entity:
            entity[name] = value
            self._touch(entity[EID])

    def remove(self, entity: dict[str, Any]) -> None:
        kind = self.kind_of.pop(entity[EID])
        del self.by_eid[entity[EID]]
        self.by_kind[kind] = [e for e in self.by_kind[kind] if e[EID] != entity[EID]]
        self.removed.add(entity[EID])
        self._touch(entity[EID])

    def changed_all(self) -> None:
        for eid in self.kind_of:
            self._touch(eid)

    def _touch(self, eid: int) -> None:
        self.generation += 1
        self.touched[eid] = self.generation

    def since(self, generation: int) -> Iterator[tuple[int, str | None, dict[str, Any] | None]]:
        """(eid, kind, entity) changed after `generation`; kind None if it was removed."""
        for eid, seen in self.touched.items():
            if seen > generation:
                yield eid, self.kind_of.get(eid), self.by_eid.get(eid)

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        return copy.deepcopy(self.by_kind)
