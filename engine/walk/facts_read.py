"""What a decision reached: the facts its walk read, in the order it read them.

A walk reads board values in its rules' conditions (evaluated left to right and cut short as
the evaluator does: `hand_counter >= 2 and not seized` does not read `seized` when the counter
is 1), in the values its outcomes compute, and through judgments and derived entity fields,
whose derivations read further facts and entity lists. `Reading` records this during the
walk (`Engine.decide(..., reading=Reading())`); `open_facts` then names, in reading order,
the facts the snapshot did not give but the decision rested on: an assumed default of an
observation, a judgment no rule derives and nobody answered, an entity list not given.

`whybot decide` shows these as its Assumed block (and `--strict` refuses them); `whybot play`
asks the first one, decides again, and repeats until none is left — so every question is one
the procedure truly reaches, given the answers so far.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..evaluator.evaluate import World, holds
from ..language.expressions import Condition
from ..language.pack import Rule
from ..language.rule_reads import FIELD, KIND, NAME, Item
from .instead import NOTHING_INSTEAD, Instead, answered, layers, moves_in

if TYPE_CHECKING:
    from ..decide import Engine
    from ..situation import Situation
    from ..trace import Trace
    from .turn import Turn



@dataclass(frozen=True)
class Open:
    """A fact the decision rested on that the snapshot did not give.

    `what`: "fact" (an observation left at its default), "answer" (a judgment no rule derives,
    asked as the seed's question), "list" (an entity list, `name` its snapshot key). `rule`,
    `page`: the first rule that read it, and where — what `?` shows a player."""

    what: str
    name: str
    value: Any
    says: str
    rule: str
    page: str
    kind: str = ""
    step: int = -1  # the step of the walk that first read it
    layer: int = 0  # the actions taken before that step (what was said of the table then)
    again: bool = False  # a question answered before an action, asked again after it

    def as_dict(self) -> dict[str, Any]:
        data = {"what": self.what, "name": self.name, "value": self.value, "says": self.says,
                "rule": self.rule, "page": self.page}
        if self.kind:
            data["kind"] = self.kind
        return data


class _Seen(Mapping[str, Any]):
    """A read-only view that notes every key looked up, in order (the evaluator reads the
    board, the entity lists and each entity's fields only through `get`)."""

    def __init__(self, inner: Mapping[str, Any], what: str, notes: list[Item],
                 prefix: str = "") -> None:
        self.inner, self.what, self.notes, self.prefix = inner, what, notes, prefix

    def get(self, key: str, default: Any = None) -> Any:
        self.notes.append((self.what, self.prefix + key))
        value = self.inner.get(key, default)
        if self.what == KIND:  # each entity of the list notes the fields read on it
            return [_Seen(entity, FIELD, self.notes, f"{key}.") for entity in value]
        return value

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.inner)

    def __len__(self) -> int:
        return len(self.inner)


@dataclass
class Reading:
    """What one walk read, step by step: `events[i]` = (step index, rule id, item)."""

    events: list[tuple[int, str, Item]] = field(default_factory=list)
    roll_steps: list[int] = field(default_factory=list)  # the step of each roll, in order
    board: dict[str, Any] = field(default_factory=dict)
    entities: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def considered(self, step: int, rules: list[tuple[Rule, Condition]], world: World,
                   ) -> None:
        """The rules a step considered (those above the one that fired, then it): what each
        condition read, cut short as the evaluator cuts it."""
        for rule, condition in rules:
            notes: list[Item] = []
            holds(condition, World(_Seen(world.board, NAME, notes),
                                   _Seen(world.entities, KIND, notes)))
            self.events += [(step, rule.id, item) for item in notes]

    def restart(self) -> None:
        """Forget a walk read, to note the same decision taken again (`Engine.decide`)."""
        self.events, self.roll_steps, self.board, self.entities = [], [], {}, {}

    def rolled(self, step: int) -> None:
        self.roll_steps.append(step)

    def finished(self, turn: Turn) -> None:
        """The board and entities as the walk left them (what a game carries to the next
        decision: counters the procedure changed, entities it updated)."""
        self.board = dict(turn.board)
        self.entities = {kind: [dict(e) for e in items]
                         for kind, items in turn.store.by_kind.items()}


def _read_by(rules: list[tuple[Condition, list[Item]]], world: World) -> list[Item]:
    """What these derivations read on `world`: each condition as the evaluator cuts it short,
    and the value of each that holds."""
    items: list[Item] = []
    for condition, value in rules:
        notes: list[Item] = []
        held = holds(condition, World(_Seen(world.board, NAME, notes),
                                      _Seen(world.entities, KIND, notes)))
        items += [*notes, *(value if held else [])]
    return items


class DerivedReads:
    """What the derivations of each judgment or created kind read on one world, each read
    once: the leaves of a walk's reads share most of their derivations."""

    def __init__(self, engine: Engine, world: World) -> None:
        self.by_rule = engine.reads.by_rule
        self.world = world
        self.found: dict[Item, list[Item]] = {}

    def of(self, item: Item) -> list[Item] | None:
        """What `item`'s derivations read on the world; None if no derivation makes it."""
        rules = self.by_rule.get(item)
        if rules is None:
            return None
        found = self.found.get(item)
        if found is None:
            found = self.found[item] = _read_by(rules, self.world)
        return found


def leaves(engine: Engine, item: Item, answers: Mapping[str, Any],
           derived: DerivedReads | None = None, asked: Instead = NOTHING_INSTEAD) -> list[Item]:
    """What reading `item` comes down to: observations, kinds the snapshot lists, and
    judgments no rule derives — through the derivations of judgments, derived fields and
    created kinds (a judgment the snapshot answers reads nothing further; one in `asked` is
    itself the leaf: the seed's question, asked instead of what it is derived from). With
    `derived`, a judgment's or created kind's derivations are read on its world, cut short as
    the evaluator cuts them; otherwise (and for entity fields) everything they mention."""
    known = engine.reads
    sources = known.sources
    found: list[Item] = []
    seen = {item}
    work = [item]
    while work:
        current = work.pop(0)
        kind, name = current
        if kind == NAME and name in answers:
            continue
        if kind == NAME and name in asked and _comes_to_moves(engine, current, derived, asked):
            found.append(current)
            continue
        if kind == FIELD and name.partition(".")[0] in asked.kinds:
            continue  # a field of a move not listed (the moves are asked instead): none read
        below = sources.get(current)
        if derived is not None and (read := derived.of(current)) is not None:
            below = read
        if kind == FIELD and name.startswith("*."):  # an entity of a kind not known here
            below = [i for f, i in _any_kind(sources, name[2:])]
        if below is None:
            if kind != FIELD and current not in found:
                found.append(current)
            continue
        for nxt in below:
            if nxt not in seen:
                seen.add(nxt)
                work.append(nxt)
    return found


def _any_kind(sources: Mapping[Item, list[Item]], field_name: str) -> Iterator[tuple[Item, Item]]:
    for (what, name), items in sources.items():
        if what == FIELD and name.partition(".")[2] == field_name:
            for item in items:
                yield (what, name), item


def _events(engine: Engine, trace: Trace, reading: Reading,
            ) -> Iterator[tuple[int, str, Item]]:
    """What each step read: its rules' conditions, then what the fired rule's outcome read."""
    rules = engine.reads.rules
    events = iter(reading.events)
    pending = next(events, None)
    for index, step in enumerate(trace.steps):
        while pending is not None and pending[0] <= index:
            yield pending
            pending = next(events, None)
        if step.rule and step.rule in rules:
            yield from ((index, step.rule, item) for item in rules[step.rule].outcome)
    while pending is not None:
        yield pending
        pending = next(events, None)


def _comes_to_moves(engine: Engine, item: Item, derived: DerivedReads | None,
                    asked: Instead) -> bool:
    """Whether this judgment's own derivations, read on `world` (cut short as the evaluator
    cuts them), read a list of moves: a count derived from the moves used this card (a
    standing) is derived, not asked; an overlay's derivation guarded by another overlay
    reads none."""
    read = derived.of(item) if derived is not None else None
    reads = read if read is not None else engine.reads.sources.get(item, [])
    return moves_in(reads, asked.kinds)


def reached(engine: Engine, trace: Trace, reading: Reading, situation: Situation,
            asked: Instead = NOTHING_INSTEAD) -> Iterator[tuple[int, str, Item, int]]:
    """Every leaf the walk read, first reading first: (step, rule, item, layer); a judgment
    asked instead of its derivation comes once for each count of actions it was read after
    (its layer), everything else once."""
    expanded: set[tuple[int, Item]] = set()
    found: set[tuple[int, Item]] = set()
    # judgments' derivations read on the board and entities as the walk left them
    derived = DerivedReads(engine, World(reading.board, reading.entities))
    before = layers(trace) if asked or situation.answers_after else []
    for step, rule, item in _events(engine, trace, reading):
        layer = before[step] if step < len(before) else before[-1] if before else 0
        if (layer, item) in expanded:
            continue
        expanded.add((layer, item))
        said = answered(situation, layer, asked)
        for leaf in leaves(engine, item, said, derived, asked):
            key = (layer if leaf[1] in asked else -1, leaf)
            if key not in found:
                found.add(key)
                yield step, rule, leaf, layer


def open_facts(engine: Engine, trace: Trace, reading: Reading,
               situation: Situation, asked: Instead = NOTHING_INSTEAD) -> list[Open]:
    """The facts the decision rested on that the snapshot did not give, in reading order.
    A judgment in `asked` (`instead.asked_instead`) is asked as the seed's question; after an
    action, again (the last answer offered), for the action changed the table it is about."""
    facts = engine.pack.facts
    set_by: dict[str, int] = {}
    for index, taken in enumerate(trace.steps):
        for name in taken.outcome.get("set", {}):
            set_by.setdefault(name, index)
    keys = {kind: spec.key for kind, spec in facts.entities.items() if spec.key}
    found: list[Open] = []
    for step, rule_id, (what, name), layer in reached(engine, trace, reading, situation,
                                                      asked):
        page = trace.steps[step].page if step < len(trace.steps) else ""
        if what == KIND:
            if name in situation.unlisted and name in keys and name not in \
                    asked.kinds:  # moves not listed: asked by the judgments
                entity = facts.entities[name]
                found.append(Open("list", keys[name], [], entity.says, rule_id, page, name, step))
        elif name in facts.board:
            if name in situation.defaulted and set_by.get(name, step) >= step:
                spec = facts.board[name]
                found.append(Open("fact", name, situation.board.get(name), spec.says,
                                  rule_id, page, step=step))
        elif name in facts.judgments:
            spec, said = facts.judgments[name], situation.answers_at(layer)
            if name in asked and name in said:  # answered before this action: again
                found.append(Open("answer", name, said[name], spec.says, rule_id, page,
                                  step=step, layer=layer, again=True))
            elif name not in said:
                found.append(Open("answer", name, spec.default, spec.says, rule_id, page,
                                  step=step, layer=layer))
    return found
