"""Issue 20 item 1: `play` asks the bot's own questions, not a table of every move.

The expected questions and decisions are read off SUPERCAT (003): General Priorities [1]
"Can bot Secure or Tax to contend declared ambition?" chooses the card; Administration [1]
"Can bot Tax to contend a declared ambition?" takes the action; "Once it takes that many
actions, or is unable to take further actions" the page is read again from the top with the
table the action left (§ How to follow the procedures), so its questions are asked again.
"""

from __future__ import annotations

import json

import yaml

from whybot.cli.answers_file import FromFile
from whybot.engine import Action, Decision, asked_instead
from whybot.engine.trace import Trace
from whybot.facts.packs import engine_for
from whybot.facts.play.consult import review
from whybot.facts.play.naming import naming
from whybot.facts.play.table import Table

from .conftest import HERE
from .helpers import chapter_begun, given, said_in
from .test_words_issue20 import CODE

CONSULT = HERE / "consult"


def _game(run, tmp_path):
    return chapter_begun(run, tmp_path / "game.yaml", CONSULT / "setup.yaml",
                         CONSULT / "chapter.yaml", seed=3)


def _log(game):
    return yaml.safe_load(game.read_text(encoding="utf-8"))["log"]


def test_the_seed_questions_are_the_judgments_read_off_the_moves():
    instead = asked_instead(engine_for("arcs"), ["option"])
    assert "can.tax.contend_declared" in instead and "can.secure.captives" in instead
    # a standing counts the moves used this card, but is derived, not asked (no move read)
    assert "winning_or_tied_matching" not in instead
    assert "options" not in instead


def test_answers_after_an_action_hold_from_that_action_on(run):
    result = run("decide", CONSULT / "two-taxes.yaml", "--json")
    assert result.exit_code == 0, result.output
    actions = json.loads(result.stdout)["decision"]["actions"]
    assert [(a["action"], a["rule"]) for a in actions] == [
        ("tax", "admin.tax-contend-declared"), ("tax", "admin.tax-captives")]


def test_a_bad_answers_after_names_its_path(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    data = yaml.safe_load((CONSULT / "two-taxes.yaml").read_text(encoding="utf-8"))
    data["answers_after"] = [{"can.tax.contend_declard": True}]
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run("decide", bad)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "answers_after[0]" in result.stderr and "can.tax.contend_declared" in result.stderr
    data["answers_after"] = {"can.tax.captives": True}
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run("decide", bad)
    assert result.exit_code == 2 and "answers_after: is a list" in result.stderr


def test_a_turn_asks_the_flowchart_then_again_after_each_action(run, tmp_path):
    game = _game(run, tmp_path)
    result = run("play", game, "--at", "turn", "--answers", CONSULT / "turn.yaml")
    assert result.exit_code == 0, result.output
    entry = _log(game)[1]
    asked = said_in(entry)
    assert "options" not in asked and "ambitions" in asked
    # GP [1] reads Secure first, then Tax; the page asks Tax again after each of the 3 actions
    assert asked.index("can.secure.contend_declared") < asked.index("can.tax.contend_declared")
    assert asked.count("can.tax.contend_declared") == 3
    decision = entry["decision"]
    assert [(a["action"], a["rule"]) for a in decision["actions"]] == [
        ("tax", "admin.tax-contend-declared"), ("tax", "admin.tax-contend-declared")]
    # the targets as the player named them; the snapshot keeps the answers per action
    assert "tax (Blue's city in Hexy 2), tax (Yellow's city in Arrow 1)" in \
        run("log", game).stdout
    snapshot = entry["snapshot"]
    assert snapshot["answers"]["can.tax.contend_declared"] is True
    assert [layer.get("can.tax.contend_declared") for layer in snapshot["answers_after"]] == \
        [True, False]
    assert "Assumed" not in result.stdout  # the moves were asked, not left out
    why = run("why", game, "--turn", "2", "--brief")
    assert "Blue's city in Hexy 2" in why.stdout and "options: none listed" not in why.stdout


def test_a_question_asked_again_offers_the_last_answer(run, tmp_path):
    game = _game(run, tmp_path)
    values = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
    turn = Table.open(game).turn(point="turn")
    answers = FromFile(values, "turn.yaml")
    while (question := turn.next_question()) is not None and not question.layer:
        turn.answer(question.id, answers(question, 0))
    # asked again, at the head of the run the walk reads if it is no now (first.py)
    assert question is not None and question.id == "first.1.can.tax.contend_declared"
    assert question.text.startswith("After action 1 (tax — contend a declared ambition): "
                                     "which is the first of these whose answer is yes?")
    again = question.fields[0]
    assert again.text == "Can bot Tax to contend a declared ambition?"
    assert again.default is True and again.last and question.default == again.id
    assert "Before that action: yes" in again.help
    assert len(question.fields) > 1 and not question.fields[1].last


def test_too_few_answers_for_a_question_asked_again_is_one_line(run, tmp_path):
    game = _game(run, tmp_path)
    values = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
    values["can.tax.contend_declared"] = [True, True]
    answers = tmp_path / "short.yaml"
    answers.write_text(yaml.safe_dump(values), encoding="utf-8")
    before = game.read_text(encoding="utf-8")
    result = run("play", game, "--at", "turn", "--answers", answers)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "can.tax.contend_declared is asked 3 times: the list gives 2 value(s)" in \
        result.stderr
    assert game.read_text(encoding="utf-8") == before


def test_listing_every_move_stays_a_choice(run, tmp_path):
    game = _game(run, tmp_path)
    turn = Table.open(game).turn(point="turn", moves=True)
    values = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
    # the moves listed, the bot's page asks the board's counts the seed's questions are made of
    values.update(unchanged=True, starports=1, unbuilt_cities=4, claims=1, agents_supply=10,
                  rival_controlled=0)
    asked = []
    while (question := turn.next_question()) is not None and question.id != "options":
        asked.append(question.id)
        turn.answer(question.id, given(question, values))
    assert question is not None and question.kind == "entities"
    assert not any(name.startswith("can.") for name in asked)


def test_the_next_turn_offers_what_was_said_at_once(run, tmp_path):
    game = _game(run, tmp_path)
    assert run("play", game, "--at", "turn", "--answers", CONSULT / "turn.yaml").exit_code == 0
    turn = Table.open(game).turn(point="turn")
    values = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
    answers = FromFile(values, "turn.yaml")
    while (question := turn.next_question()) is not None and question.what != "review":
        turn.answer(question.id, answers(question, 0))
    assert question is not None and question.default is True
    assert "bot resources: material 0, fuel 0" in question.text
    assert question.text.endswith("Is all of this still so?")
    turn.answer("unchanged", True)
    rest = []
    while (question := turn.next_question()) is not None and question.what != "name":
        rest.append(question.id)
        turn.answer(question.id, answers(question, 0))
    # what was said last turn is not asked again: the resources, Golems, ambitions
    assert not {"material", "fuel", "golems", "ambitions"} & set(rest)


def test_the_consultation_words_are_the_players():
    pack = engine_for("arcs").pack
    said = review({"guild_cards": [{"name": "Mining Interest"}], "fuel": 2, "flagship": True})
    assert said.text == ("Since the last turn: guild cards: Mining Interest; fuel: 2; "
                         "flagship: yes. Is all of this still so?")
    trace = Trace(snapshot="x", pack="arcs")
    trace.decision = Decision(actions=[Action(
        "influence", {"goal": "influence a card"}, "admin.influence-card", "administration",
        "", "", prefer=["Lore card", "uncontested card"])])
    named = naming(pack, ["option"], trace)
    assert [q.id for q in named] == ["named.1"]
    assert named[0].text.startswith("Action 1 (influence — influence a card): which one?")
    assert named[0].help.startswith("The seed prefers: Lore card; uncontested card.")
    for question in [said, *named]:
        assert not CODE.search(question.text + " " + question.help), question.text


def test_a_seed_question_shows_the_seeds_definitions_of_its_words(run, tmp_path):
    game = _game(run, tmp_path)
    values = yaml.safe_load((CONSULT / "turn.yaml").read_text(encoding="utf-8"))
    turn = Table.open(game).turn(point="turn")
    answers = FromFile(values, "turn.yaml")
    while (question := turn.next_question()) is not None and "can.tax.contend_declared" \
            not in [question.id, *(m.id for m in question.fields)]:
        turn.answer(question.id, answers(question, 0))
    assert question is not None
    if question.what == "first":  # asked with the questions read before it (first.py)
        question = next(m for m in question.fields if m.id == "can.tax.contend_declared")
    assert question.help.startswith("In the seed's words: contend: take an action causing bot "
                                    "to improve its position with respect to an ambition")
    assert not CODE.search(question.help)
