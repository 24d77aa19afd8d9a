"""A plain-Python reference evaluator: the same decisions as the Engine, without durable_rules.

It keeps the Engine's walk and outcome code (pages, `call`/`goto`, dice, choices, the trace) and
replaces the two places where durable_rules reasons:

- `derive`: derivation rules run to a fixpoint with `holds`, stratum by stratum (the engine's own
  stratification), a judgment not established by the end of its stratum is false, and answers
  given in the snapshot override derivations — the engine's semantics, read plainly;
- `_evaluate`: on a page, the first rule in the page's order (from `start`) whose condition holds.

Conditions are read by `whybot.engine.evaluate.holds`, the explainer's own evaluator.

The benchmark times both; `tests/cli/test_reference.py` checks they decide alike on every
shipped example, which is the evidence that the explainer (built on `holds`) agrees with the
engine.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from whybot.engine import Engine
from whybot.engine.compiler import strata
from whybot.engine.evaluate import World, holds
from whybot.engine.model import Pack, Rule
from whybot.engine.runner import Derivation, settle_judgments
from whybot.engine.situation import Situation
from whybot.engine.trace import Judgment


class ReferenceEngine(Engine):
    """An Engine whose reasoning is plain Python over `holds` (no durable_rules state)."""

    def __init__(self, pack: Pack) -> None:  # no super().__init__: nothing is compiled
        self.pack = pack
        self.compiled = SimpleNamespace(pages={p.name: None for p in pack.pages()})
        self._ordered = {name: page.ordered() for name, page in pack.procedures.items()}
        self._derivations = pack.derivations()
        self._levels = strata(self._derivations, set(pack.facts.judgments))
        self._judged_at: dict[str, int] = {}
        for rule in self._derivations:
            judgment = rule.then["judge"]
            self._judged_at[judgment] = max(self._judged_at.get(judgment, 0),
                                            self._levels[rule.id])
        self._top = max(self._levels.values(), default=0)

    def derive(self, situation: Situation) -> dict[str, Judgment]:
        run = Derivation(given=dict(situation.answers))
        board = {**situation.board, **run.given}
        world = World(board, situation.entities)
        for stratum in range(self._top + 1):
            active = [r for r in self._derivations if self._levels[r.id] <= stratum]
            changed = True
            while changed:
                changed = False
                for rule in active:
                    judgment = rule.then["judge"]
                    supported = [s["rule"] for s in run.support.get(judgment, [])]
                    if judgment in run.given or rule.id in supported:
                        continue
                    if not holds(rule.when, world):
                        continue
                    value = rule.then.get("value", True)
                    if judgment not in run.values:
                        run.values[judgment] = board[judgment] = value
                        run.support[judgment] = [{"rule": rule.id}]
                        changed = True
                    elif run.values[judgment] == value:
                        run.support[judgment].append({"rule": rule.id})
            for name, level in self._judged_at.items():
                if level == stratum and name not in run.values and name not in run.given:
                    run.values[name] = board[name] = False
        return settle_judgments(self.pack.facts.judgments, run, set(self._judged_at))

    def _evaluate(self, page: str, start: int, turn: Any) -> tuple[Rule | None, dict]:
        world = turn.world
        for rule in self._ordered[page][start - 1:]:
            if holds(rule.when, world):
                return rule, {}
        return None, {}


def same_decision(left: Any, right: Any) -> bool:
    """Two traces decide alike: same decision, same rules fired in the same order, same dice."""
    return (_bare(left.decision) == _bare(right.decision) and left.fired() == right.fired()
            and [r["faces"] for r in left.dice] == [r["faces"] for r in right.dice])


def _bare(decision: dict[str, Any]) -> dict[str, Any]:
    """The decision without `because` (the engine's account of which facts led to an action)."""
    actions = [{k: v for k, v in a.items() if k != "because"} for a in decision["actions"]]
    steps = [{"action": {k: v for k, v in s["action"].items() if k != "because"}}
             if "action" in s else s for s in decision["steps"]]
    return {**decision, "actions": actions, "steps": steps}


__all__ = ["ReferenceEngine", "same_decision"]
