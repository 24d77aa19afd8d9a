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
from weakref import WeakKeyDictionary

from .evaluate import World, holds
from .expressions import Aggregate, Condition, Exists, all_refs, children, scopes
from .model import Pack, Rule
from .outcomes import Assign, Choice, Distribute, Each, Roll, Update

if TYPE_CHECKING:
    from .decide import Engine
    from .situation import Situation
    from .trace import Trace
    from .walk import Turn

NAME, KIND, FIELD = "name", "kind", "field"
Item = tuple[str, str]  # (NAME | KIND | FIELD, what)


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

    def rolled(self, step: int) -> None:
        self.roll_steps.append(step)

    def finished(self, turn: Turn) -> None:
        """The board and entities as the walk left them (what a game carries to the next
        decision: counters the procedure changed, entities it updated)."""
        self.board = dict(turn.board)
        self.entities = {kind: [dict(e) for e in items]
                         for kind, items in turn.store.by_kind.items()}


def _kinds_of(node: Any) -> list[str]:
    """Entity kinds a tree quantifies over, in the order written."""
    found = [node.kind] if isinstance(node, Exists | Aggregate) else []
    for child in children(node):
        found += _kinds_of(child)
    return found


def _tree_items(node: Any, aliases: Mapping[str, str]) -> list[Item]:
    """Board names, kinds and entity fields (`kind.field`) a tree reads, in the order written.
    `aliases`: the kinds of entities bound outside the tree (`selected` → play)."""
    if node is None:
        return []
    known = {**aliases, **scopes(node)}
    items: list[Item] = [(KIND, k) for k in _kinds_of(node)]
    for ref in all_refs(node):
        if ref.scope is not None:
            items.append((FIELD, f"{known.get(ref.scope, '*')}.{ref.name}"))
            continue
        items.append((NAME, ref.name))
        alias, dot, name = ref.name.partition(".")
        if dot and alias in known:  # `selected.actions`: a field of the bound entity
            items.append((FIELD, f"{known[alias]}.{name}"))
    return items


def _bound_kinds(pack: Pack) -> dict[str, str]:
    """alias → kind for every entity a rule binds by `select`/`target`/`each` (`as:`)."""
    return {effect.alias: effect.kind for rule in pack.rules() for effect in rule.then.effects
            if isinstance(effect, Choice | Each)}


def outcome_reads(rule: Rule, aliases: Mapping[str, str]) -> list[Item]:
    """What a fired rule's outcome reads before it acts: the values it sets and rolls, the
    entities it chooses among (and how it filters, prefers and orders them), the entities it
    loops or spreads over, and the page names it computes (`fate.{fate}.act{act}`). Texts a
    player only reads (`say`, details) are left out: showing a value is not deciding on it."""
    then = rule.then
    items: list[Item] = []

    def read(*trees: Any, scope: dict[str, str] | None = None) -> None:
        for tree in trees:
            items.extend(_tree_items(tree, {**aliases, **(scope or {})}))

    for effect in then.effects:
        if isinstance(effect, Assign):
            read(effect.value)
        elif isinstance(effect, Roll):
            read(effect.count, effect.success)
        elif isinstance(effect, Choice | Each | Distribute):
            items.append((KIND, effect.kind))
            scope = {effect.scope: effect.kind}
            read(effect.where, *(key.value for key in effect.order), scope=scope)
            if isinstance(effect, Choice):
                read(*(p.when for p in effect.prefer), scope=scope)
            if isinstance(effect, Distribute):
                read(effect.amount, effect.cap, scope=scope)
        elif isinstance(effect, Update):
            read(*(assign.value for assign in effect.fields))
    for link in (then.call, then.goto):
        if link is not None:
            read(*(part for part in link.parts if not isinstance(part, str)))
    return items


@dataclass(frozen=True)
class _Known:
    """What a pack's rules say about reading, worked out once per engine."""

    sources: dict[Item, list[Item]]  # judgment, derived field, created kind → what it reads
    aliases: dict[str, str]  # alias a rule binds → the entity's kind
    rules: dict[str, Rule]


_KNOWN: WeakKeyDictionary[Engine, _Known] = WeakKeyDictionary()


def _known(engine: Engine) -> _Known:
    known = _KNOWN.get(engine)
    if known is None:
        aliases = _bound_kinds(engine.pack)
        known = _KNOWN[engine] = _Known(_derivation_sources(engine.pack, aliases), aliases,
                                        {rule.id: rule for rule in engine.pack.rules()})
    return known


def _derivation_sources(pack: Pack, aliases: Mapping[str, str]) -> dict[Item, list[Item]]:
    """Judgment, derived entity field or created kind → what its derivations read, in order."""
    found: dict[Item, list[Item]] = {}
    for rule in pack.derivations():
        then = rule.then
        known = {**aliases, **scopes(rule.when)}
        if then.judge is not None:
            alias = then.judge.alias
            target = (FIELD, f"{known.get(alias, '*')}.{then.judge.name}") if alias else \
                (NAME, then.judge.name)
            trees = [rule.when, then.judge.value]
        elif then.create is not None:
            target = (KIND, then.create.kind)
            trees = [rule.when, *(a.value for a in then.create.fields)]
        else:
            continue
        items = found.setdefault(target, [])
        items += [item for tree in trees for item in _tree_items(tree, known)
                  if item not in items and item != target]
    return found


def leaves(engine: Engine, item: Item, answers: Mapping[str, Any]) -> list[Item]:
    """What reading `item` comes down to: observations, kinds the snapshot lists, and
    judgments no rule derives — through the derivations of judgments, derived fields and
    created kinds (a judgment the snapshot answers reads nothing further)."""
    sources = _known(engine).sources
    found: list[Item] = []
    seen = {item}
    work = [item]
    while work:
        current = work.pop(0)
        kind, name = current
        if kind == NAME and name in answers:
            continue
        below = sources.get(current)
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
    known = _known(engine)
    events = iter(reading.events)
    pending = next(events, None)
    for index, step in enumerate(trace.steps):
        while pending is not None and pending[0] <= index:
            yield pending
            pending = next(events, None)
        rule = known.rules.get(step.rule) if step.rule else None
        if rule is not None:
            yield from ((index, rule.id, item) for item in outcome_reads(rule, known.aliases))
    while pending is not None:
        yield pending
        pending = next(events, None)


def reached(engine: Engine, trace: Trace, reading: Reading,
            answers: Mapping[str, Any]) -> Iterator[tuple[int, str, Item]]:
    """Every leaf the walk read, first reading first: (step, rule, item)."""
    expanded: set[Item] = set()
    found: set[Item] = set()
    for step, rule, item in _events(engine, trace, reading):
        if item in expanded:
            continue
        expanded.add(item)
        for leaf in leaves(engine, item, answers):
            if leaf not in found:
                found.add(leaf)
                yield step, rule, leaf


def open_facts(engine: Engine, trace: Trace, reading: Reading,
               situation: Situation) -> list[Open]:
    """The facts the decision rested on that the snapshot did not give, in reading order."""
    facts = engine.pack.facts
    set_by: dict[str, int] = {}
    for index, step in enumerate(trace.steps):
        for name in step.outcome.get("set", {}):
            set_by.setdefault(name, index)
    keys = {kind: spec.key for kind, spec in facts.entities.items() if spec.key}
    found: list[Open] = []
    for step, rule_id, (what, name) in reached(engine, trace, reading, situation.answers):
        page = trace.steps[step].page if step < len(trace.steps) else ""
        if what == KIND:
            if name in situation.unlisted and name in keys:
                spec = facts.entities[name]
                found.append(Open("list", keys[name], [], spec.says, rule_id, page, name, step))
        elif name in facts.board:
            if name in situation.defaulted and set_by.get(name, step) >= step:
                spec = facts.board[name]
                found.append(Open("fact", name, situation.board.get(name), spec.says,
                                  rule_id, page, step=step))
        elif name in facts.judgments and name not in situation.answers:
            spec = facts.judgments[name]
            found.append(Open("answer", name, spec.default, spec.says, rule_id, page,
                              step=step))
    return found
