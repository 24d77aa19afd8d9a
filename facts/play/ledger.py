"""What a turn writes into the game file: its changes to the standing state, what a stopped
card carries to the bot's next play, and the decision in short (what the log keeps and a
replay compares).

A change is `{path: [...], before: v, after: v}` (`before` left out when the game did not know
the value): `undo` sets every `before` back, in reverse order, so taking a turn back is exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from whybot.engine import Pack, Trace, World, evaluate, holds

from .consult import shown
from .printed import printed_changes
from .question import field_question, list_question
from .wording import plain

if TYPE_CHECKING:
    from .playbook import Carry
    from .table import Table
    from .timeline import Timeline
    from .turn import TurnResult

_MISSING = object()


def _label(entity: dict[str, Any], pack: Pack) -> str:
    """How the log names a chosen entity: its kind's label field, else the pack's lead
    fields (`administration · 3 · pivot`)."""
    for spec in pack.facts.entities.values():
        if spec.label and (name := spec.name_of(entity)):
            return name
    lead = [item.partition(" ")[0] for item in pack.presentation.get("lead", [])]
    return " · ".join(str(entity[f]) for f in lead if f in entity) or \
        ", ".join(f"{k}={v}" for k, v in list(entity.items())[:3])


def compact(trace: Trace, pack: Pack) -> dict[str, Any]:
    """The decision as the log keeps it: result, choices and actions by label, rules fired."""
    decision = trace.decision
    actions = []
    for action in decision.actions:
        item: dict[str, Any] = {"action": action.action, "rule": action.rule}
        if action.target:
            item["target"] = _label(action.target, pack)
        actions.append(item)
    return {"result": decision.result,
            "choices": {alias: _label(entity, pack)
                        for alias, entity in decision.entities().items() if entity},
            "actions": actions, "fired": trace.fired()}


def summary(decision: dict[str, Any]) -> str:
    """One line: the choices, each action (and its target), the result if not `decided`."""
    targets = {a.get("target") for a in decision.get("actions", [])}
    parts = [" · ".join(v for v in decision.get("choices", {}).values() if v not in targets)]
    parts += [a["action"] + (f" ({a['target']})" if a.get("target") else "")
              for a in decision.get("actions", [])]
    text = ", ".join(p for p in parts if p) or "no action"
    result = decision.get("result", "decided")
    return text if result == "decided" else f"{text} [{result}]"


def as_left(pack: Pack, name: str, reading: Any,
            forget: dict[str, list[str]] | None = None) -> Any:
    """A fact as the walk left it, or a list's entities with the fields a player gives (none
    that a rule derives, nor those `forget` names for its kind); None when the walk had
    neither."""
    spec = next((s for s in pack.facts.entities.values() if s.key == name), None)
    if spec is None:
        return reading.board.get(name)
    kind = next(k for k, s in pack.facts.entities.items() if s is spec)
    dropped = set((forget or {}).get(kind, []))
    return [{f: v for f, v in entity.items()
             if f in spec.fields and not spec.fields[f].derived and f not in dropped}
            for entity in reading.entities.get(kind, [])]


def last_answer(snapshot: dict[str, Any], name: str) -> Any:
    """The judgment `name` as the player said it last in a turn: of the table the last
    action that it was asked after left (a count such as the bot's starports, said at the
    card's start and after each action that could change it); None if never said."""
    layers = [snapshot.get("answers", {}), *snapshot.get("answers_after", [])]
    return next((layer[name] for layer in reversed(layers) if name in layer), None)


def kept_given(table: Table, answers: dict[str, Any], bot: str) -> dict[str, Any]:
    """Of an answers file's values, the facts the game keeps (play.yaml `keep:`) and knows
    already for a turn of `bot`, checked: a kept value given again replaces the kept one (the
    turn writes it back); one the game does not know yet is asked as usual."""
    pack, state = table.engine.pack, table.game.state
    known = {**state["game"], **state["bots"].get(bot, {})}
    kinds = {spec.key: spec for spec in pack.facts.entities.values() if spec.key}
    return {name: (list_question(name, kinds[name], pack, []) if name in kinds else
                   field_question(pack.facts.board[name], pack, name, "fact")).parse(value)
            for name, value in answers.items()
            if name in known and table.playbook.scope_of(name) is not None}


def turn_changes(table: Timeline, result: TurnResult) -> list[dict[str, Any]]:
    """The kept facts and entity fields as the walk left them, where they differ from the game
    file (values the turn only learned count too: the game knows them from now on)."""
    book, state = table.playbook, table.game.state
    board, snapshot = result.reading.board, result.snapshot
    set_by_steps = {name for step in result.trace.steps for name in step.outcome.get("set", {})}
    lists = {spec.key for spec in table.engine.pack.facts.entities.values() if spec.key}
    changes: list[dict[str, Any]] = []

    def note(path: list[str], before: Any, after: Any) -> None:
        if before is _MISSING:
            changes.append({"path": path, "after": after})
        elif before != after:
            changes.append({"path": path, "before": before, "after": after})

    for scope, names in book.keep.items():
        prefix = ["game"] if scope == "game" else ["bots", result.bot]
        known = state["game"] if scope == "game" else state["bots"].get(result.bot, {})
        for name in names:
            if name in board and (name in snapshot or name in set_by_steps):
                note([*prefix, name], known.get(name, _MISSING), board[name])
            elif name in lists and name in snapshot:  # a list fixed for the game, as given
                note([*prefix, name], known.get(name, _MISSING), snapshot[name])
    for kind, (scope, fields) in book.keep_fields.items():
        spec = table.engine.pack.facts.entities[kind]
        if spec.key not in snapshot:
            continue
        owner = "game" if scope == "game" else result.bot
        kept = state["entities"].get(owner, {}).get(kind, {})
        for entity in result.reading.entities.get(kind, []):
            label = str(entity.get(spec.naming_field or "", ""))
            for name in fields:
                if label and name in entity:
                    note(["entities", owner, kind, label, name],
                         kept.get(label, {}).get(name, _MISSING), entity[name])
    by_table = {item.id for item in result.unasked}  # not said: it followed (unasked.py)
    for scope, names in book.remember.items():
        owner = "game" if scope == "game" else result.bot
        said = state.get("said", {}).get(owner, {})
        for name in names:
            value = as_left(table.engine.pack, name, result.reading, book.forget) \
                if name in snapshot and name not in by_table else last_answer(snapshot, name)
            if value is not None:  # a judgment: as the player said it last
                note(["said", owner, name], said.get(name, _MISSING), value)
    if book.deck is not None:  # what the turn's cards new to the game show
        answered = any(asked["id"] == book.deck.key for asked in result.asked)
        changes += printed_changes(book.deck, snapshot, state, answered)
    return changes


def change_words(change: dict[str, Any]) -> str:
    """A change as the table reads it: "red: hand counter 6 → 5", "red's guild card Mining
    Interest: exhausted no → yes" (not the game file's path)."""
    path = [str(part) for part in change["path"]]
    if path[0] == "entities":
        owner, kind, label, name = path[1:5]
        where = f"{'the game' if owner == 'game' else owner + chr(39) + 's'} {plain(kind)} " \
                f"{label}: {plain(name)}"
    else:
        where = f"{'the game' if path[0] == 'game' else path[1]}: {plain(path[-1])}"
    before = f"{shown(change['before'])} → " if "before" in change else "(new) "
    return f"{where} {before}{shown(change['after'])}"


def _parent(state: dict[str, Any], path: list[str]) -> dict[str, Any]:
    node = state
    for key in path[:-1]:
        node = node.setdefault(key, {})
    return node


def apply_changes(state: dict[str, Any], changes: list[dict[str, Any]]) -> None:
    for change in changes:
        _parent(state, change["path"])[change["path"][-1]] = change["after"]


def revert_changes(state: dict[str, Any], changes: list[dict[str, Any]]) -> None:
    """Every `before` set back, in reverse order; a value the game did not know is removed
    again (and a mapping it leaves empty, below the state's own parts)."""
    for change in reversed(changes):
        path = change["path"]
        parent = _parent(state, path)
        if "before" in change:
            parent[path[-1]] = change["before"]
            continue
        parent.pop(path[-1], None)
        for depth in range(len(path) - 1, 1, -1):
            node = _parent(state, path[:depth])
            if node.get(path[depth - 1]) == {}:
                del node[path[depth - 1]]


def carried(table: Timeline, result: TurnResult) -> dict[str, Any] | None:
    """What the bot's next play starts from when the decision stopped on a rule `play.yaml`
    names under `carry:` (a card stopped for a Battle's result); None otherwise."""
    if result.trace.decision.result == "decided":
        return None
    stopped = [rule for rule in result.trace.fired() if rule in table.playbook.carry]
    if not stopped:
        return None
    return carry_values(table.engine.pack, table.playbook.carry[stopped[-1]], result)


def carry_values(pack: Pack, carries: list[Carry], result: TurnResult) -> dict[str, Any] | None:
    """The facts and lists of the first of `carries` whose `when` holds on the board the
    decision left (with the entities it chose bound by their alias); None if none holds."""
    bound = {alias: entity for alias, entity in result.trace.decision.entities().items()
             if entity}
    world = World(result.reading.board, result.reading.entities)
    carry = next((c for c in carries if c.when is None or holds(c.when, world, bound)), None)
    if carry is None:
        return None
    values: dict[str, Any] = {name: evaluate(expr, world, bound)
                              for name, expr in carry.facts.items()}
    for name in carry.left:
        if (value := as_left(pack, name, result.reading)) is not None:
            values[name] = value
    for key, items in carry.lists.items():
        values[key] = [{name: evaluate(expr, world, bound) for name, expr in item.items()}
                       for item in items]
    return values


__all__ = ["apply_changes", "as_left", "carried", "carry_values", "change_words", "compact",
           "kept_given", "revert_changes", "summary", "turn_changes"]
