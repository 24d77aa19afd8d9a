"""The measuring seam of benchmarks/breakdown.py: a decision's parts timed while a block runs,
every function put back after, and the decision unchanged."""

from __future__ import annotations

from tests.conftest import ROOT
from whybot.engine import timed_parts
from whybot.engine.timing import C_CORE, ENGINE_PARTS, Timers
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation


def _decide_demo() -> dict:
    path = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
    engine, situation = load_situation(path, None, overlay_key(None))
    return engine.decide(situation, seed=1, record=False).as_dict()


def test_a_timed_decision_is_the_same_decision_and_every_part_is_put_back():
    before = {(id(owner), name): getattr(owner, name)
              for targets in ENGINE_PARTS.values() for owner, name in targets}
    plain = _decide_demo()
    with timed_parts() as timers:
        timed = _decide_demo()
    assert timed == plain
    assert {(id(owner), name): getattr(owner, name)
            for targets in ENGINE_PARTS.values() for owner, name in targets} == before
    assert timers.spent[C_CORE] > 0
    assert timers.spent["firings concluded (the Derivation)"] > 0
    assert set(timers.spent) <= {C_CORE, *ENGINE_PARTS}


def test_a_part_is_timed_without_the_parts_it_calls():
    timers = Timers()
    inner = timers.wrap("inner", lambda: sum(range(200_000)))
    outer = timers.wrap("outer", lambda: [inner() for _ in range(5)])
    outer()
    assert timers.made == {Timers.OUTSIDE: 1, "outer": 5}
    assert timers.spent["inner"] > 5 * timers.spent["outer"]
