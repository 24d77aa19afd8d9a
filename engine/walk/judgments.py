"""What a decision knows from its derivations, and what its trace says of them.

The judgments are derived when the turn starts and again after each action whose page says
`rederive`; the trace keeps each as first derived (a later change is a note "from step N on"),
and each derived entity field as first derived, with `now` when an action changed it.
Mixed into the walk's `Turn`, which holds the state these read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..derive.derivation import EID, GIVEN
from ..language.pack import Rule
from ..language.tree_queries import board_names
from .effects import plain

if TYPE_CHECKING:
    from ..decide import Engine
    from ..derive.derivation import Derivation
    from ..derive.entities import EntityStore
    from ..derive.fast.reuse import LastDerivation
    from ..language.pack import Pack
    from ..situation import Situation
    from ..trace import Judgment, Trace


class Knowing:
    """The derived half of a turn: judgments and entity fields, as derived and as traced."""

    engine: Engine
    pack: Pack
    situation: Situation
    trace: Trace
    board: dict[str, Any]
    store: EntityStore
    bound: dict[str, dict[str, Any]]
    last_derivation: LastDerivation
    record: bool  # False: a batch row's turn (Engine.decide)
    only: frozenset[str] | None  # the derivations to run, None: all (Engine.decide)
    derived_now: Derivation  # the last derivation, whose judgments the board holds now
    first_seen: dict[int, tuple[str, dict[str, Any]]]
    first_support: dict[tuple[int, str], list[dict[str, Any]]]
    first_run: Derivation | None  # the turn's first derivation: the judgments as traced
    noted_values: dict[str, Any]  # each judgment's value as first derived or last noted
    judgment_notes: dict[str, list[dict[str, Any]]]  # "from step N on": a later change
    refresh: Callable[[dict[str, Any]], None]  # the walk's: aliases bound to it see it anew
    label: Callable[..., str]  # the walk's: "kind name" of an entity

    def _derive(self, entities: dict[str, list[dict[str, Any]]]) -> None:
        inputs = dict(self.board)  # the board's own values: copied whole, judgments taken out
        for name in self.pack.facts.judgments:
            inputs.pop(name, None)
        answers = self.situation.answers_at(len(self.trace.decision.actions))
        last = self.last_derivation
        if answers is not self.situation.answers:  # said of the table an action left
            run = self.engine.derive(inputs, entities, answers, None, self.record, self.only)
        elif (found := last.find(inputs, entities)) is not None:
            run = found
        else:
            run = self.engine.derive(inputs, entities, answers, last.replay(inputs, entities),
                                     self.record, self.only)
            last.keep(inputs, entities, run)
        self.trace.derived_from = (inputs, entities)
        self.trace.derived_answers = answers
        self.board.update(run.board)
        self.derived_now = run
        values = run.judgment_values()
        self._record(run, values)
        self.trace.conflicts.extend(run.conflicts)
        if self.record:
            self.trace.field_support.update(run.field_support)
        self._remember(run.entities, run.field_support)
        self.board.update(values)
        self.store.replace(run.entities)

    def _remember(self, entities: dict[str, list[dict[str, Any]]],
                  support: dict[tuple[int, str], list[dict[str, Any]]]) -> None:
        """Keep what the first action was chosen on: a field's value when a rule first
        derived it (a later derivation, after an action, shows as `now`)."""
        current = {}
        first_seen = self.first_seen
        for kind, items in entities.items():
            for entity in items:
                eid = entity[EID]
                if eid not in first_seen:
                    first_seen[eid] = (kind, dict(entity))
                current[eid] = entity
        if support.keys() <= self.first_support.keys():
            return  # every field's first support is known (most rederives)
        for (eid, name), by in support.items():
            if (eid, name) not in self.first_support and eid in current:
                self.first_support[eid, name] = by
                self.first_seen[eid][1][name] = current[eid].get(name)

    def _record(self, run: Derivation, values: dict[str, Any]) -> None:
        """The trace keeps each judgment as first derived; a later derivation (after an
        action, a declaration) that changes it adds a note saying from which step on. Only
        the first run and the notes are kept here: `judged` makes the trace's judgments, at
        the end, of those the walk used."""
        if self.first_run is None:
            self.first_run, self.noted_values = run, dict(values)
            return
        noted = self.noted_values
        for name, value in values.items():
            if value != noted[name]:
                noted[name] = value
                self.judgment_notes.setdefault(name, []).append(
                    {"rule": f"from step {len(self.trace.steps)} on",
                     "note": f"{plain(value)} ({run.judgment(name).origin})",
                     "since": len(self.trace.steps), "value": value})

    def judged(self, used: set[str]) -> dict[str, Judgment]:
        """The judgments the walk read (and those given), each as first derived, with the
        notes of later changes: what the trace shows."""
        run = self.first_run
        if run is None:
            return {}
        found = {}
        for name in run.strata.judgments:
            if name in used or name in run.given:
                judgment = run.judgment(name)
                notes = self.judgment_notes.get(name)
                if notes:  # a list of its own: the run's support is shared by its copies
                    judgment.by = [*judgment.by, *notes]
                found[name] = judgment
        return found

    def rederive(self) -> None:
        """Derive the judgments again from the board and entities as they are now."""
        base = {}
        for kind, derived in self.engine.listed_derived.items():  # created kinds: made anew
            items = self.store.items(kind)
            base[kind] = [_underived(e, derived) for e in items] if derived \
                else [dict(e) for e in items]
        self._derive(base)
        by_eid = self.store.by_eid
        for entity in list(self.bound.values()):
            if entity[EID] in by_eid:
                self.refresh(by_eid[entity[EID]])

    # --- what the trace says of them ----------------------------------------------------

    def facts_behind(self, rule: Rule) -> list[dict[str, Any]]:
        """The entities (the options the player listed, say) behind the judgments it read."""
        found: list[dict[str, Any]] = []
        for name in sorted(board_names(rule.when)):
            judgment = self.derived_now.judgment(name) \
                if name in self.pack.facts.judgments else None
            if judgment is None or judgment.origin != "derived" or not judgment.value:
                continue
            for support in judgment.by:
                for fact in support.get("facts", []):
                    if "kind" in fact and fact not in found:
                        found.append(fact)
        return sorted(found, key=lambda fact: sorted((k, str(v)) for k, v in fact.items()))

    def entity_judgments(self, fields: set[str], shown: frozenset[str] = frozenset(),
                         ) -> list[dict[str, Any]]:
        """Each entity field among `fields` that a derivation established or the snapshot
        gave, as first derived (what the first action was chosen on), with the rules that
        established it; `now` when an action changed it later. An entity with any of those
        also shows its `shown` fields (derived only to show the arithmetic)."""
        found = []
        also = shown - fields
        established: dict[int, set[str]] = {}  # what has a field item: most entities, nothing
        for (eid, name), by in self.first_support.items():
            if by:
                established.setdefault(eid, set()).add(name)
        for kind, entity in self.first_seen.values():
            has = established.get(entity[EID], set()).union(entity.get(GIVEN, ()))
            named = has.intersection(fields)  # `_field` is None for every other name
            if not named:
                continue
            items = [self._field(kind, entity, name) for name in sorted(named)]
            items += [self._field(kind, entity, name) for name in sorted(has & also)]
            found += [item for item in items if item]
        return found

    def _field(self, kind: str, entity: dict[str, Any], name: str) -> dict[str, Any] | None:
        by = self.first_support.get((entity[EID], name), [])
        given = name in entity.get(GIVEN, frozenset())
        if not by and not given:
            return None
        item = {"entity": self.label(entity, kind), "field": name, "value": entity.get(name),
                "origin": "given" if given else "derived",
                "by": [s for s in by if not s.get("overridden")]}
        current = self.store.find(kind, entity[EID]) or {}
        # a change, unless a rule has made another entity under this id since (a card, played)
        if current.get(name, item["value"]) != item["value"] and \
                self.label(current, kind) == item["entity"]:
            item["now"] = current[name]
        return item


def _underived(entity: dict[str, Any], derived: frozenset[str]) -> dict[str, Any]:
    """An entity without the fields derivations set, unless the snapshot gave them: what a
    rederive starts from."""
    given = entity.get(GIVEN)
    kept = dict(entity)
    for name in derived.intersection(entity).difference(given or ()):
        del kept[name]
    return kept
