"""Issue 20 item 1: the flowchart's yes/no questions in a row are asked as one, "which is the
first of these whose answer is yes?", as a player reads a page of SUPERCAT (003) top to bottom
and acts on the first rule that applies (§ How to follow the procedures).

The expectations are read off the seed: General Priorities [1] "Can bot Secure or Tax to
contend declared ambition?" reads Secure before Tax; with Tycoon declared and the bot able to
Tax for it, the bot leads its Administration card and Taxes (the consult game's turn).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from whybot.cli.answers_file import FromFile, Unanswered
from whybot.facts.play.first import FIRST, NONE, first_of, pick
from whybot.facts.play.first import given as picked
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.table import Table

from .conftest import HERE
from .helpers import chapter_begun

CONSULT = HERE / "consult"
VALUES = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))


@pytest.fixture()
def turn(run, tmp_path):
    game = chapter_begun(run, tmp_path / "game.yaml", CONSULT / "setup.yaml",
                         CONSULT / "chapter.yaml", seed=3)
    return Table.open(game).turn(point="turn")


def _to_first(turn, answers):
    """Answer from the file up to the first question that is a run; that question."""
    while (question := turn.next_question()) is not None and question.what != FIRST:
        turn.answer(question.id, answers(question, 0))
    assert question is not None, "no run was asked"
    return question


def test_a_run_is_asked_as_one_in_the_order_the_page_reads_it(turn):
    question = _to_first(turn, FromFile(dict(VALUES), "turn.yaml"))
    members = [m.id for m in question.fields]
    # General Priorities [1]: Secure is read before Tax
    assert members[:2] == ["can.secure.contend_declared", "can.tax.contend_declared"]
    assert [m.text for m in question.fields[:2]] == [
        "Can bot Secure to contend a declared ambition?",
        "Can bot Tax to contend a declared ambition?"]
    assert question.text.startswith("Which is the first of these whose answer is yes?")
    assert all(m.kind == "yes_no" and m.layer == question.layer for m in question.fields)


def test_picking_one_answers_it_yes_and_those_above_it_no(turn):
    answers = FromFile(dict(VALUES), "turn.yaml")
    question = _to_first(turn, answers)
    turn.answer(question.id, "2")  # typed as its number
    said = turn.inquiry.data["answers"]
    assert said["can.secure.contend_declared"] is False
    assert said["can.tax.contend_declared"] is True
    assert not set(said) & {m.id for m in question.fields[2:]}  # below it: not said
    while (question := turn.next_question()) is not None:
        turn.answer(question.id, answers(question, 0))
    decision = turn.decide().trace.decision
    assert [a.action for a in decision.actions] == ["tax", "tax"]
    assert turn.asked()[[a["id"] for a in turn.asked()].index(f"{FIRST}.0.can.secure."
                                                                "contend_declared")] == {
        "id": "first.0.can.secure.contend_declared", "value": "can.tax.contend_declared",
        "said": {"can.secure.contend_declared": False, "can.tax.contend_declared": True}}


def test_none_answers_every_one_no(turn):
    question = _to_first(turn, FromFile(dict(VALUES), "turn.yaml"))
    turn.answer(question.id, "none")
    said = turn.inquiry.data["answers"]
    assert all(said[m.id] is False for m in question.fields)


def test_an_answers_file_answers_a_run_by_each_question_as_asked_alone(turn):
    values = dict(VALUES)
    answers = FromFile(values, "turn.yaml")
    question = _to_first(turn, answers)
    # the file says no to Secure and gives Tax a value for each time it is asked
    assert answers(question, 0) == "can.tax.contend_declared"
    del values["can.secure.contend_declared"]
    answers = FromFile(values, "turn.yaml")
    with pytest.raises(Unanswered, match=re.escape("no answer to 'can.secure.contend_declared'")):
        answers(question, 0)


def test_a_member_the_file_leaves_out_after_a_no_is_named(turn):
    values = {**VALUES, "can.secure.contend_declared": False,
              "can.tax.contend_declared": False}
    question = _to_first(turn, FromFile(dict(VALUES), "turn.yaml"))
    third = question.fields[2].id
    values.pop(third, None)
    with pytest.raises(Unanswered, match=re.escape(f"no answer to '{third}'")):
        FromFile(values, "turn.yaml")(question, 0)


def test_a_wrong_pick_says_what_fits(turn):
    question = _to_first(turn, FromFile(dict(VALUES), "turn.yaml"))
    count = len(question.fields)
    with pytest.raises(AnswerError, match=f"1 to {count}, or 0 for none"):
        question.parse(str(count + 1))
    with pytest.raises(AnswerError, match="number of the first one that is so"):
        question.parse("perhaps")


def _yes_no(name: str, layer: int = 0, text: str = "") -> Question:
    from whybot.engine import FieldSpec

    return Question(id=name, what="answer", kind="yes_no", text=text or f"Can bot {name}?",
                    layer=layer, spec=FieldSpec(name, "boolean", default=False))


def _open(name: str, layer: int = 0, value: bool = False):
    from whybot.engine import Open

    return Open("answer", name, value, "", "r", "p", layer=layer)


def test_a_run_stops_at_another_table_a_yes_the_table_gives_or_another_kind_of_question():
    a, b, c = _yes_no("a"), _yes_no("b"), _yes_no("c", layer=1)
    opened = [_open("a"), _open("b"), _open("c", layer=1)]
    merged = first_of([a, b, c], opened)
    assert [m.id for m in merged[0].fields] == ["a", "b"] and merged[1:] == [c]
    # the table answers b yes: a alone is left, asked alone
    assert first_of([a, b], opened, by_table=lambda item: item.name == "b" or None) == [a, b]
    # the table answers b no: passed over (given when the walk reaches it)
    d = _yes_no("d")
    merged = first_of([a, b, d], [*opened, _open("d")],
                      by_table=lambda item: False if item.name == "b" else None)
    assert [m.id for m in merged[0].fields] == ["a", "d"]
    # a count between two yes/no questions ends the run
    count = Question(id="n", what="answer", kind="number", text="How many?")
    assert first_of([a, count, b], opened) == [a, count, b]
    # a last answer yes, carried past an action: the walk read on from it, the run ends there
    e = _yes_no("e")
    merged = first_of([a, e, d], [_open("a"), _open("e", value=True), _open("d")])
    assert [m.id for m in merged[0].fields] == ["a", "e"] and merged[1:] == [d]


def test_a_run_ending_on_a_yes_said_before_an_action_goes_on_to_what_a_no_now_reads():
    """A carried yes ends what the walk read; `onward` gives what it reads once the run is no
    now (here: f, then a count): one run, the carried yes its default pick."""
    a, e, f, d = (_yes_no(name, layer=1) for name in "aefd")
    a, e = replace(a, last=True, default=False), replace(e, last=True, default=True)
    count = Question(id="n", what="answer", kind="number", text="How many?", layer=1)
    noes: list[dict[str, bool]] = []

    def onward(said: dict[str, bool], layer: int):
        noes.append(said)
        return [f, count], [_open("f", layer=1), _open("n", layer=1)], lambda item: None
    opened = [_open("a", layer=1), _open("e", value=True, layer=1), _open("d", layer=1)]
    merged = first_of([a, e, d], opened, "After action 1 (tax)", onward=onward)
    assert [m.id for m in merged[0].fields] == ["a", "e", "f"] and merged[1:] == [count]
    assert noes == [{"a": False, "e": False}] and merged[0].default == "e"
    # nothing more to read (the walk decides): the run is what it was
    merged = first_of([a, e, d], opened, "After action 1 (tax)", onward=lambda *_: None)
    assert [m.id for m in merged[0].fields] == ["a", "e"] and merged[1:] == [d]


@given(st.integers(min_value=2, max_value=9), st.data())
def test_any_pick_reads_back_as_the_answers_it_gives(size, data):
    names = [f"q{i}" for i in range(size)]
    run = first_of([_yes_no(n, text=f"Question {n}?") for n in names],
                   [_open(n) for n in names])[0]
    chosen = data.draw(st.integers(min_value=0, max_value=size))
    typed = data.draw(st.sampled_from(["number", "name", "words"]))
    if chosen == 0:
        raw = data.draw(st.sampled_from(["0", "none", "None", "n"]))
        assert pick(run, raw) == NONE
        assert picked(run, NONE) == dict.fromkeys(names, False)
        return
    name = names[chosen - 1]
    raw = {"number": str(chosen), "name": name, "words": f"Question {name}?"}[typed]
    assert pick(run, raw) == name
    assert picked(run, name) == {**dict.fromkeys(names[:chosen - 1], False), name: True}


def test_the_targets_of_several_actions_are_named_in_one_question(run, tmp_path):
    """The consult turn Taxes twice: one question names both targets; the decision shows
    each as the table named it, and a name left empty stays unnamed."""
    from whybot.facts.play.naming import NAMED

    game = chapter_begun(run, tmp_path / "game.yaml", CONSULT / "setup.yaml",
                         CONSULT / "chapter.yaml", seed=3)
    turn = Table.open(game).turn(point="turn")
    answers = FromFile(dict(VALUES), "turn.yaml")
    while (question := turn.next_question()) is not None and question.kind != "names":
        turn.answer(question.id, answers(question, 0))
    assert question is not None and question.id == NAMED
    assert [f.text for f in question.fields] == [
        "Action 1 (tax — contend a declared ambition)",
        "Action 2 (tax — contend a declared ambition)"]
    with pytest.raises(AnswerError, match="is not asked here"):
        question.parse({"named.3": "x"})
    value = question.parse(["Blue's city in Hexy 2"])  # in order; the second left empty
    assert value == {"named.1": "Blue's city in Hexy 2", "named.2": ""}
    assert question.answer_words(value) == ("Action 1 (tax — contend a declared ambition): "
                                            "Blue's city in Hexy 2; Action 2 (tax — contend "
                                            "a declared ambition): unnamed")
    turn.answer(question.id, value)
    assert turn.next_question() is None
    targets = [a.target for a in turn.decide().trace.decision.actions]
    assert targets[0] == {"target": "Blue's city in Hexy 2"} and targets[1] is None


def test_why_a_run_is_asked_names_each_questions_rule_and_the_seeds_definitions(turn):
    question = _to_first(turn, FromFile(dict(VALUES), "turn.yaml"))
    lines = question.why().splitlines()
    assert len(lines) == len(question.fields)
    assert lines[1].startswith("2) Can bot Tax to contend a declared ambition? the procedure "
                               "reads it here: “")
    assert "SUPERCAT v0.9 § General Priorities" in lines[1]
    assert "In the seed's words: contend: take an action causing bot to improve its position "\
        "with respect to an ambition" in lines[1]


def test_a_turn_logged_one_question_at_a_time_is_decided_again_the_same(run, tmp_path):
    """A game logged before runs were asked as one (each judgment its own question): `fix`
    decides the turn again from those answers, each run's pick made from them."""
    from whybot.facts.play.fix import plan_fix

    game = chapter_begun(run, tmp_path / "game.yaml", CONSULT / "setup.yaml",
                         CONSULT / "chapter.yaml", seed=3)
    assert run("play", game, "--at", "turn", "--answers", CONSULT / "turn.yaml").exit_code == 0
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    entry = data["log"][-1]
    assert any("said" in asked for asked in entry["asked"])
    entry["asked"] = [one for asked in entry["asked"] for one in (
        [{"id": name, "value": value} for name, value in asked["said"].items()]
        if "said" in asked else [asked])]
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    table = Table.open(game)
    plan = plan_fix(table, len(table.game.log), {})
    assert plan.entry["decision"] == entry["decision"]
    assert any("said" in asked for asked in plan.entry["asked"])  # asked as runs now
