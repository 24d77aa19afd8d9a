"""A rule that acts and calls a page (`action` + `call`): the called page is read after the
action, with the action's target still bound, and then the rule's own page goes on as after any
action — read again from the top while `repeat_while` holds — on the toy `called` pack."""

from __future__ import annotations

import pytest

from tests.conftest import TOY_PACKS, engine_for
from tests.engine.helpers import decide
from whybot.engine import Engine, load_pack

JOBS = "jobs: [{name: a}, {name: b}]\n"


@pytest.fixture(scope="module")
def called():
    return engine_for(TOY_PACKS, "called")


def test_the_called_page_reads_the_target_and_the_page_restarts(called):
    trace = decide(called, JOBS, pack="called")
    assert [(a["action"], a.get("target", {}).get("name")) for a in trace.decision["actions"]] \
        == [("do", "a"), ("note", None), ("do", "b"), ("note", None)]
    assert trace.decision["say"] == ["Note the job a.", "Note the job b."]
    assert "turn.idle" not in trace.fired()  # not read on after the call: restarted


def test_without_repeat_left_the_page_ends_after_the_call(called):
    trace = decide(called, "left: 1\n" + JOBS, pack="called")
    assert [a["action"] for a in trace.decision["actions"]] == ["do", "note"]
    assert "turn.idle" not in trace.fired()


def test_the_plain_reference_reasoner_agrees(called):
    plain = Engine(load_pack(TOY_PACKS, "called", []), reasoner="plain")
    assert decide(plain, JOBS, pack="called").decision == \
        decide(called, JOBS, pack="called").decision


def test_a_call_with_missing_is_no_dead_end_for_lint(called):
    """`missing:` says the called page may not exist: lint does not warn about it."""
    from whybot.engine.load.lint import warnings
    assert [w for w in warnings(called.pack) if "spare.maybe" in w.message] == []


def test_a_call_to_a_missing_page_is_noted_not_read(called):
    """`call` + `missing:` when no such page exists: the step notes it (outcome `missing`, the
    note), reads on, and does not claim to read the page."""
    trace = decide(called, "spare: true\nleft: 5\n", pack="called")
    step = next(s for s in trace.steps if s.rule == "spare.maybe")
    assert step.outcome["missing"] == "extra.5" and "call" not in step.outcome
    assert step.notes == ["There is no extra page for 5: read on."]
    assert trace.fired()[-1] == "spare.done"
