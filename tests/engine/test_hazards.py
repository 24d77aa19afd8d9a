"""Regression tests for the durable_rules hazards (DURABLE_RULES.md, docs/durable_rules.md):
one per guard, each failing if the guard goes away."""

from __future__ import annotations

import itertools
import json
import threading

import pytest

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import EngineFault, load_pack
from whybot.engine.compile.durable_core import Ruleset, core, keeps_states, live_states
from whybot.engine.decide import Engine, compile_derivations, compile_pages


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
    facts = state.stamp([{"t": "x"} for _ in range(3)])
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
    assert decide(toy, "coins: 3.0\n").decision.result


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
    assert trace.decision.result == "unicode"


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
    joined the fact no longer matches, and the other facts stay. The retraction's text is
    written out by hand: an id of any characters is escaped as in the assertion."""
    state = Ruleset("retract.ids", {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}}).state()
    x1, x2, y = ({"t": "x", "n": 1, "id": 'x"ü\\1'}, {"t": "x", "n": 2}, {"t": "y"})
    state.assert_facts([x1, x2])
    state.retract_facts([x1["id"]])
    state.assert_facts([y])
    fired = state.drain()
    assert [matched["a"]["n"] for _, matched in fired] == [2]
    state.close()


def test_a_fact_asserted_unread_matches_but_comes_back_in_firings_as_0():
    """Phase facts are asserted `unread`: they match as any fact does, but a firing brings
    each back as 0 (its text cut out before parsing) and the facts beside it whole; one
    asserted after another was retracted is cut out in its turn."""
    state = Ruleset("unread", {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}}).state()
    phase = {"t": "x", "band": 1, "name": "ü"}
    state.assert_facts([{"t": "y", "n": 1}], unread=[phase])
    assert [(name, m["a"], m["b"]["n"]) for name, m in state.drain()] == [("r", 0, 1)]
    state.retract_facts([phase["id"]])
    state.assert_facts([], unread=[{"t": "x", "band": 2}])
    assert [(m["a"], m["b"]["n"]) for _, m in state.drain()] == [(0, 1)]
    state.close()


_PAIR = {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}}
_RAW_NAMES = itertools.count(1)


def _raw_pending_firing_survives() -> bool:
    """durable_rules alone: r fires on (x, y1); r on (x, y2) then takes the freed frame;
    retracting y1 must leave it pending. As released, 2.0.28 deletes it: y1 still records the
    frame of its fired activation."""
    handle = core.create_ruleset(f"raw.frames.{next(_RAW_NAMES)}", json.dumps(_PAIR))
    facts = [{"sid": "1", "id": i, "t": i[0]} for i in ("x", "y1", "y2")]

    def fired(offset: int) -> list[str]:
        started = core.start_action_for_state(handle, offset)
        found, message = [], started[1] if started else None
        while message:
            found.append(json.loads(message)["r"]["b"]["id"])
            message = core.complete_and_start_action(handle, offset)
        return found

    assert fired(core.assert_facts(handle, json.dumps(facts[:2]))[1]) == ["y1"]
    core.assert_facts(handle, json.dumps(facts[2:]))
    survived = fired(core.retract_facts(handle, json.dumps([{"sid": "1", "id": "y1"}]))[1])
    core.delete_state(handle, "1")
    return survived == ["y2"]


def test_states_are_kept_only_if_durable_rules_forgets_fired_frames():
    """A state is emptied and kept for the next decision only where retracting the facts of
    fired activations is safe (scripts/durable_rules-2.0.28.patch, built by the Makefile)."""
    assert keeps_states() == _raw_pending_firing_survives()


def test_no_fact_is_retracted_while_an_activation_is_pending_after_a_firing():
    """The released core drops the pending activation (above): whybot refuses the call."""
    state = Ruleset("frames.pending", _PAIR).state()
    state.assert_facts([{"t": "x"}, {"t": "y", "id": "y1"}])
    assert [m["b"]["id"] for _, m in state.drain()] == ["y1"]
    state.assert_facts([{"t": "y", "id": "y2"}])
    with pytest.raises(EngineFault, match="pending"):
        state.retract_facts(["y1"])
    assert [m["b"]["id"] for _, m in state.drain()] == ["y2"]
    state.close()


@pytest.mark.skipif(not keeps_states(), reason="durable_rules as released: states deleted")
def test_a_kept_state_starts_its_next_decision_empty():
    ruleset = Ruleset("frames.kept", _PAIR)
    state = ruleset.state()
    state.assert_facts([{"t": "x", "n": 1}, {"t": "y", "n": 1}])
    assert len(state.drain()) == 1
    state.close()
    assert ruleset.state() is state and live_states() == 1
    state.assert_facts([{"t": "y", "n": 2}])
    assert state.drain() == []  # the first decision's x is gone
    state.assert_facts([{"t": "x", "n": 2}])
    assert [(m["a"]["n"], m["b"]["n"]) for _, m in state.drain()] == [(2, 2)]
    state.close()
    assert live_states() == 0


@pytest.mark.skipif(not keeps_states(), reason="durable_rules as released: states deleted")
def test_a_state_left_pending_or_holding_an_event_is_deleted_not_kept():
    ruleset = Ruleset("frames.left", {**_PAIR, "e": {"all": [{"v": {"t": "ev"}},
                                                              {"a": {"t": "x"}}]}})
    pending = ruleset.state()
    pending.assert_facts([{"t": "x"}, {"t": "y"}])  # an activation nobody fired
    pending.close()
    untaken = ruleset.state()
    assert untaken.post({"t": "ev"}) is None  # no x: the event stays in the state
    untaken.close()
    assert ruleset.idle == [] and live_states() == 0
