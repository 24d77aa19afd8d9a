"""Issue 20 item 1: "If the rule needs an entity for a 'yes' (which city it Taxes, which card it
Secures), ask for that one thing by name" — the name may come with the yes itself, so no
question is left to ask for it after the decision.

The consult game's turn (tests/play/consult/turn.yaml) is read off SUPERCAT (003): the bot leads
Administration 3 and Taxes to contend Tycoon twice (Administration [1] "Can bot Tax to contend a
declared ambition?" yes, then yes again after the first Tax, then no).
"""

from __future__ import annotations

import pytest
import yaml

from whybot.cli.answers_file import FromFile
from whybot.cli.prompt import Terminal
from whybot.facts.play.fix import plan_fix
from whybot.facts.play.naming import AFTER, TARGET, split, typed
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.table import Table

from .conftest import HERE
from .helpers import chapter_begun

CONSULT = HERE / "consult"
VALUES = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
BLUE, YELLOW = "Blue's city in Hexy 2", "Yellow's city in Arrow 1"


def _named_at_the_yes() -> dict:
    values = {k: v for k, v in VALUES.items() if not k.startswith("named.")}
    values["can.tax.contend_declared"] = [{"yes": BLUE}, {"yes": YELLOW}, False]
    return values


@pytest.fixture()
def game(run, tmp_path):
    return chapter_begun(run, tmp_path / "game.yaml", CONSULT / "setup.yaml",
                         CONSULT / "chapter.yaml", seed=3)


def _play(turn, answers) -> list[Question]:
    asked = []
    while (question := turn.next_question()) is not None:
        asked.append(question)
        turn.answer(question.id, answers(question, len(asked)))
    return asked


def test_the_targets_named_with_each_yes_are_the_decisions_and_nothing_else_is_asked(game):
    table = Table.open(game)
    turn = table.turn(point="turn")
    asked = _play(turn, FromFile(_named_at_the_yes(), "turn.yaml"))
    assert not [q for q in asked if q.what == "name"]
    result = turn.decide()
    assert [a.target for a in result.trace.decision.actions] == [
        {"target": BLUE}, {"target": YELLOW}]
    # the yes logged with its target, in the game schema; the turn decided again names them too
    assert [a[TARGET] for a in result.asked if TARGET in a] == [BLUE, YELLOW]
    number = table.record(result)["turn"]
    trace = Table.open(game).past(number)
    assert [a.target for a in trace.decision.actions] == [{"target": BLUE}, {"target": YELLOW}]


def test_a_yes_after_an_action_names_the_action_it_leads_to(game):
    """Only the second Tax named with its yes: it names action 2, and action 1 is asked."""
    values = _named_at_the_yes()
    values["can.tax.contend_declared"] = [True, {"yes": YELLOW}, False]
    turn = Table.open(game).turn(point="turn")
    asked = _play(turn, FromFile({**values, "named.1": BLUE}, "turn.yaml"))
    assert [q.id for q in asked if q.what == "name"] == ["named.1"]
    assert [a.target for a in turn.decide().trace.decision.actions] == [
        {"target": BLUE}, {"target": YELLOW}]
    assert [(a[TARGET], a[AFTER]) for a in turn.asked() if TARGET in a] == [(YELLOW, 1)]


def test_a_corrected_past_turn_keeps_the_targets_named_with_its_yeses(game):
    table = Table.open(game)
    turn = table.turn(point="turn")
    _play(turn, FromFile(_named_at_the_yes(), "turn.yaml"))
    number = table.record(turn.decide())["turn"]
    plan = plan_fix(Table.open(game), number, {"material": 1})
    assert [a.get(TARGET) for a in plan.entry["asked"] if a.get(TARGET)] == [BLUE, YELLOW]


def test_the_same_answers_one_by_one_decide_the_same(game):
    """Naming at the yes changes no decision: the same turn named after it decides alike."""
    named_after = Table.open(game).turn(point="turn")
    _play(named_after, FromFile(dict(VALUES), "turn.yaml"))
    named_at_yes = Table.open(game).turn(point="turn")
    _play(named_at_yes, FromFile(_named_at_the_yes(), "turn.yaml"))
    first, second = named_after.decide(), named_at_yes.decide()
    assert first.snapshot == second.snapshot
    assert first.trace.decision.as_dict() == second.trace.decision.as_dict()


def test_a_name_with_a_no_is_refused_and_nothing_changes(game):
    turn = Table.open(game).turn(point="turn")
    answers = FromFile(dict(VALUES), "turn.yaml")
    while (question := turn.next_question()) is not None and not question.nameable:
        turn.answer(question.id, answers(question, 0))
    assert question is not None
    before = len(turn.answers)
    no = "none" if question.what == "first" else False
    with pytest.raises(AnswerError, match="only a yes that picks something names a target"):
        turn.answer(question.id, {"answer": no, TARGET: BLUE})
    assert len(turn.answers) == before and not turn.targets


def test_typed_a_yes_then_its_target_on_the_terminal(game):
    turn = Table.open(game).turn(point="turn")
    answers = FromFile(dict(VALUES), "turn.yaml")
    while (question := turn.next_question()) is not None and not question.nameable:
        turn.answer(question.id, answers(question, 0))
    assert question is not None and question.what == "first"
    number = [m.id for m in question.fields].index("can.tax.contend_declared") + 1
    lines = iter([f"{number} {BLUE}"])
    value = Terminal(read=lambda _: next(lines))(question, 1)
    assert value == {"answer": "can.tax.contend_declared", TARGET: BLUE}
    turn.answer(question.id, value)
    assert turn.asked()[-1][TARGET] == BLUE
    turn.back()  # taking the answer back takes its target back
    assert not turn.targets


@pytest.mark.parametrize(("text", "expected"), [
    ("3 Blue's city", {"answer": "3", TARGET: "Blue's city"}), ("3", "3"), ("3 ", "3 "),
    ("Can bot Tax?", "Can bot Tax?")])
def test_a_typed_run_answer_splits_a_number_from_a_name(text, expected):
    run = Question(id="first.0.a", what="first", kind="first", text="?", nameable=("a",))
    assert typed(run, text) == expected


def test_only_a_question_whose_yes_picks_something_reads_a_name():
    plain = Question(id="q", what="answer", kind="yes_no", text="?")
    assert typed(plain, "y Blue's city") == "y Blue's city"
    assert split(plain, {"yes": "Blue's city"}) == (True, "Blue's city")
    group = Question(id="g", what="group", kind="group", text="?")
    assert split(group, {"yes": 2}) == ({"yes": 2}, "")
