"""What follows when a page's rule fires: its effects in the order written, its action, then
where the reading goes (a statement reads on; a call, a goto, a stop, the page read again).
A page read only to make a choice (`call` with `choose`) makes it and nothing else.
The walk's `Turn` (`turn.py`) calls `apply_rule` for each rule that fires.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..evaluator.evaluate import holds
from ..language.outcomes import Assign, Choice
from ..language.pack import Rule
from ..trace import Action, Step
from .effects import apply_effect, fill

if TYPE_CHECKING:
    from .turn import Turn


def apply_rule(turn: Turn, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
    """Effects in the order written, then the action, then where the reading goes. What
    a rule targets lasts for its action: its `target` choices are unbound afterwards."""
    if turn.choosing is not None:
        return _choose_only(turn, rule, bound, step, depth)
    try:
        return _applied(turn, rule, bound, step, depth)
    finally:
        for choice in rule.then.choices:
            if choice.role == "target":
                turn.unbind(choice.alias)


def _choose_only(turn: Turn, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
    """A page read only to choose: statements are passed by; the first other rule that
    applies makes the choices (and `set`s of the variables) asked for, nothing else, and
    the page ends there."""
    assert turn.choosing is not None
    if rule.then.reads_on:
        step.notes.append("read only to choose: a statement, passed by")
        return "continue"
    outcome: dict[str, Any] = {}
    step.outcome = outcome
    with _bound_for(turn, bound):
        for effect in rule.then.effects:
            if (isinstance(effect, Choice) and effect.alias in turn.choosing) or (
                    isinstance(effect, Assign) and effect.name in turn.choosing):
                apply_effect(effect, turn, outcome, step.page, rule.id, depth)
    made = [alias for alias in sorted(turn.choosing) if alias in turn.bound]
    step.notes.append("read only to choose: " + (f"chose {', '.join(made)}" if made else
                                                 "this rule applies but chooses nothing")
                      + "; its action waits until the page is read to act")
    return "end"


@contextmanager
def _bound_for(turn: Turn, bound: dict[str, Any]) -> Iterator[None]:
    """The rule's own aliases bound while its outcome applies; what they hid, back after."""
    saved = {alias: turn.bound[alias] for alias in bound if alias in turn.bound}
    turn.bound.update(bound)
    try:
        yield
    finally:
        for alias in bound:
            if alias in saved:
                turn.bound[alias] = saved[alias]
            else:
                turn.bound.pop(alias, None)


def _applied(turn: Turn, rule: Rule, bound: dict[str, Any], step: Step, depth: int) -> str:
    then = rule.then
    outcome: dict[str, Any] = {}
    step.outcome = outcome
    turn.rule_says = rule.says
    with _bound_for(turn, bound):
        for effect in then.effects:
            if apply_effect(effect, turn, outcome, step.page, rule.id, depth) == "stop":
                return "stop"
        if then.action is not None:
            _act(turn, rule, step, outcome)
            after = turn.pack.pages[step.page].after_action
            if after is not None:  # what one action of this page uses up
                spent: dict[str, Any] = {}
                for effect in after.effects:
                    apply_effect(effect, turn, spent, step.page, rule.id, depth)
                outcome["after_action"] = spent
    decision = turn.trace.decision
    if then.stop is not None:
        decision.result = outcome["stop"] = fill(then.stop, turn)
        return "stop"
    if then.call is not None:
        target = fill(then.call, turn)
        if then.choose:
            outcome["choose"] = list(then.choose)
        if target not in turn.pack.pages and then.missing is not None:
            outcome["missing"] = target  # not read: there is no such page
            step.notes.append(fill(then.missing, turn))
        else:
            outcome["call"] = target
            if _called(turn, target, depth + 1, frozenset(then.choose) or None) == "stop":
                return "stop"
        if then.goto is None and (then.action is None or then.reads_on):
            return "continue"  # an action's page goes on as after any action (below)
    if then.goto is not None:
        target = outcome["goto"] = fill(then.goto, turn)
        return turn.walk(target, depth)
    if then.reads_on:
        return "continue"
    page = turn.pack.pages[step.page]
    if then.action is not None and page.repeat_while is not None and \
            holds(page.repeat_while, turn.world()):
        step.notes.append(f"{page.repeat_text}: restart this page from the top")
        return "again"
    return "end"


def _called(turn: Turn, page: str, depth: int, choosing: frozenset[str] | None) -> str:
    previous, turn.choosing = turn.choosing, choosing
    try:
        return turn.walk(page, depth)
    finally:
        turn.choosing = previous


def _act(turn: Turn, rule: Rule, step: Step, outcome: dict[str, Any]) -> None:
    then = rule.then
    assert then.action is not None
    target = outcome["target"]["chosen"] if "target" in outcome else None
    action = Action(fill(then.action.name, turn),
                    {name: fill(text, turn) for name, text in then.action.texts},
                    rule.id, step.page, rule.says, rule.cite, list(then.action.guidance),
                    target, (turn.facts_behind(rule) if turn.record else None) or [])
    outcome["action"] = action.action
    turn.trace.decision.actions.append(action)
    turn.trace.decision.steps.append(action)
