"""Which decision point the pack's flow offers next, and why (the flow itself: flow.py).

`next_point(table)` reads the game file's log against the pack's `flow:`: the transitions after
the point that ends it (around an interlude: `arise:`), the first whose tests hold. A trigger
only the table knows (`ask:`) is the seed's question, put to the player: the Offer carries it,
and `next_point` is called again with its answer (a terminal, an answers file's `flow.ID`, the
web page's buttons). A transition that begins a round (`new_round:`) asks the flow's
questions at a round's start first (round_start.py), whose answers the offer tells the
round's first decision (the later ones read them from the log: told.py). The answers that led
to a turn are logged with it, so a turn decided again (`fix`) is offered the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whybot.engine import WhybotError, World, holds

from .flow import FLOW
from .question import AnswerError, Question
from .round_start import round_question, told_at_start
from .unasked import Unasked
from .wording import cited

if TYPE_CHECKING:
    from whybot.engine import Condition, Pack

    from .flow import Flow, Step
    from .table import Table


@dataclass(frozen=True)
class Offer:
    """The next decision point offered: whose, why (the player's words), and the facts the
    game file gives it (`count:`)."""

    point: Any
    bot: str
    why: str
    facts: dict[str, Any] = field(default_factory=dict)
    question: Question | None = None  # the flow asks this first (then: `next_point` again)
    said: dict[str, Any] = field(default_factory=dict)  # the flow's questions answered on the way
    told: dict[str, Unasked] = field(default_factory=dict)  # what a no to one of them tells


def _holds(table: Table, condition: Condition, bot: str,
           board: dict[str, Any] | None = None) -> bool:
    """A condition on what the game file knows of `bot`, or on `board` (a fact it does not
    know: false)."""
    if board is None:
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
    if step.last is not None and not _holds(table, step.last, bot, last.get("snapshot", {})):
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


def interludes(table: Table) -> set[str]:
    """The points the table brings up itself (`arise:`): the flow goes on around them."""
    flow = table.playbook.flow
    return set(flow.arise) if flow else set()


def main_log(table: Table) -> list[dict[str, Any]]:
    """The log without the interludes: the game's own sequence of decision points."""
    skip = interludes(table)
    return [e for e in table.game.log if str(e.get("point")) not in skip]


def _turns_at(table: Table, bot: str, point: str) -> int:
    """The bot's turns at `point` in the run of turns at it that ends the log (the setup's
    buildings placed so far, this chapter's start), interludes aside."""
    count = 0
    for entry in reversed(main_log(table)):
        if str(entry.get("point")) != point:
            break
        count += entry["bot"] == bot
    return count


def _candidates(flow: Flow, table: Table) -> list[tuple[Step, dict[str, Any]]]:
    """The transitions to try, each with the decision it follows: an interlude's own, then
    those of the point before it, past the last one that led to an interlude taken since."""
    log, skip = table.game.log, interludes(table)
    found = []
    if str(log[-1].get("point")) in skip:
        found = [(s, log[-1]) for s in flow.after.get(str(log[-1].get("point")), [])]
    main = next((i for i in range(len(log) - 1, -1, -1)
                 if str(log[i].get("point")) not in skip), None)
    if main is not None:
        steps = flow.after.get(str(log[main].get("point")), [])
        taken = {str(e.get("point")) for e in log[main + 1:]}
        past = max((i + 1 for i, s in enumerate(steps) if s.to in taken & skip), default=0)
        found += [(s, log[main]) for s in steps[past:]]
    return found


def flow_question(pack: Pack, bots: list[str], step: Step, bot: str) -> Question:
    """The seed's question for a trigger only the table knows: yes/no about the one bot (or
    the bot that just decided: `same_bot`), or which of several bots (no: none)."""
    help_ = f"the seed: {cited(step.cite, pack)}"
    if len(bots) == 1 or step.same_bot:  # about the bot that just decided
        return Question(id=f"{FLOW}.{step.id}", what=FLOW, kind="yes_no",
                        text=step.ask.replace("{bot}", bot), help=help_)
    return Question(id=f"{FLOW}.{step.id}", what=FLOW, kind="choice",
                    text=step.ask.replace("{bot}", "a bot") + " Which one? (no: none)",
                    help=help_, choices=[*bots, "no"])


def _asked_bot(table: Table, question: Question, value: Any, bot: str) -> str | None:
    """The bot a yes to the flow's question names (None: no)."""
    value = question.parse(value)
    if value is False or value in ("no", None):
        return None
    if value is True and question.kind == "yes_no":
        return bot
    if value in table.game.bots:
        return str(value)
    raise AnswerError(f"{value!r}: answer one of the bots or no", path=question.id,
                      hint=f"one of: {', '.join([*table.game.bots, 'no'])}")


def next_point(table: Table, answers: dict[str, Any] | None = None) -> Offer | None:
    """The decision point that comes next, from the game file (None: the pack has no flow);
    `answers` to the flow's questions (by question id) so far. An Offer with a `question`:
    ask it, then call again with its answer."""
    flow = table.playbook.flow
    if flow is None:
        return None
    answers = answers or {}
    bot = table.next_bot()
    pending = table.game.pending.get(bot)
    fact = table.playbook.point
    if pending:
        last = next((e for e in reversed(table.game.log) if e["bot"] == bot), None)
        point = pending.get(fact or "", last.get("point") if last else None)
        return Offer(point, bot, flow.continues)
    chosen: Step | None = flow.start if not table.game.log else None
    said: dict[str, Any] = {}
    told: dict[str, Unasked] = {}
    for step, basis in _candidates(flow, table) if table.game.log else []:
        who = basis["bot"] if step.same_bot else bot
        if not _applies(table, step, who, basis):
            continue
        if step.ask:
            question = flow_question(table.engine.pack, table.game.bots, step, who)
            if question.id not in answers:
                return Offer(step.to, who, step.says, question=question, said=said)
            said[question.id] = question.parse(answers[question.id])
            asked = _asked_bot(table, question, said[question.id], who)
            if asked is None:
                why = f"answered no: “{question.text}” ({question.help})"
                told.update({name: Unasked(name, 0, value, why)
                             for name, value in step.no_means.items()})
                continue
            who = asked
        chosen, bot = step, who
        break
    else:
        chosen = chosen or flow.otherwise
    if chosen is None:
        return None
    if chosen.new_round:  # who holds what at the round's start: asked, told to its decisions
        for one in flow.at_round_start.values():
            question = round_question(table.engine.pack, table.game.bots, one)
            if question.id not in answers:
                return Offer(chosen.to, bot, chosen.says, question=question, said=said)
            said[question.id] = question.parse(answers[question.id])
        told.update(told_at_start(table.engine.pack, table.game.bots, flow.at_round_start,
                                  said, bot))
    facts = {**chosen.give,
             **({chosen.count: _turns_at(table, bot, chosen.to)} if chosen.count else {})}
    return Offer(chosen.to, bot, chosen.says, facts, said=said, told=told)


__all__ = ["FLOW", "Offer", "flow_question", "interludes", "main_log", "next_point"]
