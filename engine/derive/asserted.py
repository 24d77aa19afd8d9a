"""What whybot asserts into durable_rules, and how it keeps a state's entities up to date.

An entity becomes a fact holding only the fields some pattern of the ruleset tests or joins
on (`Compiled.fields`), each under its short code: what no pattern reads cannot change a
match, and every byte of a fact is encoded, parsed and stored by the C core, then sent back in
each firing that matched it.
A state's entity facts are replaced only when a field they hold changed; an outcome or a
judgment that changed only other fields costs nothing (and fires no rule a second time).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..compile.codes import normal_number
from ..compile.fields_tested import FactFields
from ..compile.rulesets import Band, Compiled
from ..evaluator.evaluate import World, evaluate
from .derivation import EID


def carrier_fact(carrier: str, band: Band, board: Mapping[str, Any], world: World,
                 ) -> dict[str, Any]:
    """The event or phase fact of a band: the board values it reads, and its hoisted values."""
    fact: dict[str, Any] = {"t": carrier, "band": band.number}
    for name, flat in band.keys:
        value = board.get(name)
        if value is not None:
            fact[flat] = value
    for name, node in band.hoisted.items():
        value = evaluate(node, world)
        if value is not None:
            fact[name] = normal_number(value)
    return fact


def content(entity: dict[str, Any], fields: FactFields) -> dict[str, Any]:
    """The values of `fields` an entity has, each under its code. Absent fields are left out
    (tests on them fail), and so are values every test of their field fails on
    (`FieldTests`): most of a fact's fields hold false, 0 or none."""
    return {code: value for name, code, omitted in fields
            if (value := entity.get(name)) is not None and value not in omitted}


def same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Equal and of the same types (durable_rules reads 1 and true alike). Both are made in
    the order of one fields tuple (`content`), so equal dicts list their values alike."""
    return one == other and list(map(type, one.values())) == list(map(type, other.values()))


def entity_fact(kind: str, eid: int, version: int, held: dict[str, Any]) -> dict[str, Any]:
    """An entity as a durable_rules fact."""
    return {**held, "t": "e", "kind": kind, "eid": eid, "id": f"x{eid}.{version}"}


class EntityFacts:
    """The entity facts one state holds: eid → (content, fact, the fields it was made of)."""

    def __init__(self, compiled: Compiled, index: int) -> None:
        self.kinds = compiled.kinds[index]
        self.fields = compiled.fields  # what a fact holds; a derivation narrows it (fields_from)
        self.held: dict[int, tuple[dict[str, Any], dict[str, Any], Any]] = {}
        self.versions: dict[int, int] = {}

    def update(self, changed: Iterable[tuple[int, str | None, dict[str, Any] | None]],
               retract: list[dict[str, Any]], renew: list[dict[str, Any]]) -> None:
        """Bring these entities (eid, kind, entity; None if removed) up to date: the facts to
        retract and to assert are added to the two lists. A fact made of more fields than are
        read now stays while the fields read now are the same."""
        for eid, kind, entity in changed:
            old = self.held.get(eid)
            if entity is None or kind not in self.kinds:
                if old is not None:
                    retract.append(self.held.pop(eid)[1])
                continue
            fields = self.fields.get(kind, ())
            held = content(entity, fields)
            if old is not None:
                if old[2] is fields:
                    if same(old[0], held):
                        continue
                elif same({code: old[0][code] for _, code, _ in fields if code in old[0]}, held):
                    self.held[eid] = (held, old[1], fields)  # compared as read now from now on
                    continue
                retract.append(old[1])
            version = self.versions[eid] = self.versions.get(eid, -1) + 1
            fact = entity_fact(kind, eid, version, held)
            self.held[eid] = (held, fact, fields)
            renew.append(fact)

    def everything(self, by_kind: dict[str, list[dict[str, Any]]],
                   ) -> list[tuple[int, str, dict[str, Any]]]:
        """Every entity of the kinds this state reads, in a stable order."""
        return [(e[EID], kind, e) for kind in sorted(self.kinds) for e in by_kind.get(kind, [])]
