"""A pack's flow (`flow:` in play.yaml): which decision point comes next, and why.

The pack declares, as data: the first point of a new game (`start:`), what follows each point
(`after:` — transitions tried in order, each with the player's words `says:` and any of: the
last decision's `result:` among some, a `when:` condition on what the game file knows of the
next bot (`all_bots:` of every bot), `fewer: N` — the bot has had fewer than N turns in the
run of turns at the point that ends the log — with `count: FACT` giving the turn that number,
`every_bot:` every bot has had its turn at the last point since another point (the round
has come round, whoever led it), `give:` facts the transition itself says), what a
stopped card's next play is (`continues:`), what follows a point with no transition of its
own (`otherwise:`), and the points the table brings up itself (`arise:`, offered for `--at`).
`play` offers the next point from it; `--at` jumps anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whybot.engine import (
    Condition,
    ConditionSyntaxError,
    WhybotError,
    World,
    did_you_mean,
    holds,
    parse,
)

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True)
class Step:
    """One transition: to the point `to`, said as `says`, when its tests hold."""

    to: str
    says: str
    result: tuple[str, ...] = ()
    when: Condition | None = None
    all_bots: bool = False
    fewer: int = 0
    count: str | None = None
    every_bot: bool = False  # only once every bot has had its turn in the run at this point
    give: dict[str, Any] = field(default_factory=dict)  # facts the transition itself says


@dataclass
class Flow:
    """The pack's decision points in game order (see the module docstring)."""

    start: Step
    after: dict[str, list[Step]] = field(default_factory=dict)
    otherwise: Step | None = None
    continues: str = "the bot's stopped card goes on"
    arise: dict[str, str] = field(default_factory=dict)


STEP_KEYS = {"to", "says", "result", "when", "all_bots", "fewer", "count", "every_bot", "give"}


@dataclass(frozen=True)
class Offer:
    """The next decision point offered: whose, why (the player's words), and the facts the
    game file gives it (`count:`)."""

    point: Any
    bot: str
    why: str
    facts: dict[str, Any] = field(default_factory=dict)


def read_flow(reader: Any, data: Any, points: set[str]) -> Flow | None:
    """The `flow:` section, checked by a playbook reader (`reader.fail`, `reader.mapping`)."""
    if data is None:
        return None
    spec = reader.mapping(data, ("flow",))
    known = {"start", "after", "otherwise", "continues", "arise"}
    for key in spec:
        if key not in known:
            raise reader.fail(("flow", key), f"unknown key {key!r} (one of: "
                                             f"{', '.join(sorted(known))})")

    def step(raw: Any, path: tuple) -> Step:
        item = reader.mapping(raw, path)
        for key in item:
            if key not in STEP_KEYS:
                raise reader.fail((*path, key), f"unknown key {key!r}",
                                  did_you_mean(str(key), STEP_KEYS))
        if item.get("to") not in points:
            raise reader.fail((*path, "to"), f"{item.get('to')!r} is no decision point")
        if not item.get("says"):
            raise reader.fail(path, "a transition says why, in the player's words (says:)")
        when = None
        if item.get("when") is not None:
            try:
                when = parse(str(item["when"]), reader.pack.kinds)
            except ConditionSyntaxError as exc:
                raise reader.fail((*path, "when"), f"not a condition: {exc}") from None
        count = reader.fact(item.get("count"), (*path, "count"))
        give = reader.mapping(item.get("give"), (*path, "give"))
        for name in give:
            reader.fact(name, (*path, "give", name))
        result = item.get("result") or []
        return Step(str(item["to"]), str(item["says"]),
                    tuple(map(str, result if isinstance(result, list) else [result])),
                    when, bool(item.get("all_bots")), int(item.get("fewer") or 0), count,
                    bool(item.get("every_bot")), give)

    after = {}
    for point, steps in reader.mapping(spec.get("after"), ("flow", "after")).items():
        if point not in points:
            raise reader.fail(("flow", "after", point), f"{point!r} is no decision point")
        if not isinstance(steps, list):
            raise reader.fail(("flow", "after", point), "expected a list of transitions")
        after[point] = [step(s, ("flow", "after", point, i)) for i, s in enumerate(steps)]
    arise = {str(k): str(v) for k, v in reader.mapping(spec.get("arise"),
                                                        ("flow", "arise")).items()}
    for point in arise:
        if point not in points:
            raise reader.fail(("flow", "arise", point), f"{point!r} is no decision point")
    return Flow(step(spec.get("start"), ("flow", "start")), after,
                step(spec["otherwise"], ("flow", "otherwise")) if spec.get("otherwise")
                else None, str(spec.get("continues") or Flow.continues), arise)


def _holds(table: Table, condition: Condition, bot: str) -> bool:
    """A condition on what the game file knows of `bot` (a fact it does not know: false)."""
    board = {name: spec.default for name, spec in table.engine.pack.facts.board.items()
             if spec.default is not None}
    board.update(table.said(bot))  # what the player said last (a round), then what is kept
    board.update(table.snapshot_for(bot))
    try:
        return holds(condition, World(board))
    except (KeyError, TypeError, WhybotError):  # a fact the game does not know: false
        return False


def _applies(table: Table, step: Step, bot: str, last: dict[str, Any]) -> bool:
    if step.result and str(last["decision"].get("result")) not in step.result:
        return False
    if step.fewer and _turns_at(table, bot, step.to) >= step.fewer:
        return False
    if step.every_bot and not all(_turns_at(table, b, str(last.get("point")))
                                  for b in table.game.bots):
        return False
    if step.when is not None:
        bots = table.game.bots if step.all_bots else [bot]
        return all(_holds(table, step.when, b) for b in bots)
    return True


def _turns_at(table: Table, bot: str, point: str) -> int:
    """The bot's turns at `point` in the run of turns at it that ends the log (the setup's
    buildings placed so far, this chapter's start)."""
    count = 0
    for entry in reversed(table.game.log):
        if str(entry.get("point")) != point:
            break
        count += entry["bot"] == bot
    return count


def next_point(table: Table) -> Offer | None:
    """The decision point that comes next, from the game file (None: the pack has no flow)."""
    flow = table.playbook.flow
    if flow is None:
        return None
    bot = table.next_bot()
    pending = table.game.pending.get(bot)
    fact = table.playbook.point
    if pending:
        last = next((e for e in reversed(table.game.log) if e["bot"] == bot), None)
        point = pending.get(fact or "", last.get("point") if last else None)
        return Offer(point, bot, flow.continues)
    if not table.game.log:
        chosen: Step | None = flow.start
    else:
        last = table.game.log[-1]
        chosen = next((s for s in flow.after.get(str(last.get("point")), [])
                       if _applies(table, s, bot, last)), flow.otherwise)
    if chosen is None:
        return None
    facts = {**chosen.give,
             **({chosen.count: _turns_at(table, bot, chosen.to)} if chosen.count else {})}
    return Offer(chosen.to, bot, chosen.says, facts)


__all__ = ["Flow", "Offer", "Step", "next_point", "read_flow"]
