"""What a command shows of a decision, as data: the trace with the pack's presentation (how its
headline and columns read) and, for the full trace, why each judgment the walk read at its
fallback was not established — worked out only when a trace is shown.
"""

from __future__ import annotations

from typing import Any

from whybot.engine.decide import Engine
from whybot.engine.situation import Situation
from whybot.engine.trace import Trace


def shown(engine: Engine, trace: Trace) -> dict[str, Any]:
    """The decision's data as the short answer and the brief read it."""
    return {**trace.as_dict(), "presentation": engine.pack.presentation}


def shown_in_full(engine: Engine, situation: Situation, trace: Trace) -> dict[str, Any]:
    """The whole trace's data: each judgment no rule established carries `not_by`, the rules
    that could have and why each did not (`whybot why`, the web page of a decision)."""
    from whybot.engine.explain import unestablished

    data = shown(engine, trace)
    for name, rules in unestablished(engine, situation, trace).items():
        data["judgments"][name]["not_by"] = rules
    return data
