"""A bot's standing facts on its first turn asked as one page (play.yaml `together:` with
`remembered: true`): the facts the game remembers (`remember:`) that the walk read at once,
whatever their kinds, come as one question on a terminal, from an answers file and on the web
page; a list stays its own question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from whybot.cli.answers_file import FromFile
from whybot.cli.app import app
from whybot.cli.prompt import Terminal
from whybot.facts.play.asking import group_question, unread_of
from whybot.facts.play.question import Question
from whybot.facts.play.table import Table
from whybot.facts.play.turn import Turn

from .conftest import HERE

GAME = HERE / "steward_game"
PLAN = yaml.safe_load((GAME / "plan.yaml").read_text(encoding="utf-8"))
RED_LEADS = yaml.safe_load((GAME / "3-red-leads.yaml").read_text(encoding="utf-8"))
PAGE = ["dealmakers", "imperial_council", "material", "fuel", "weapon", "relic", "psionic",
        "flagship", "ambition_markers_available"]


def steward_game_before_red_leads(path: Path) -> Path:
    """The scripted Steward game (steward_game/plan.yaml) up to red's first bot turn."""
    runner = CliRunner()
    steps = [["new", "arcs", str(path), "--seed", str(PLAN["game"]["seed"]), "--answers",
              str(GAME / PLAN["game"]["setup"])],
             *(["play", str(path), "--answers", str(GAME / step["answers"])]
               for step in PLAN["steps"][:6])]
    for args in steps:
        result = runner.invoke(app, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def before_red_leads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return steward_game_before_red_leads(tmp_path_factory.mktemp("standing") / "game.yaml")


def to_the_page(game: Path) -> tuple[Turn, Question]:
    """Red's first turn, answered from its answers file up to the page of its standing."""
    turn = Table.open(game).turn(follow=True, flow={"flow.initiative": RED_LEADS[
        "flow.initiative"]})
    source = FromFile(RED_LEADS, "3-red-leads.yaml")
    while (question := turn.next_question()) is not None and question.id != "standing":
        turn.answer(question.id, source(question, 0))
    assert question is not None
    return turn, question


def test_the_page_holds_the_remembered_facts_of_every_kind_the_walk_read(before_red_leads):
    turn, page = to_the_page(before_red_leads)
    assert page.kind == "group" and [f.id for f in page.fields] == PAGE
    kinds = {f.id: f.kind for f in page.fields}
    assert (kinds["dealmakers"], kinds["material"], kinds["flagship"]) == \
        ("choice", "number", "yes_no")
    assert page.text.startswith("What does the table show of the bot and the game?")
    # asked before: the Golems (a list: its own question) and what the table answers (the
    # Guild counts follow from the Guild cards): none of them on the page
    assert not {"golems", "weapon_guild_cards", "union_cards"} & {f.id for f in page.fields}
    asked = [q.id for q, _ in turn.answers]
    assert not set(PAGE) & set(asked) and "bot_resources" not in asked


def test_the_page_typed_at_a_terminal_shows_each_fact_s_own_question(before_red_leads,
                                                                      capsys):
    _, page = to_the_page(before_red_leads)
    expected = {"dealmakers": "none", "imperial_council": "in_session", "material": 1,
                "fuel": 0, "weapon": 0, "relic": 0, "psionic": 0, "flagship": False,
                "ambition_markers_available": True}
    # a choice of several words ("in session") typed as the page shows it: values alone
    # separated by commas, or each with its name
    for answer in ("none, in session, 1, 0, 0, 0, 0, no, yes",
                   "dealmakers none, imperial council in session, material 1, fuel 0, "
                   "weapon 0, relic 0, psionic 0, flagship no, ambition markers available yes",
                   "none in_session 1 0 0 0 0 no yes"):
        typed = iter(["dealmakers none, material 1", "in session 1", answer])
        value: Any = Terminal(lambda prompt, typed=typed: next(typed))(page, 7)
        shown = capsys.readouterr().out
        assert "dealmakers: The bot's Dealmakers Guild card: not held (none)" in shown
        assert "flagship: Does the bot have a Flagship? (y/n)" in shown
        assert "give imperial council, fuel, weapon, relic, psionic, flagship" in shown
        assert "3 value(s) given for 9" in shown  # "in session 1": spaces split the values
        assert "(dealmakers none, …)" in shown  # the example, a value the first field takes
        assert value == expected


def test_an_answers_file_gives_the_page_as_one_mapping_or_fact_by_fact(before_red_leads):
    _, page = to_the_page(before_red_leads)
    facts = {name: RED_LEADS[name] for name in PAGE}
    by_fact = FromFile(dict(RED_LEADS), "3-red-leads.yaml")(page, 7)
    as_one = FromFile({"standing": facts}, "game.yaml")(page, 7)
    assert by_fact == as_one == {**facts, "dealmakers": "none"}


def test_the_led_card_typed_at_a_terminal_is_its_suit_and_number(before_red_leads):
    """The card led, one question (a whole group): typed as its suit and its number."""
    table = Table.open(before_red_leads)
    turn = table.turn(follow=True)
    unread = unread_of(table, turn.bot, turn.inquiry.data, None)
    group = table.playbook.together["led_card"]
    question = group_question(group, [unread(name) for name in group.facts])
    assert [f.kind for f in question.fields] == ["choice", "number"]
    typed = iter(["aggression 4"])
    assert Terminal(lambda prompt: next(typed))(question, 4) == \
        {"lead_suit": "aggression", "lead_number": 4}
