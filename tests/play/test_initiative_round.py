"""Issue 20, item 3: the game's flow asks once at each round's start which bot holds the
initiative marker (play.yaml `flow: at_round_start:`), in the seed's words, and tells every
decision of the round: yes to the bot that holds it, no to the others (§ Act I Setup 1.B
"Give the initiative marker to a bot"; § Bot turn (START HERE) "Does bot have initiative?").

The scripted Steward game (steward_game/plan.yaml) answers it three times: red at the
chapter's first round, blue at the second, none (the player leads) at the third.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import warnings
from pathlib import Path

import pytest
import yaml

from whybot.cli.answers_file import FromFile
from whybot.engine import RuleFileError, load_pack
from whybot.facts.play.fix import plan_fix
from whybot.facts.play.offer import next_point
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .conftest import STEWARD_GAME
from .test_after_page import before
from .test_deck import KNOWLEDGE

QUESTION = "Which bot holds the initiative marker? (none: a player holds it)"


def _log(played: Path) -> list[dict]:
    return yaml.safe_load(played.read_text(encoding="utf-8"))["log"]


def _told(entry: dict) -> dict:
    return {u["id"]: u for u in entry.get("unasked", [])}["initiative"]


def test_the_flow_asks_once_a_round_and_no_bot_turn_asks_it(played):
    log = _log(played)
    said = {n: e["flow"]["flow.initiative"] for n, e in enumerate(log, 1)
            if "flow.initiative" in e.get("flow", {})}
    assert said == {7: "red", 10: "blue", 13: "none"}  # each round's first turn
    assert not [n for n, e in enumerate(log, 1) if "initiative" in [a["id"] for a in e["asked"]]]


def test_the_answer_is_told_to_both_bots_of_the_round_with_its_reason(played):
    log = _log(played)
    held = {n: log[n - 1]["snapshot"].get("initiative") for n in (7, 8, 10, 11, 13, 15)}
    assert held == {7: True, 8: False, 10: True, 11: False, 13: False, 15: False}
    red = _told(log[6])
    assert red["value"] is True
    assert red["why"].startswith("answered at the round's start, “Which bot holds the "
                                 "initiative marker?”: red (there is one initiative marker")
    assert "§ Act I Setup (1.B: Give the initiative marker to a bot)" in red["why"]
    assert _told(log[9])["value"] is True  # blue, at the second round
    # the other bot of a round a bot leads: told no by the leader's turn, as before
    assert _told(log[10])["why"].startswith("told by blue's turn 10 this round")
    # a player holds it: no to both bots of the round, red before its Event and blue after
    for number in (13, 15):
        told = _told(log[number - 1])
        assert told["value"] is False and ": none, a player holds it (" in told["why"]


def test_the_question_is_the_seed_s_with_the_bots_and_none_and_asked_only_as_a_round_begins(
        played, tmp_path):
    table = Table.open(before(played, tmp_path, 6))  # blue's start of the chapter is next
    offer = next_point(table)
    assert offer is not None and (offer.point, offer.question) == ("chapter", None)
    table = Table.open(before(played, tmp_path, 7))
    offer = next_point(table)
    assert offer is not None and offer.question is not None
    assert (offer.point, offer.bot) == ("turn", "red")
    assert offer.question.text == QUESTION
    assert offer.question.choices == ["red", "blue", "none"]
    assert "§ Bot turn (START HERE) (Does bot have initiative?)" in offer.question.help
    with pytest.raises(AnswerError, match="'green' is not one of the choices"):
        next_point(table, {"flow.initiative": "green"})
    offer = next_point(table, {"flow.initiative": "none"})
    assert offer is not None and offer.question is None
    assert offer.told["initiative"].value is False
    # the chapter's end goes on to the next chapter's start, which asks it there
    assert next_point(Table.open(played)).question is None  # type: ignore[union-attr]


def test_an_answers_file_without_it_is_refused_naming_it(run, played, tmp_path):
    game = before(played, tmp_path, 10)
    answers = tmp_path / "answers.yaml"
    values = yaml.safe_load((STEWARD_GAME / "6-blue-leads.yaml").read_text(encoding="utf-8"))
    del values["flow.initiative"]
    answers.write_text(yaml.safe_dump(values), encoding="utf-8")
    result = run("play", game, "--answers", answers)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"no answer to 'flow.initiative': {QUESTION} (add `flow.initiative:` " \
           "(red|blue|none)" in result.stderr


def test_undo_asks_it_again_and_redo_puts_back_the_answer(played, tmp_path):
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    logged = list(table.game.log)
    for _ in range(len(logged) - 6):
        table.undo()
    table = Table.open(game)
    offer = next_point(table)
    assert offer is not None and offer.question is not None and offer.question.text == QUESTION
    for _ in range(len(logged) - 6):
        table.redo()
    assert Table.open(game).game.log == logged
    assert Table.open(game).replay() == []


def test_fix_replays_the_answer_and_corrects_it(played, tmp_path):
    """`fix` of a round's first turn offers it with the answer logged; the answer itself may
    be corrected (a file's `flow.initiative:`): blue no longer holding it, its turn now asks
    the card led; a bot's name that is none of them is refused."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    plan = plan_fix(table, 13, {})
    assert plan.entry["flow"] == {"flow.initiative": "none"} and plan.changed == []
    assert [t.entry["snapshot"].get("initiative") for t in plan.later if t.number == 15] == [
        False]
    plan = plan_fix(table, 10, {"flow.initiative": "blue"})
    assert plan.entry["decision"] == table.game.log[9]["decision"]
    with pytest.raises(AnswerError, match="turn 10 now asks 'led_card'"):
        plan_fix(table, 10, {"flow.initiative": "none"})
    with pytest.raises(AnswerError, match="'green' is not one of the choices"):
        plan_fix(table, 10, {"flow.initiative": "green"})


def test_a_turn_jumped_to_with_at_asks_the_turn_s_own_question(played, tmp_path):
    """`--at turn` skips the flow: nothing was asked at the round's start, so the turn asks
    "Does the bot hold the initiative marker?" itself, and decides as the flow's answer did."""
    table = Table.open(before(played, tmp_path, 7))
    values = yaml.safe_load((STEWARD_GAME / "3-red-leads.yaml").read_text(encoding="utf-8"))
    source = FromFile({**values, "initiative": True}, "3-red-leads.yaml")
    turn = table.turn(point="turn")
    asked = []
    while (question := turn.next_question()) is not None:
        asked.append(question.id)
        turn.answer(question.id, source(question, 0))
    assert "initiative" in asked
    assert turn.decide().trace.decision.result == _log(played)[6]["decision"]["result"]
    entry = table.record(turn.decide())
    assert entry["decision"] == _log(played)[6]["decision"] and "flow" not in entry


def test_the_game_page_asks_it_with_a_button_for_each_bot_and_none(played, tmp_path):
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from whybot.cli.web.app import create_app

    before(played, tmp_path, 13)
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1")
    page = client.get("/g/game")
    assert page.status_code == 200 and QUESTION in html.unescape(page.text)
    assert re.findall(r'name="value" value="(\w+)"', page.text) == ["red", "blue", "none"]
    page = client.get("/g/game", params={"asked": "flow.initiative", "value": "none"})
    assert QUESTION not in html.unescape(page.text)
    said = html.unescape(re.findall(r'name="flow" value="([^"]*)"', page.text)[0])
    assert json.loads(said) == [["flow.initiative", "none"]]
    turn = client.get("/g/game/turn", params={"point": "turn", "bot": "red", "dice": "roll",
                                              "flow": said})
    assert turn.status_code == 200  # the answer carried on with the turn, to the log
    carried = re.findall(r'name="flow" value="([^"]*)"', turn.text)
    assert [html.unescape(c) for c in carried] == [said]


@pytest.mark.parametrize(("old", "new", "error"), [
    ("holder: initiative", "holder: hand_counter",
     r"at_round_start\.initiative\.holder\): 'hand_counter' is no yes/no fact"),
    ("holder: initiative", "holds: initiative",
     r"at_round_start\.initiative\[2\]\): unknown key of a question at a round's start "
     r"'holds' \(did you mean 'holder'"),
    ('none: "a player holds it"', "", r"at_round_start\.initiative\): missing none"),
])
def test_a_mistaken_question_at_a_round_s_start_is_refused_naming_its_path(tmp_path, old, new,
                                                                          error):
    shutil.copytree(KNOWLEDGE / "arcs", tmp_path / "arcs")
    play = tmp_path / "arcs" / "play.yaml"
    text = play.read_text(encoding="utf-8")
    assert text.count(old) == 1
    play.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(RuleFileError, match=error):
        load_playbook(load_pack(tmp_path, "arcs"))
