"""The seed's questions the table already answers, so a consultation does not ask them.

A pack's play.yaml declares both kinds, as data with the seed's citation:
- `unchanged:` for an action, the questions it cannot change ("a Tax does not move ships"):
  after that action restarts the page, such a question the player answered before it is
  carried to the table the action left, not asked again (`carried`);
- `settled:` a condition on what the game knows and the questions it answers no ("while no
  ambition is declared, nothing contends a declared one"): once every fact and list the
  condition reads is known, and it holds both before the walk and as the walk left the
  board, those questions are answered no (`settled`);
- `follows:` a fact that follows from what the game was told (the bot's Union cards, counted
  from its Guild cards): once everything its value reads is known, it is given (`followed`);
  or one summed over what the game keeps for the other bots (their hand counters: told.py,
  which gives it with the decision, as it gives what the round told).
None is a default: each answer given this way is kept with the reason (`Unasked`), and
`play` shows it ("still so after action 1 …").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from whybot.engine import (
    KIND,
    NAME,
    Condition,
    ConditionSyntaxError,
    Open,
    Reading,
    Situation,
    Trace,
    Value,
    WhybotError,
    World,
    did_you_mean,
    evaluate,
    holds,
    parse,
    tree_items,
)

from .inquiry import Inquiry, said
from .wording import cited, plain

if TYPE_CHECKING:
    from .playbook import Playbook


@dataclass(frozen=True)
class Unchanged:
    """The questions action `action` cannot change (carried past it), and why."""

    action: str
    keeps: frozenset[str]
    cite: str


@dataclass(frozen=True)
class Settled:
    """The questions answered no while `when` holds on the table the game knows."""

    when: Condition
    reads: tuple[tuple[str, str], ...]  # what `when` reads: all known, or nothing settled
    no: frozenset[str]
    says: str
    cite: str


@dataclass(frozen=True)
class Follows:
    """A fact given by `value`, an expression over what the game was told, once all it
    reads is known; or (`other_bots`) the sum of what the game keeps of that fact for each
    other bot (told.py)."""

    fact: str
    value: Value | None
    reads: tuple[tuple[str, str], ...]
    says: str
    cite: str
    told: frozenset[str]  # what it follows from, as a snapshot names it (a list's key)
    other_bots: str = ""


@dataclass(frozen=True)
class Unasked:
    """One answer the table gave: the question, for which table (`layer`: after that many
    actions), the value, and why it was not asked, in the player's words."""

    id: str
    layer: int
    value: Any
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "after": self.layer, "value": self.value, "why": self.why}


def read_unchanged(reader: Any, data: Any) -> dict[str, Unchanged]:
    """The `unchanged:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.names`): each action the pack's rules may take, its `keeps:` questions and `cite:`."""
    pack = reader.pack
    found = {}
    for action, spec in reader.mapping(data, ("unchanged",)).items():
        path = ("unchanged", action)
        if pack.actions is not None and action not in pack.actions:
            raise reader.fail(path, f"unknown action {action!r}",
                              did_you_mean(str(action), set(pack.actions)))
        spec = _keys(reader, spec, path, {"keeps", "cite"})
        keeps = reader.names(spec.get("keeps"), (*path, "keeps"), set(pack.facts.judgments),
                             "judgment")
        found[str(action)] = Unchanged(str(action), frozenset(keeps), _cite(reader, spec, path))
    return found


def read_settled(reader: Any, data: Any) -> list[Settled]:
    """The `settled:` section: a list of `when:` (a condition), `answered_no:` (questions),
    `says:`
    (the reason, in the seed's words) and `cite:`."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise reader.fail(("settled",), "expected a list of {when, answered_no, says, cite}")
    pack, found = reader.pack, []
    for index, raw in enumerate(data):
        path = ("settled", index)
        spec = _keys(reader, raw, path, {"when", "answered_no", "says", "cite"})
        try:
            when = parse(str(spec.get("when", "")), pack.kinds)
        except ConditionSyntaxError as exc:
            raise reader.fail((*path, "when"), f"not a condition: {exc}") from None
        no = reader.names(spec.get("answered_no"), (*path, "answered_no"),
                          set(pack.facts.judgments), "judgment")
        if not spec.get("says"):
            raise reader.fail(path, "a settled answer says why, in the seed's words (says:)")
        found.append(Settled(when, tuple(tree_items(when, {})), frozenset(no),
                             str(spec["says"]), _cite(reader, spec, path)))
    return found


def read_follows(reader: Any, data: Any, kept_per_bot: set[str]) -> dict[str, Follows]:
    """The `follows:` section: for a board fact, its `value:` (an expression) or
    `other_bots:` (one of `kept_per_bot`, summed over the other bots), `says:` (how
    it follows, in the seed's words) and `cite:`."""
    found: dict[str, Follows] = {}
    for fact, raw in reader.mapping(data, ("follows",)).items():
        path = ("follows", fact)
        reader.names([fact], path, reader.board, "fact")
        spec = _keys(reader, raw, path, {"value", "other_bots", "says", "cite"})
        if not spec.get("says"):
            raise reader.fail(path, "say how it follows, in the seed's words (says:)")
        if ("value" in spec) == ("other_bots" in spec):
            raise reader.fail(path, "give one of value: (an expression) or other_bots: (a "
                                    "fact the game keeps for each bot)")
        if "other_bots" in spec:
            kept = str(spec["other_bots"])
            if kept not in kept_per_bot:
                raise reader.fail((*path, "other_bots"), f"{kept!r} is not a fact the game "
                                  "keeps for each bot (keep: bot:)",
                                  did_you_mean(kept, kept_per_bot))
            found[str(fact)] = Follows(str(fact), None, (), str(spec["says"]),
                                       _cite(reader, spec, path), frozenset(), kept)
            continue
        value = reader.expression(spec.get("value", ""), (*path, "value"))
        reads = tuple(tree_items(value, {}))
        keys = {kind: key for key, kind in reader.lists.items()}
        told = frozenset(keys.get(name, name) for what, name in reads if what in (KIND, NAME))
        found[str(fact)] = Follows(str(fact), value, reads, str(spec["says"]),
                                   _cite(reader, spec, path), told)
    return found


def open_asking_less(inquiry: Inquiry, unchanged: Mapping[str, Unchanged],
                     rules: Iterable[Settled], follows: Mapping[str, Follows] | None = None,
                     ) -> tuple[list[Open], Trace | None, Reading | None, list[Unasked]]:
    """`inquiry.open()`, once the answers the table gives are given (into `inquiry.data`,
    where the player's would go): what is still open, and those answers, in order."""
    given: list[Unasked] = []
    while True:
        opened, trace, reading = inquiry.open()
        if trace is None or reading is None or not opened:
            return opened, trace, reading, given
        found = given_by_table(unchanged, list(rules), opened, trace, inquiry.situation(),
                               reading, follows or {})
        if not found:
            return opened, trace, reading, given
        for item in found:
            if item.id in (follows or {}):
                inquiry.data[item.id] = item.value
            else:
                said(inquiry.data, item.layer)[item.id] = item.value
        given += found


def told_by_table(book: Playbook, inquiry: Inquiry, trace: Trace,
                  reading: Reading) -> Callable[[Open], Any]:
    """What the table itself answers of one open item, if anything (None: the player's to
    give), whether or not it comes first (the snapshot read only once an item is asked)."""
    rules, situation = list(book.settled), cache(inquiry.situation)

    def told(item: Open) -> Any:
        found = given_by_table(book.unchanged, rules, [item], trace, situation(), reading,
                               book.follows)
        return found[0].value if found else None
    return told


def given_by_table(unchanged: Mapping[str, Unchanged], rules: list[Settled],
                   opened: list[Open], trace: Trace, situation: Situation,
                   reading: Reading, follows: Mapping[str, Follows] | None = None,
                   ) -> list[Unasked]:
    """The open questions, the next first, that the table answers, up to the first one it
    does not (those after it may not be reached once the player answers it)."""
    found = []
    for item in opened:
        answer = settled(rules, item, situation, reading) or \
            carried(unchanged, item, trace) or followed(follows or {}, item, situation)
        if answer is None:
            break
        found.append(answer)
    return found


def carried(unchanged: Mapping[str, Unchanged], item: Open, trace: Trace) -> Unasked | None:
    """A question asked again after action k, answered before it, that the action cannot
    change: its last answer, carried."""
    actions = trace.decision.actions
    if item.what != "answer" or not item.again or not 0 < item.layer <= len(actions):
        return None
    done = actions[item.layer - 1]
    spec = unchanged.get(done.action)
    if spec is None or item.name not in spec.keeps:
        return None
    taken = plain(" — ".join(text for text in (done.action, done.fields.get("goal")) if text))
    return Unasked(item.name, item.layer, item.value,
                   f"still so after action {item.layer} ({taken}): {plain(spec.action)} "
                   f"cannot change it ({spec.cite})")


def settled(rules: list[Settled], item: Open, situation: Situation,
            reading: Reading) -> Unasked | None:
    """A question a `settled:` condition answers no on the table the game knows (before the
    walk and as the walk left it)."""
    if item.what != "answer":
        return None
    for rule in rules:
        if item.name in rule.no and _known(rule.reads, situation) and \
                _holds(rule.when, situation, reading):
            return Unasked(item.name, item.layer, False, f"{plain(rule.says)} ({rule.cite})")
    return None


def followed(follows: Mapping[str, Follows], item: Open, situation: Situation,
             ) -> Unasked | None:
    """A fact that follows from what the game was told, once all its value reads is."""
    spec = follows.get(item.name) if item.what == "fact" else None
    if spec is None or spec.value is None or not _known(spec.reads, situation):
        return None
    try:
        value = evaluate(spec.value, World(situation.board, situation.entities))
    except (KeyError, TypeError, WhybotError):  # a fact it cannot read: asked
        return None
    return Unasked(item.name, 0, value, f"{plain(spec.says)} ({spec.cite})")


def _known(reads: tuple[tuple[str, str], ...], situation: Situation) -> bool:
    """Whether the game knows everything a condition or value reads (a list left out, or a
    fact left at its default, is not known to be empty or so)."""
    return all(name not in situation.unlisted for what, name in reads if what == KIND) \
        and all(name not in situation.defaulted for what, name in reads if what == NAME)


def _holds(when: Condition, situation: Situation, reading: Reading) -> bool:
    before = World(situation.board, situation.entities)
    after = World(reading.board or situation.board, reading.entities or situation.entities)
    try:
        return holds(when, before) and holds(when, after)
    except (KeyError, TypeError, WhybotError):  # a fact it cannot read: nothing settled
        return False


def _keys(reader: Any, raw: Any, path: tuple, known: set[str]) -> dict[str, Any]:
    spec = reader.mapping(raw, path)
    for key in spec:
        if key not in known:
            raise reader.fail((*path, key), f"unknown key {key!r}", did_you_mean(str(key), known))
    return spec


def _cite(reader: Any, spec: dict[str, Any], path: tuple) -> str:
    """The entry's citation, as the player reads it (the seed's title and section)."""
    if not spec.get("cite"):
        raise reader.fail(path, "give the seed's citation (cite:)")
    return cited(str(spec["cite"]), reader.pack)


__all__ = ["Follows", "Settled", "Unasked", "Unchanged", "carried", "followed", "given_by_table",
           "open_asking_less", "read_follows", "read_settled", "read_unchanged", "settled"]
