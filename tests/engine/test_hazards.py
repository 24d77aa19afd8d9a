"""Regression tests for the durable_rules hazards (DURABLE_RULES.md, docs/durable_rules.md):
one per guard, each failing if the guard goes away."""

from __future__ import annotations

import json
import threading

import pytest

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import EngineFault, load_pack
from whybot.engine.decide import Engine, compile_derivations, compile_pages
from whybot.engine.network import Ruleset, live_states


def _patterns(compiled):
    for ruleset in compiled.rulesets:
        for name, rule in ruleset.definition.items():
            for pattern in rule["all"]:
                for alias, test in pattern.items():
                    yield name, alias, test


def test_every_join_ends_with_an_always_true_join(toy):
    """Hazard A (#381): a cross-fact test that is last and false can crash the engine."""
    compiled = compile_derivations(toy.pack, toy.strata)
    joined = [test for name, alias, test in _patterns(compiled)
              if name.startswith("j.fits") and alias == "x_s"]
    assert joined and all(test["$and"][-1] == {"k": {"e": "k"}} for test in joined)


def test_a_state_where_nothing_fired_is_closed_through_its_close_rule():
    """Hazard B: delete_state on a state where no action ran crashes the process."""
    ruleset = Ruleset("hazard.b", {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}})
    state = ruleset.state()
    state.assert_facts([{"t": "x"}])
    assert not state.acted
    state.close()  # would abort here without the close rule
    assert state.acted


def test_every_pattern_starts_with_a_discriminator(toy):
    """Hazard C: a pattern the state object itself satisfies fires forever."""
    for compiled in (compile_pages(toy.pack), compile_derivations(toy.pack, toy.strata)):
        for _, _, test in _patterns(compiled):
            first = test.get("$and", [test])[0]
            assert "t" in first


def test_no_whybot_code_runs_inside_the_rule_engine():
    """Hazard D (#58, #305): exceptions in actions are swallowed. whybot registers no
    callbacks: the engine only matches, and a failing call is raised to the caller."""
    ruleset = Ruleset("hazard.d", {"r": {"all": [{"a": {"t": "x"}}]}})
    assert not any("run" in rule for rule in ruleset.definition.values())
    state = ruleset.state()
    with pytest.raises(EngineFault, match="durable_rules failed"):
        state._call("post an event", lambda handle, text: (_ for _ in ()).throw(
            __import__("durable_rules_engine").error("boom")), "{}")
    assert state.poisoned
    with pytest.raises(EngineFault, match="failed earlier"):
        state.assert_facts([{"t": "x"}])
    state.close()  # a poisoned state is never deleted (that would corrupt the heap)


def test_a_fact_no_rule_reads_is_harmless():
    """Hazard E: unmatched facts raise in the Python host; the raw call returns a code."""
    state = Ruleset("hazard.e", {"r": {"all": [{"a": {"t": "x"}}]}}).state()
    state.assert_facts([{"t": "nobody-reads-this"}])
    state.close()


def test_every_fact_of_a_state_gets_its_own_id():
    """Hazard F: the same fact twice in one state raises MessageObservedException."""
    state = Ruleset("hazard.f", {"r": {"all": [{"a": {"t": "x"}}]}}).state()
    facts = [state.stamp({"t": "x"}) for _ in range(3)]
    assert len({f["id"] for f in facts}) == 3
    state.close()


def test_many_decisions_leave_no_state_alive(toy):
    """Hazard G: more than 1,024 live states raise MemoryError; every state is deleted."""
    for _ in range(1100):
        decide(toy, "coins: 1\n")
    assert live_states() == 0


def test_numbers_reach_the_engine_as_json_numbers_it_can_read(toy):
    """Hazard H: exponent-form floats, huge ints, NaN break durable_rules; snapshots are
    checked and integral floats become ints."""
    from whybot.engine import SnapshotError

    for text in ("ratio: .nan\n", "coins: 1e30\n", "coins: 2.5\n"):
        with pytest.raises(SnapshotError):
            decide(toy, text)
    assert decide(toy, "coins: 3.0\n").decision["result"]


def test_strings_are_sent_escaped_so_any_language_matches(toy, tmp_path):
    """Non-ASCII text in a rule and in a fact compare equal only if both are escaped alike."""
    house = tmp_path / "house"
    house.mkdir()
    (house / "mood.yaml").write_text(
        "pack: toy\nprocedure: turn\nsalience: 5\nrules:\n  - id: house.unicode\n"
        "    when: \"exists token (colour == 'Ærø ☃ 💥')\"\n    then: {stop: unicode}\n",
        encoding="utf-8")
    engine = Engine(load_pack(TOY_PACKS, "toy", [house]))
    trace = decide(engine, "tokens: [{colour: 'Ærø ☃ 💥'}]\n")
    assert trace.decision["result"] == "unicode"


def test_no_background_threads_are_started(toy):
    """Hazard K: a durable Host starts timer threads; whybot uses no Host."""
    before = threading.active_count()
    decide(toy, "coins: 1\n")
    assert threading.active_count() == before


def test_a_rule_definition_is_sent_as_ascii_json():
    ruleset = Ruleset("hazard.ascii", {"r": {"all": [{"a": {"$and": [{"t": "x"},
                                                                    {"name": "ü"}]}}]}})
    assert json.dumps(ruleset.definition, ensure_ascii=True).isascii()


def test_a_fact_is_retracted_by_its_sid_and_id_alone():
    """Retractions send only {sid, id} (the C core looks the fact up by them): the rule that
    joined the fact no longer matches, and the other facts stay."""
    state = Ruleset("retract.ids", {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}}).state()
    x1, x2, y = ({"t": "x", "n": 1}, {"t": "x", "n": 2}, {"t": "y"})
    state.assert_facts([x1, x2])
    state.retract_facts([x1])
    state.assert_facts([y])
    fired = state.drain()
    assert [matched["a"]["n"] for _, matched in fired] == [2]
    state.close()
