"""A page that spends several actions (`repeat_while`, `after_action`), optional targets, and a
page read only to choose (`call` + `choose`) — on the toy `deck` pack."""

from __future__ import annotations

import pytest

from tests.conftest import TOY_PACKS, engine_for
from tests.engine.helpers import decide
from whybot.engine import Engine, load_pack

HAND = "cards: [{colour: blue, pips: 2}, {colour: red, pips: 3}]\n"
JOBS = "jobs: [{name: a, colour: red}, {name: b, colour: red}, {name: c, colour: blue}]\n"


@pytest.fixture(scope="module")
def deck():
    return engine_for(TOY_PACKS, "deck")


def test_a_page_read_only_to_choose_makes_the_choice_and_nothing_else(deck):
    trace = decide(deck, "favourite: red\n" + HAND + JOBS, pack="deck")
    wish = [s for s in trace.steps if s.page == "wish"]
    assert [s.rule for s in wish] == ["wish.note", "wish.favourite"]
    assert "a statement, passed by" in wish[0].notes[0]
    assert wish[1].notes[0].startswith("read only to choose: chose hand")
    assert list(wish[1].outcome["set"]) == ["wished"]  # asked for; `left: 99` waits
    assert "wish" not in [a["action"] for a in trace.decision["actions"]]
    assert trace.decision["choices"]["hand"]["entity"]["colour"] == "red"


def test_each_action_is_its_own_pass_and_sees_what_the_last_one_used(deck):
    trace = decide(deck, "favourite: red\n" + HAND + JOBS, pack="deck")
    work = [s for s in trace.steps if s.page == "work"]
    assert len(work) == 3  # three pips, three passes over the page
    assert [a.get("target", {}).get("name") for a in trace.decision["actions"]] == \
        ["a", "b", None]
    spent = [s.outcome["after_action"]["set"]["left"]["to"] for s in work]
    assert spent == [2, 1, 0]


def test_a_target_lasts_for_its_action_only(deck):
    """After a targeted action, a later action with no target updates nothing."""
    trace = decide(deck, "favourite: red\n" + HAND + JOBS, pack="deck")
    last = [s for s in trace.steps if s.page == "work"][-1]
    assert last.outcome["after_action"]["notes"] == ["no target was chosen: nothing to change"]
    assert "update" not in last.outcome["after_action"]


def test_an_optional_target_lets_the_rule_apply_on_its_condition_alone(deck):
    trace = decide(deck, "cards: [{colour: blue, pips: 2}]\nanswers: {work: yes}\n",
                   pack="deck")
    assert [a["action"] for a in trace.decision["actions"]] == ["do", "do"]
    assert all("target" not in a for a in trace.decision["actions"])
    chosen = trace.steps[-1].outcome["target"]
    assert chosen["chosen"] is None and "optional: no job chosen" in chosen["narrowing"]


def test_the_plain_reference_reasoner_agrees(deck):
    plain = Engine(load_pack(TOY_PACKS, "deck", []), reasoner="plain")
    for text in ("favourite: red\n" + HAND + JOBS, HAND + JOBS, "favourite: blue\n" + HAND):
        one, other = decide(deck, text, pack="deck"), decide(plain, text, pack="deck")
        assert one.decision == other.decision and one.fired() == other.fired()


def test_choose_without_call_is_refused_at_load(tmp_path):
    from whybot.engine import RuleFileError

    folder = tmp_path / "deck"
    folder.mkdir()
    for path in (TOY_PACKS / "deck").rglob("*.yaml"):
        target = folder / path.relative_to(TOY_PACKS / "deck")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())
    page = folder / "pages" / "turn.yaml"
    page.write_text(page.read_text().replace("call: wish, ", ""))
    with pytest.raises(RuleFileError, match="choose: goes with call"):
        load_pack(tmp_path, "deck", [])


def test_max_and_min_of_values_leave_an_absent_value_out():
    from whybot.engine.evaluator.evaluate import World, value_of
    from whybot.engine.language.parser import parse_value

    world = World({"cost": 3})
    assert value_of(parse_value("max(target.cost, 1)"), world, {}) == 1
    assert value_of(parse_value("max(cost, 1)"), world, {}) == 3
    assert value_of(parse_value("min(target.cost, nothing)"), world, {}) is None


def test_a_derived_field_nothing_on_the_path_reads_stays_out_of_the_trace(deck):
    """`red` is derived for every job, but no rule on the path and no derivation behind one
    reads it: the trace's entity judgments leave it out (they show what the decision used)."""
    trace = decide(deck, HAND + JOBS, pack="deck")
    assert not [j for j in trace.entity_judgments if j["field"] == "red"]
    given = decide(deck, "jobs: [{name: z, colour: blue, red: true}]\n" + HAND, pack="deck")
    assert not [j for j in given.entity_judgments if j["field"] == "red"]


def test_a_judgment_keeps_its_first_value_and_notes_when_an_action_changed_it(deck):
    """The trace's judgments are as first derived; a later derivation (after an action) that
    changes one adds 'from step N on'."""
    trace = decide(deck, "favourite: red\n" + HAND +
                   "jobs: [{name: a, colour: red}, {name: b, colour: red}]\n", pack="deck")
    work = trace.judgments["work"]
    assert work.value is True
    assert work.by[-1]["value"] is False and work.by[-1]["rule"].startswith("from step ")
