"""`whybot batch --diff`: one snapshot decided under the base rules and under the overlay, as
one row saying whether the decision changed, where the walks part and both decisions.

A row, for pandas (`pandas.read_json(path, lines=True)`, then `json_normalize` for the sides):
`snapshot`, `ok`, `changed`, `name`, `pack`; `step`, `page`, `rule` — the first rule whose
outcome differs (`engine/explain/divergence.py`), None when the walks took the same steps; `base`
and `overlay` — each side's decision (result, the pack's columns, actions) or its `error`, with
`rule_outcome`, what became of that rule on that side, and with `odds` that side's exact odds
(as `batch --odds` gives them); `judgments` — those whose values differ. A snapshot that neither
side can decide is an error row, as in a plain batch; one that only one side can decide (an
overlay adding a module the base rules refuse) is a changed one, and so is one whose decision is
the same at the batch's seed but whose odds differ (the other dice may fall otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from whybot.engine import (
    Engine,
    Situation,
    Trace,
    WhybotError,
    divergence,
    judgments_changed,
    only_one_declares,
    without,
)

from .rows import Outcome, Row, decision_of, guarded, odds_part

Situate = Callable[[], tuple[Engine, Situation]]
_WHO = ("rule", "page")  # which rule took an action: not part of what the bot does


def attempt_diff(origin: str, seed: int | None, base: Situate, overlay: Situate,
                 odds: bool = False) -> Outcome:
    """The diff row of one snapshot, with each side's odds if asked (never raises, as
    `rows.attempt`)."""
    return guarded(origin, lambda: _row(origin, _side(base, seed), _side(overlay, seed), odds))


_Decided = tuple[Engine, Situation, Trace]


def _side(situate: Situate, seed: int | None) -> _Decided | WhybotError:
    try:
        engine, situation = situate()
        return engine, situation, engine.decide(situation, seed=seed, explain=False,
                                                record=False)
    except WhybotError as exc:  # bad input on this side only, maybe: the row says so
        return exc


def _row(origin: str, base: _Decided | WhybotError, overlay: _Decided | WhybotError,
         odds: bool) -> Row:
    if isinstance(base, WhybotError) and isinstance(overlay, WhybotError):
        raise base  # a bad snapshot, whatever the rules
    known = base if not isinstance(base, WhybotError) else overlay
    engine, situation, _ = known  # type: ignore[misc]  # one side decided
    row: dict[str, Any] = {"snapshot": origin, "ok": True, "changed": False,
                           "name": situation.name, "pack": engine.pack.name,
                           "step": None, "page": None, "rule": None}
    sides = {"base": _decision(base, odds), "overlay": _decision(overlay, odds)}
    judgments: list[str] = []
    if isinstance(base, WhybotError) or isinstance(overlay, WhybotError):
        row["changed"] = True  # decided on one side only
    else:
        names = only_one_declares(base[0].pack, overlay[0].pack)
        row["changed"] = _what_it_does(sides["base"], names) != \
            _what_it_does(sides["overlay"], names) or \
            _distribution(sides["base"], names) != _distribution(sides["overlay"], names)
        parted = divergence(base[0], base[2], overlay[0], overlay[2])
        if parted is not None:
            row.update(step=parted.step, page=parted.page, rule=parted.rule)
            sides["base"]["rule_outcome"] = parted.base
            sides["overlay"]["rule_outcome"] = parted.other
        judgments = judgments_changed(base[2], overlay[2], names)
    return {**row, **sides, "judgments": judgments, "error": None}


def _decision(side: _Decided | WhybotError, odds: bool) -> dict[str, Any]:
    if isinstance(side, WhybotError):
        return {"error": side}  # rendered where the batch runs (`rows.rendered`)
    engine, situation, trace = side
    decision = decision_of(engine, trace)
    if odds:
        decision["odds"] = odds_part(engine, situation)
    return decision


def _what_it_does(side: dict[str, Any], names: frozenset[str]) -> Any:
    """A decision as compared: without the rules behind its actions (a house rule that
    replaces a rule by one doing the same changes no decision), nor the fields only one side
    declares (`names`: an overlay adding a field to the entity chosen)."""
    actions = [{k: v for k, v in action.items() if k not in _WHO} for action in side["actions"]]
    return without({**side, "actions": actions, "odds": None}, names)


def _distribution(side: dict[str, Any], names: frozenset[str]) -> Any:
    """A side's odds as compared: each decision (without the fields only one side declares)
    with its probability, in a stable order; None when there are none (not asked, or refused
    on this side: odds worked out on one side only are a change)."""
    odds = side.get("odds")
    if odds is None or "error" in odds:
        return None
    return sorted((json.dumps(without(o["decision"], names), sort_keys=True, default=str),
                   o["probability"]) for o in odds["outcomes"])


__all__ = ["attempt_diff"]
