"""One snapshot's result row, the same bytes wherever it was decided.

A row is made in two steps so that a snapshot decided on another machine reads exactly like one
decided here: `attempt` decides (in this process, a forked worker or a Dask worker) and gives
either the finished row or the `WhybotError` that is the row; `rendered` turns such an error
into its line where the batch runs, because the line names files relative to the working
folder there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from whybot.engine import Engine, EngineFault, Situation, Trace, WhybotError

from .common import message

Row = dict[str, Any]
Outcome = Row | WhybotError


def attempt(origin: str, seed: int | None,
            situate: Callable[[], tuple[Engine, Situation]], odds: bool = False) -> Outcome:
    """Decide the situation `situate()` reads (and with `odds`, its exact odds over the dice
    not pre-rolled); never raises (save BaseException).

    A bad snapshot is the WhybotError itself, for `rendered`, and so is the reason odds were
    refused, under `odds.error`; an engine fault or a bug is an error row already (its text
    names no file), so the batch goes on either way."""
    def row() -> Row:
        engine, situation = situate()
        trace = engine.decide(situation, seed=seed, explain=False, record=False)
        decided = _decided(origin, engine, situation, trace)
        if odds:
            decided["odds"] = odds_part(engine, situation)
        return decided

    return guarded(origin, row)


def guarded(origin: str, work: Callable[[], Row]) -> Outcome:
    """The row `work` makes, or what stands for it when it fails: the WhybotError (bad input,
    rendered later), or a fault row (an engine fault or a bug: the batch goes on)."""
    try:
        return work()
    except WhybotError as exc:
        return exc
    except EngineFault as exc:
        return fault(origin, f"engine fault: {exc}")
    except Exception as exc:  # a bug: record it against this row and carry on
        return fault(origin, f"internal error: {type(exc).__name__}: {exc}")


def odds_part(engine: Engine, situation: Situation) -> dict[str, Any]:
    """A row's `odds`, or the reason they were refused under `error` (rendered later)."""
    from .odds import odds_row

    try:
        return odds_row(engine, situation)
    except WhybotError as exc:
        return {"error": exc}


def rendered(origin: str, outcome: Outcome) -> Row:
    """The row of an outcome: its errors rendered here, relative to this working folder (the
    row's own, or one of a part of it: the odds, a side of a --diff)."""
    if isinstance(outcome, WhybotError):
        return {"snapshot": origin, "ok": False, "error": message(outcome)}
    _render_parts(outcome)
    return outcome


def _render_parts(row: Row) -> None:
    """Render the errors of a row's parts, and of theirs (a side of a --diff, its odds)."""
    for part in row.values():
        if isinstance(part, dict):
            if isinstance(part.get("error"), WhybotError):
                part["error"] = message(part["error"])
            _render_parts(part)


def fault(origin: str, error: str) -> Row:
    """The row of a snapshot whose decision failed for a reason that is not its input."""
    return {"snapshot": origin, "ok": False, "error": error, "fault": True}


def died(origin: str, how: str) -> Row:
    """The row of a snapshot whose worker process died deciding it (a crash in C code)."""
    return {"snapshot": origin, "ok": False, "fault": True,
            "error": f"engine fault: the worker process deciding it died ({how})"}


def decision_of(engine: Engine, trace: Trace) -> Row:
    """What the bot decided, as a row shows it: the result, the pack's columns (the chosen
    entities they name) and the actions."""
    decision = trace.decision
    choices = {alias: c.get("entity") for alias, c in decision.get("choices", {}).items()}
    columns = engine.pack.presentation.get("columns", {})
    return {
        "result": decision.get("result", "decided"),
        **{column: choices.get(alias) for column, alias in columns.items()},
        "actions": [{k: a[k] for k in ("action", "goal", "suit", "target", "rule", "page")
                     if a.get(k) is not None} for a in decision.get("actions", [])],
    }


def _decided(origin: str, engine: Engine, situation: Situation, trace: Trace) -> Row:
    decision = decision_of(engine, trace)
    actions = decision.pop("actions")
    return {
        "snapshot": origin, "ok": True, "name": situation.name, "pack": engine.pack.name,
        **decision,
        "choices": {alias: c.get("entity")
                    for alias, c in trace.decision.get("choices", {}).items()},
        "actions": actions,
        "fired": trace.fired(),
        "derived_by": sorted({s["rule"] for j in trace.judgments.values() for s in j.by
                              if j.origin == "derived"} |
                             {s["rule"] for j in trace.entity_judgments for s in j["by"]}),
        "dice": [r["total"] for r in trace.dice],
        "assumed": [a["name"] for a in trace.assumed],
        "disagreements": trace.disagreements,
        "error": None,
    }


__all__ = ["Outcome", "Row", "attempt", "decision_of", "died", "fault", "guarded", "odds_part",
           "rendered"]
