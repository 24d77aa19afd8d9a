"""The campaign's points arise in game order (play.yaml `flow:` — `ask:`, `last:`, `same_bot:`,
interludes): an Event card brings up the Imperial Reach, then a Summit; a Summit the bot calls,
the Negotiation minigame; a round's end, the Grievances once the optional rule is in play.
Where only the table knows, the flow asks the seed's own question, and goes on after the point
as it would have without it."""

from __future__ import annotations

import html
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from whybot.engine import RuleFileError, load_pack
from whybot.facts.play.game import write_game
from whybot.facts.play.offer import next_point
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.question import AnswerError
from whybot.facts.play.setup import game_pack
from whybot.facts.play.table import Table

from .test_unasked import _toy


def _table(tmp_path: Path, bots: list[str], *log: tuple[str, str, str, dict[str, Any]],
           ) -> Table:
    """A two-bot Arcs game whose log holds these decisions (bot, point, result, snapshot)."""
    table = Table.new(tmp_path / "game.yaml", "arcs",
                      {"bots": bots, "difficulty": "none",
                       **{f"{b}.fate": "none" for b in bots}}, seed=1)
    table.game.log = [{"turn": n, "bot": bot, "point": point, "snapshot": snapshot,
                       "decision": {"result": result}}
                      for n, (bot, point, result, snapshot) in enumerate(log, 1)]
    return table


def _offer(table: Table, **answers: Any) -> tuple[Any, str, str, dict[str, Any]]:
    offer = next_point(table, {f"flow.{k}": v for k, v in answers.items()})
    assert offer is not None
    return offer.point, offer.bot, offer.why, offer.facts


EVENT = ("red", "turn", "event", {})


def test_an_event_card_asks_the_imperial_reach_then_a_summit_in_the_seed_s_words(tmp_path):
    table = _table(tmp_path, ["red", "blue"], EVENT)
    offer = next_point(table)
    assert offer is not None and offer.question is not None
    question = offer.question
    assert question.id == "flow.imperial_reach" and question.choices == ["red", "blue", "no"]
    assert "First Regent" in question.text and "_" not in question.text
    assert "SUPERCAT v0.9 § Govern the Imperial Reach" in question.why()
    offer = next_point(table, {"flow.imperial_reach": False})
    assert offer is not None and offer.question is not None
    assert offer.question.text == ("An Event card was played: is a bot given the opportunity "
                                   "to call a Summit? Which one? (no: none)")
    assert _offer(table, imperial_reach=False, summit="blue")[:2] == ("summit", "blue")
    # neither arises: the next bot plays its card, as without the Event
    assert _offer(table, imperial_reach="no", summit="no")[:3] == (
        "turn", "blue", "the next bot plays a card")
    with pytest.raises(AnswerError, match="not one of the choices"):
        next_point(table, {"flow.imperial_reach": "green"})


def test_after_a_summit_the_flow_goes_on_as_before_it_never_asking_twice(tmp_path):
    """Red's Event gave blue a Summit: after it, red's turn's own next point (blue's card), in
    the turn order as it was; the Event's questions are not asked again."""
    table = _table(tmp_path, ["red", "blue"], EVENT, ("blue", "summit", "no_summit", {}))
    assert next_point(table).question is None  # type: ignore[union-attr]
    assert _offer(table)[:2] == ("turn", "blue")


def test_a_summit_called_brings_up_the_negotiation_minigame_to_its_end(tmp_path):
    table = _table(tmp_path, ["red", "blue"], EVENT, ("red", "summit", "summit", {}))
    offer = next_point(table)
    assert offer is not None and offer.question is not None
    assert offer.question.kind == "yes_no"  # about red, who called it
    assert "Negotiation Minigame (Optional) with red" in offer.question.text
    assert _offer(table, negotiation=True) == (
        "negotiation", "red", "after the Call to Order: the Negotiation minigame's rounds "
                              "and who starts", {"negotiation": "start"})
    table.game.log.append({"turn": 3, "bot": "red", "point": "negotiation",
                           "snapshot": {"negotiation": "start"},
                           "decision": {"result": "negotiation"}})
    assert _offer(table, negotiation_attempt="red")[:2] == ("negotiation", "red")
    assert _offer(table, negotiation_attempt="no", negotiation_bot_round="blue")[3] == {
        "negotiation": "bot_round"}
    point, bot, why, facts = _offer(table, negotiation_attempt="no",
                                    negotiation_bot_round="no")
    assert (point, bot, facts) == ("negotiation", "red", {"negotiation": "end"})
    assert why == "the Negotiation rounds are over: the minigame's end"
    table.game.log.append({"turn": 4, "bot": "red", "point": "negotiation",
                           "snapshot": {"negotiation": "end"},
                           "decision": {"result": "negotiation"}})
    assert _offer(table)[:2] == ("turn", "blue")  # after red's turn, as before the Event


def test_grievances_arise_at_a_round_end_once_the_optional_rule_is_in_play(tmp_path):
    end = ("red", "round_end", "next_round", {})
    table = _table(tmp_path, ["red", "blue"], end)
    assert _offer(table)[0] == "turn"  # the rule not known to be in play: nothing asked
    table.game.state["game"]["grievances_rule"] = True
    offer = next_point(table)
    assert offer is not None and offer.question is not None
    assert offer.question.id == "flow.grievances" and "Taxed" in offer.question.text
    assert _offer(table, grievances="red")[:2] == ("grievances", "red")
    table.game.log.append({"turn": 2, "bot": "red", "point": "grievances", "snapshot": {},
                           "decision": {"result": "grievances"}})
    assert next_point(table).question.id == "flow.another_grievance"  # type: ignore[union-attr]
    assert _offer(table, another_grievance="no")[:3] == ("turn", "blue",
                                                         "a new round: the bots play on")


def test_play_asks_the_flow_s_question_first_from_an_answers_file_too(run, tmp_path):
    """`play` asks the flow's questions before the decision (one bot: yes/no about it); an
    answers file that lacks one is refused naming it, in one line."""
    table = _table(tmp_path, ["red"], EVENT)
    write_game(table.game, table.game.path, game_pack)
    answers = tmp_path / "answers.yaml"
    answers.write_text("flow.imperial_reach: no\n", encoding="utf-8")
    result = run("play", table.game.path, "--answers", answers)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [
        f"error: {answers}: no answer to 'flow.summit': An Event card was played: is red given "
        "the opportunity to call a Summit? (add `flow.summit:` (y/n), or play on a terminal)"]
    answers.write_text("flow.imperial_reach: no\nflow.summit: no\n", encoding="utf-8")
    result = run("play", table.game.path, "--answers", answers)
    assert "next: round end for red: every bot has played its card" in result.stdout


@pytest.mark.parametrize(("flow", "expected"), [
    ("  start: {to: calm, says: go, ask: 'Angry?'}\n",
     r"\(\$.flow.start.ask\): a question needs its citation \(cite:\)"),
    ("  start: {to: calm, says: go, same_bots: true}\n",
     r"\(\$.flow.start.same_bots\): unknown key 'same_bots' \(did you mean 'same_bot'\?\)"),
    ("  start: {to: calm, says: go, last: 'coins <'}\n",
     r"\(\$.flow.start.last\): not a condition"),
])
def test_a_bad_flow_is_one_error_naming_its_field(tmp_path, flow, expected):
    with pytest.raises(RuleFileError, match=expected):
        load_playbook(load_pack(_toy(tmp_path, f"point: mood\nflow:\n{flow}"), "toy"))


def test_the_web_page_asks_the_flow_s_question_with_buttons_then_offers_the_point(tmp_path):
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from whybot.cli.web.app import create_app

    table = _table(tmp_path, ["red", "blue"], EVENT)
    write_game(table.game, table.game.path, game_pack)
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1")
    page = client.get("/g/game")
    assert page.status_code == 200
    assert "is a bot the First Regent, to govern the Imperial Reach now?" in page.text
    assert re.findall(r'name="value" value="(\w+)"', page.text) == ['red', 'blue', 'no']
    page = client.get("/g/game", params={"asked": "flow.imperial_reach", "value": "no"})
    assert "is a bot given the opportunity to call a Summit?" in page.text
    flow = re.search(r'name="flow" value="([^"]*)"', page.text)
    assert flow is not None
    page = client.get("/g/game", params={"flow": html.unescape(flow.group(1)),
                                         "asked": "flow.summit", "value": "red"})
    assert "First Regent" not in page.text and "Summit?" not in page.text
    assert ('<option value="summit" selected>summit (next: an Event card was played: a '
            'Summit may be called)</option>') in page.text
    assert '<option value="red" selected>red (next)</option>' in page.text
    said = html.unescape(re.findall(r'name="flow" value="([^"]*)"', page.text)[0])
    assert json.loads(said) == [["flow.imperial_reach", "no"], ["flow.summit", "red"]]
    turn = client.get("/g/game/turn", params={"point": "summit", "bot": "red", "dice": "roll",
                                              "flow": said})
    assert turn.status_code == 200  # the flow's answers carried on, to the log
    carried = re.findall(r'name="flow" value="([^"]*)"', turn.text)
    assert [html.unescape(c) for c in carried] == [said]
