"""Deriving again after an action: only the derivations that read what changed ask the reasoner.

A `rederive` after an action usually changes a value or two the derivations read (a page's
`actions_left`, a deal now `chosen`). Every derivation that reads none of it — directly, or
through a judgment or field another such derivation concludes — finds exactly the firings it
found last time, in the same rounds of the same strata: its inputs are the same values,
established in the same rounds. So a rederive asks the reasoner only about the *affected*
derivations (durable_rules gets a ruleset of just those), and hands the conclusions its log of
the last run's other firings, round by round. Every firing, found or replayed, is concluded
afresh by the `Derivation` in the one canonical order of a round, so judgments, support,
conflicts, field order and created ids come out as a full run makes them.

Entities that replayed firings create are numbered as they are concluded (an affected rule
may have created others before them); a replayed firing binds them by their ids of now. Not
attempted (a full run instead): an entity list of another length, order or kind order, more
affected rules than `SHARE` of all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, is_not
from typing import Any, cast

from ...language.pack import Pack, Rule
from ...language.rule_reads import Product
from ..derivation import EID, GIVEN, UNSET, Change, Derivation, entity_support, firing_order
from ..pack_reads import PackReads, rules_reached
from ..strata import Strata
from .sameness import ABSENT, PLAIN, identical

SHARE = 0.9  # above this share of affected derivations, a full run costs about as much


@dataclass(slots=True)
class Logged:
    """One firing of a run, as a later run replays it: its rule, entities, the judgment facts
    it matched, and the id of the entity it created (0: none)."""

    order: tuple[Any, ...]  # firing_order, with the entity ids of its run
    rule: Rule
    eids: tuple[tuple[str, int], ...]  # condition alias → entity id
    shown: list[dict[str, Any]]
    created: int = 0
    value: Any = UNSET  # what it judged (the same again: it reads nothing that changed)


@dataclass(slots=True)
class Firing:
    """A firing to conclude in a round: found by the reasoner now (`replayed` None: its
    entities are shown as they are when it is concluded), or replayed from the log."""

    order: tuple[Any, ...]  # firing_order: rank, then entity ids
    rule: Rule
    bound: dict[str, dict[str, Any]]
    shown: list[dict[str, Any]]
    replayed: Logged | None = None


_ORDER = attrgetter("order")  # a firing's place in its round
Log = dict[tuple[int, int], list[Logged]]  # (stratum, round) → firings in concluded order


@dataclass
class Replay:
    """What a rederive hands the reasoner: the derivations to ask, the others' firings, and
    the ids the entities they created then have now (affected rules may create others)."""

    affected: frozenset[str]
    log: Log
    ids: dict[int, int] = field(default_factory=dict)

    def firings(self, stratum: int, round_: int, by_eid: dict[int, tuple[str, dict[str, Any]]],
                ) -> list[Firing]:
        """The last run's firings of unaffected derivations in this round, bound to this
        run's entities."""
        found = []
        ids, affected = self.ids, self.affected
        for logged in self.log.get((stratum, round_), ()):
            if logged.rule.id in affected:
                continue
            if ids:  # created entities numbered otherwise now: the order may move
                bound = {alias: by_eid[ids.get(eid, eid)][1] for alias, eid in logged.eids}
                order = firing_order(logged.order[0], bound)
            else:
                bound = {alias: by_eid[eid][1] for alias, eid in logged.eids}
                order = logged.order
            found.append(Firing(order, logged.rule, bound, logged.shown, logged))
        return found


def conclude_round(run: Derivation, stratum: int, round_: int, firings: list[Firing],
                   replay: Replay | None) -> list[Change]:
    """Conclude a round's firings in the one canonical order (rules, then entities), each
    logged for the next run; the changes to tell the reasoner."""
    assert run.log is not None
    logged = run.log.setdefault((stratum, round_), [])
    changes: list[Change] = []
    firings.sort(key=_ORDER)
    record = run.record
    for firing in firings:
        replayed = firing.replayed
        shown = firing.shown if replayed or not record else [
            *(entity_support(entity, run.pack, run.by_eid[entity[EID]][0])
              for entity in firing.bound.values()), *firing.shown]
        made = run.conclude(firing.rule, firing.bound, shown,
                            replayed.value if replayed else UNSET, firing.order[1])
        # a "created" change carries the entity it created
        created = cast(dict[str, Any], made[0].entity)[EID] \
            if made and made[0].what == "created" else 0
        if replayed is not None and firing.order is replayed.order \
                and created == replayed.created and run.judged is replayed.value:
            logged.append(replayed)  # the same entities, creation and value: as logged
        else:
            if created and replayed is not None and replay is not None \
                    and created != replayed.created:
                replay.ids[replayed.created] = created
            eids = tuple((alias, entity[EID]) for alias, entity in firing.bound.items())
            logged.append(Logged(firing.order, firing.rule, eids, shown, created, run.judged))
        changes += made
    return changes


class Dependencies:
    """Who reads what among the derivations (`PackReads.readers`), and what each one's firings
    change."""

    def __init__(self, pack: Pack, reads: PackReads, strata: Strata) -> None:
        self.pack = pack
        self.count = len(pack.derivations())
        self.readers = reads.readers
        self.products: dict[str, list[Product]] = {}
        for rule_id, read in reads.derivations.items():
            made = self.products[rule_id] = list(read.concludes)
            for what, name in list(made):  # a derived name: firings on its kind show it
                kind, _, field_name = name.partition(".")
                spec = pack.facts.entities.get(kind)
                if what == "field" and spec is not None and field_name in spec.naming_fields:
                    made.append(("kind", kind))
        self.strata = strata
        self.known: dict[frozenset[Product], frozenset[str] | None] = {}

    def affected(self, changed: set[Product]) -> frozenset[str] | None:
        """Every derivation reading what changed, or what an affected one concludes; None if
        too many for a partial run to pay (a pack's actions change a few sets of values:
        each set's answer is kept)."""
        key = frozenset(changed)
        if key not in self.known:
            self.known[key] = self._affected(changed) if len(self.known) < 256 else None
        return self.known[key]

    def _affected(self, changed: set[Product]) -> frozenset[str] | None:
        found = rules_reached(changed, self.readers, self.products.__getitem__)
        return frozenset(found) if len(found) <= SHARE * self.count else None

    def changed(self, values: dict[str, Any], kinds: dict[str, list[dict[str, Any]]],
                board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
                ) -> set[Product] | None:
        """What differs from the last run's inputs (`values` and `kinds`: the names and kinds
        derivations read, as they were then): board names (as judgments), entity fields, a
        kind whose entities are named otherwise now (firings show the names); None when the
        entities are listed otherwise (created ids would move) or say other fields given."""
        found: set[Product] = {("judgment", name) for name, value in values.items()
                               if not ((now := board.get(name, ABSENT)) is value
                                       and type(value) in PLAIN) and not identical(now, value)}
        for kind, before in kinds.items():
            now = entities.get(kind, [])
            if not (now or before):
                continue  # most kinds: none listed
            if [e[EID] for e in now] != [e[EID] for e in before]:
                return None
            spec = self.pack.facts.entities.get(kind)
            naming = spec.naming_fields if spec else ()
            for one, other in zip(now, before, strict=True):
                if identical(one, other):  # most entities: nothing to look into
                    continue
                if not identical(one.get(GIVEN), other.get(GIVEN)):
                    return None
                # the same fields: only a value not the same object as then can differ
                names = compress(one, map(is_not, one.values(), other.values())) \
                    if list(one) == list(other) else one.keys() | other.keys()
                for name in names:
                    if not identical(one.get(name, ABSENT), other.get(name, ABSENT)):
                        found.add(("field", f"{kind}.{name}"))
                        if name in naming:
                            found.add(("kind", kind))
        return found
