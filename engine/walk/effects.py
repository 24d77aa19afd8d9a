"""Applying a fired rule's effects: counters, dice, choices, entity changes, spreads, loops.

Each effect writes what it did into the step's outcome, so the trace shows every value set,
every roll, every narrowing of a choice and every unit spread — nothing happens off the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..compile.codes import normal_number
from ..derive.derivation import EID
from ..errors import DecisionError
from ..evaluator.evaluate import evaluate, holds, number, value_of
from ..language.outcomes import (
    DIE,
    Assign,
    Choice,
    Distribute,
    Draw,
    Each,
    Rederive,
    Remove,
    Roll,
    Say,
    Template,
    Update,
)
from ..language.tree_queries import all_refs
from ..language.unparse import text
from ..trace import Chosen, Said
from .choices import choose, ordered, satisfies

if TYPE_CHECKING:
    from .turn import Turn


def fill(text: Template, turn: Turn) -> str:
    """A template with its `{value}` placeholders filled from the board and bound entities."""
    if text.static:
        return text.text
    world = turn.world()
    return "".join(part if isinstance(part, str) else plain(value_of(part, world, turn.bound))
                   for part in text.parts)


def plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "" if value is None else str(value)


def apply_effect(effect: Any, turn: Turn, outcome: dict[str, Any], page: str, rule: str,
                 depth: int) -> str | None:
    """Apply one effect; returns "stop" if a page read by `each` ended the turn."""
    if isinstance(effect, Roll):
        _roll(effect, turn, outcome)
    elif isinstance(effect, Draw):
        _draw(effect, turn, outcome)
    elif isinstance(effect, Assign):
        before = turn.board.get(effect.name)
        turn.board[effect.name] = normal_number(evaluate(effect.value, turn.world(), turn.bound))
        outcome.setdefault("set", {})[effect.name] = {
            "from": before, "to": turn.board[effect.name], "by": effect.text}
    elif isinstance(effect, Choice):
        outcome[effect.role] = _choose(effect, turn, page, rule)
    elif isinstance(effect, Say):
        said = fill(effect.text, turn)
        outcome.setdefault("say", []).append(said)
        turn.trace.decision.say.append(said)
        hint = fill(effect.snapshot, turn) if effect.snapshot is not None else None
        turn.trace.decision.steps.append(Said(said, page, rule, hint))
    elif isinstance(effect, Update):
        if effect.optional and effect.alias not in turn.bound:
            outcome.setdefault("notes", []).append(f"no {effect.alias} was chosen: nothing to "
                                                   "change")
        else:
            _update(effect, turn, outcome)
    elif isinstance(effect, Distribute):
        outcome["distribute"] = _distribute(effect, turn)
    elif isinstance(effect, Remove):
        if effect.optional and effect.alias not in turn.bound:
            outcome.setdefault("notes", []).append(f"no {effect.alias} was chosen: nothing is "
                                                   "used up")
        else:
            entity = _bound(effect.alias, turn)
            turn.store.remove(entity)
            outcome.setdefault("removed", []).append(turn.label(entity))
    elif isinstance(effect, Rederive):
        turn.rederive()
        outcome["rederive"] = True
    elif isinstance(effect, Each):
        return _each(effect, turn, outcome, depth)
    return None


def _roll(effect: Roll, turn: Turn, outcome: dict[str, Any]) -> None:
    count = value_of(effect.count, turn.world(), turn.bound)
    if not number(count) or int(count) != count:
        shown = plain(count) or "unknown"
        raise DecisionError(f"roll {effect.text}: the number of dice is {shown}, not a "
                            "whole number")
    roll = turn.dice.roll(int(count), effect.sides,
                          fill(effect.says, turn) if effect.says.text else turn.rule_says)
    if effect.success is not None:
        world = turn.world()
        hits = [f for f in roll.faces if holds(effect.success, world, {DIE: {"face": f}})]
        roll.count(len(hits), counting(effect, turn.board))
    turn.board[effect.alias] = roll.total
    outcome.setdefault("rolls", []).append(roll.as_dict())


def _draw(effect: Draw, turn: Turn, outcome: dict[str, Any]) -> None:
    """One d(total) over the pool, counted in the order listed; `as` gets the name drawn."""
    pool = []
    for name, value in effect.pool:
        count = value_of(value, turn.world(), turn.bound)
        if not number(count) or int(count) != count or count < 0:
            shown = plain(count) or "unknown"
            raise DecisionError(f"draw: the pool's {name} is {shown}, not a whole number of "
                                "0 or more")
        pool.append((name, int(count)))
    total = sum(count for _, count in pool)
    if total == 0:
        raise DecisionError(f"draw: the pool is empty ({', '.join(n for n, _ in pool)}: 0)")
    roll = turn.dice.roll(1, total, fill(effect.says, turn) if effect.says.text
                          else turn.rule_says)
    turn.board[effect.alias] = roll.draw(pool)
    outcome.setdefault("rolls", []).append(roll.as_dict())


def counting(effect: Roll, board: dict[str, Any]) -> str:
    """A success condition as the trace shows it: `face >= success_from; success_from = 4`."""
    assert effect.success is not None
    read = dict.fromkeys(r.name for r in all_refs(effect.success) if r.scope is None)
    values = ", ".join(f"{name} = {plain(board.get(name)) or 'unknown'}" for name in read)
    shown = text(effect.success).replace(f"{DIE}.", "")
    return f"{shown}; {values}" if values else shown


def _choose(effect: Choice, turn: Turn, page: str, rule: str) -> dict[str, Any]:
    world = turn.world()
    chosen = choose(effect.kind, effect.scope, effect.where, effect.prefer, effect.order,
                    turn.store.items(effect.kind), world, turn.dice, turn.label)
    if chosen.entity is None and effect.optional:
        turn.unbind(effect.alias)  # nothing chosen: no earlier choice lingers under the alias
        chosen.narrowing.append(f"optional: no {effect.kind} chosen")
        return chosen.as_dict()
    if chosen.entity is None:
        raise DecisionError(f"rule {rule} applied, but no {effect.kind} matches its "
                            f"{effect.role} ({effect.where or 'any'})")
    earlier = turn.bound.get(effect.alias)
    choices = turn.trace.decision.choices
    kept = earlier is not None and earlier[EID] == chosen.entity[EID] and effect.alias in choices
    turn.bind(effect.alias, chosen.entity)
    # a page that repeats (an overlay's lines) selects its card again: the rule that chose it stays
    choices[effect.alias] = Chosen(turn.shown(chosen.entity),
                                   choices[effect.alias].by if kept else rule,
                                   choices[effect.alias].page if kept else page)
    return chosen.as_dict(turn.shown(chosen.entity))


def _bound(alias: str, turn: Turn) -> dict[str, Any]:
    entity = turn.bound.get(alias)
    if entity is None:
        raise DecisionError(f"no entity is bound to {alias!r} here")
    return entity


def _update(effect: Update, turn: Turn, outcome: dict[str, Any]) -> None:
    entity = _bound(effect.alias, turn)
    changes = {}
    for assign in effect.fields:
        before = entity.get(assign.name)
        value = evaluate(assign.value, turn.world(), turn.bound)
        turn.store.set(entity, assign.name, value)
        changes[assign.name] = {"from": before, "to": value, "by": assign.text}
    turn.refresh(entity)
    outcome.setdefault("update", []).append({"entity": turn.label(entity), "set": changes})


def spread(amount: int, rooms: list[int | None], even: bool = False) -> tuple[list[int], int]:
    """Even distribution: raise every open slot by the same amount until a cap fills, again
    and again; what is left over after an even share goes one each to the first open slots
    (unless `even`: then it is returned with what found no room). Returns the units added per
    slot and the units not placed."""
    added = [0] * len(rooms)

    def left(index: int) -> int | None:
        room = rooms[index]
        return None if room is None else room - added[index]

    remaining = amount
    active = [i for i in range(len(rooms)) if left(i) != 0]
    while remaining > 0 and active:
        share = remaining // len(active)
        if share == 0:
            if even:
                break
            for index in active[:remaining]:
                added[index] += 1
            remaining = 0
            break
        rooms_left = [r for r in (left(i) for i in active) if r is not None]
        give = min([share, *rooms_left])
        for index in active:
            added[index] += give
        remaining -= give * len(active)
        active = [i for i in active if left(i) != 0]
    return added, remaining


def _distribute(effect: Distribute, turn: Turn) -> dict[str, Any]:
    world = turn.world()
    amount = value_of(effect.amount, world, turn.bound)
    if not number(amount) or amount < 0:
        raise DecisionError(f"distribute: the amount is {plain(amount) or 'unknown'}")
    slots = [e for e in turn.store.items(effect.kind)
             if satisfies(effect.where, effect.scope, e, world)]
    slots = ordered(slots, effect.order, effect.scope, world)
    rooms: list[int | None] = []
    for entity in slots:
        if effect.cap is None:
            rooms.append(None)
            continue
        cap = value_of(effect.cap, world, {effect.scope: entity})
        have = entity.get(effect.field) or 0
        rooms.append(None if not number(cap) or cap <= 0 else max(0, int(cap) - have))
    added, rest = spread(int(amount), rooms, effect.even)
    shown = []
    for entity, more in zip(slots, added, strict=True):
        if more:
            turn.store.set(entity, effect.field, (entity.get(effect.field) or 0) + more)
            turn.refresh(entity)
        shown.append({"entity": turn.label(entity), "added": more,
                      "now": entity.get(effect.field)})
    if effect.rest:
        turn.board[effect.rest] = rest
    return {"amount": amount, "over": len(slots), "to": shown, "rest": rest,
            "says": effect.says, "even": effect.even}


def _each(effect: Each, turn: Turn, outcome: dict[str, Any], depth: int) -> str | None:
    world = turn.world()
    items = [e for e in turn.store.items(effect.kind)
             if satisfies(effect.where, effect.scope, e, world)]
    items = ordered(items, effect.order, effect.scope, world)
    outcome["each"] = {"from": effect.kind, "visited": [turn.label(e) for e in items]}
    for item in items:
        entity = turn.store.find(effect.kind, item[EID])  # as it is now (rederive renews it)
        if entity is None:
            continue  # removed by an earlier visit
        turn.bind(effect.alias, entity)
        page = fill(effect.page, turn)
        result = turn.walk(page, depth + 1)
        turn.write_back(effect.alias, entity)
        turn.unbind(effect.alias)
        if result == "stop":
            return "stop"
    return None
