"""A rederive asks the reasoner only about the derivations an action reaches and replays the
others' firings from the last run's log; what it concludes must be what a fresh run on the
same inputs concludes: values, supports, conflicts, entities with their fields in order, and
the log the next rederive replays (the same firings, in the same rounds, in the same order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import KNOWLEDGE, ROOT, TOY_PACKS, engine_for
from whybot.engine import Engine, budget
from whybot.engine.decide import PartialDerivations
from whybot.engine.derive.derivation import UNSET, Derivation
from whybot.facts.snapshot import load_snapshot, parse_snapshot


def _concluded(run: Derivation) -> str:
    """Everything a run concluded, as text: equal values of other types (1, True) or fields
    in another order tell apart."""
    return repr({
        "values": list(run.values.items()), "support": list(run.support.items()),
        "overridden": run.overridden, "conflicts": run.conflicts,
        "fields": list(run.field_support.items()),
        "entities": [(kind, [list(e.items()) for e in items])
                     for kind, items in run.entities.items()],
        "log": _firsts(run),
    })


def _firsts(run: Derivation) -> list[tuple[Any, ...]]:
    """The log's firings but those of a rule on entities it had fired on: such a firing (a
    renewed fact matched again) concludes nothing, and a ruleset of fewer rules may renew
    fewer facts."""
    assert run.log is not None
    seen: set[tuple[str, tuple[int, ...]]] = set()
    found = []
    for key, logged in run.log.items():
        for one in logged:
            if (one.rule.id, one.order[1]) not in seen:
                seen.add((one.rule.id, one.order[1]))
                found.append((key, one.order, one.rule.id, one.eids, one.shown, one.created,
                              "unset" if one.value is UNSET else one.value))
    return found


def _compared(monkeypatch: pytest.MonkeyPatch, engine: Engine) -> list[tuple[str, str]]:
    """Make `engine` derive every rederive twice, replaying and afresh (in a budget of its
    own); the pairs of what each concluded, filled as the engine decides."""
    pairs: list[tuple[str, str]] = []
    real = engine.derive
    monkeypatch.setattr(PartialDerivations, "AFTER", 1)  # every affected set's own ruleset

    def both(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             answers: dict[str, Any], replay: Any = None, record: bool = True,
             only: frozenset[str] | None = None) -> Derivation:
        run = real(board, entities, answers, replay, record, only)
        if replay is not None:
            with budget.decision():
                fresh = real(board, entities, answers, None, record, only)
            pairs.append((_concluded(run), _concluded(fresh)))
        return run
    monkeypatch.setattr(engine, "derive", both)
    return pairs


def _fate_examples() -> list[Path]:
    """Every third Fate example (their pages rederive after each action)."""
    return sorted((ROOT / "facts" / "examples" / "arcs" / "fates").rglob("*.yaml"))[::3]


@pytest.mark.parametrize("record", [True, False])
def test_arcs_rederives_conclude_what_a_fresh_run_concludes(monkeypatch, record):
    arcs = Engine(engine_for(KNOWLEDGE, "arcs").pack)
    pairs = _compared(monkeypatch, arcs)
    for path in _fate_examples():
        arcs.decide(load_snapshot(path, arcs.pack), seed=1, record=record)
    assert len(pairs) > 20
    for number, (replayed, fresh) in enumerate(pairs):
        assert replayed == fresh, f"rederive {number}"


def test_a_small_packs_rederive_concludes_what_a_fresh_run_concludes(monkeypatch):
    """A pack of two derivations: paying a member changes a purse, which one of them reads."""
    small = Engine(engine_for(TOY_PACKS, "rederive").pack)
    pairs = _compared(monkeypatch, small)
    situation = parse_snapshot("pack: rederive\nphase: pay\nmembers: [{name: Ann, purse: 4}, "
                               "{name: Bob, purse: 1}]\n", "s.yaml", small.pack)
    assert small.decide(situation, seed=1).decision.say == [
        "Ann holds 7.", "Bob holds 4.", "1 rich, 2 named."]
    assert len(pairs) == 2
    for replayed, fresh in pairs:
        assert replayed == fresh
