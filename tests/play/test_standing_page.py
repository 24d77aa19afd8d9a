"""A bot's standing on its first turn asked as one page (play.yaml `together:` with
`remembered: true`): every fact and count the game remembers (`remember:`) that the rules of a
bot turn can read, whatever their kinds and whether the walk reads them now, later in the turn
or on a later card, comes as one question on a terminal, from an answers file and on the web
page; a list stays its own question; the bot's later turns only offer them as still so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from whybot.cli.answers_file import FromFile
from whybot.cli.app import app
from whybot.cli.prompt import Terminal
from whybot.engine import KIND, NAME, Reading
from whybot.facts.play.after import counted
from whybot.facts.play.asking import group_question, unread_of
from whybot.facts.play.question import Question
from whybot.facts.play.table import Table
from whybot.facts.play.turn import Turn

from .conftest import HERE

GAME = HERE / "steward_game"
PLAN = yaml.safe_load((GAME / "plan.yaml").read_text(encoding="utf-8"))
RED_LEADS = yaml.safe_load((GAME / "3-red-leads.yaml").read_text(encoding="utf-8"))
PAGE = ["power", "player_power", "bonus_cards", "ambition_markers_available",
        "imperial_council", "material", "fuel", "weapon", "relic", "psionic", "starports_now",
        "cities_left", "flagship", "open_claims", "ships_available", "damaged_ships",
        "dealmakers"]
COUNTS = ["starports_now", "cities_left", "open_claims"]  # judgments: said of the card's start


def steward_game(path: Path, played: int) -> Path:
    """The scripted Steward game (steward_game/plan.yaml), its first `played` steps played."""
    runner = CliRunner()
    steps = [["new", "arcs", str(path), "--seed", str(PLAN["game"]["seed"]), "--answers",
              str(GAME / PLAN["game"]["setup"])],
             *(["play", str(path), "--answers", str(GAME / step["answers"])]
               for step in PLAN["steps"][:played])]
    for args in steps:
        result = runner.invoke(app, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return path


def steward_game_before_red_leads(path: Path) -> Path:
    """The scripted Steward game up to red's first bot turn."""
    return steward_game(path, 6)


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


def test_the_page_holds_every_remembered_fact_of_every_kind_a_bot_turn_can_read(
        before_red_leads):
    turn, page = to_the_page(before_red_leads)
    assert page.kind == "group" and [f.id for f in page.fields] == PAGE
    kinds = {f.id: f.kind for f in page.fields}
    assert (kinds["dealmakers"], kinds["material"], kinds["flagship"], kinds["open_claims"]) \
        == ("choice", "number", "yes_no", "number")
    assert {f.id for f in page.fields if f.what == "answer"} == set(COUNTS)
    assert page.text.startswith("What does the table show of the bot and the game?")
    # asked before it: only whether the Guild cards said at the chapter's start are still so;
    # not on it: the Golems (a list: its own question) and what the table answers (the Guild
    # counts follow from the Guild cards)
    assert [q.id for q, _ in turn.answers] == ["unchanged"]
    assert not {"golems", "weapon_guild_cards", "union_cards"} & {f.id for f in page.fields}


def test_a_first_turn_s_page_holds_what_the_walk_reads_only_later_in_the_turn(played):
    """Red's first turn asks its starports, unbuilt cities and claims on the page, before the
    cards are picked; the walk reads them only once it has chosen the card by them (General
    Priorities, the suit's page), where each was a question of its own."""
    table = Table.open(played)
    asked = [a["id"] for a in table.game.log[6]["asked"]]
    assert asked.index("standing") < asked.index("cards")
    page = next(a["value"] for a in table.game.log[6]["asked"] if a["id"] == "standing")
    assert list(page) == PAGE and not set(PAGE) & set(asked)
    situation, _ = table.past_situation(7, explain=False)
    reading = Reading()
    table.engine.decide(situation, seed=table.game.seed + 7, reading=reading)
    first_read = {item: step for step, _, item in reversed(reading.events)}
    for count in COUNTS:
        assert first_read[(NAME, count)] > first_read[(KIND, "card")], count
        assert situation.answers[count] == page[count]  # said of the card's start


def test_a_later_turn_of_the_bot_offers_the_page_s_facts_and_asks_none_again(played):
    """Blue's first turn (8) never reads its starports or its Flagship; its page asked them
    all the same. Its next turn (10), which reads both, offers them as still so and asks
    neither; after its Build, the count is asked again (the action may have changed it)."""
    log = Table.open(played).game.log
    page = next(a["value"] for a in log[7]["asked"] if a["id"] == "standing")
    assert {"starports_now", "flagship", "power", "material"} <= set(page)
    assert "dealmakers" not in page  # no Fate: no rule of its turn reads a Dealmakers card
    later = log[9]
    asked = [name for a in later["asked"] for name in a.get("said", [a["id"]])]
    review = next(a for a in later["asked"] if a["id"] == "unchanged")
    assert review["value"] is True and "standing" not in asked and "flagship" not in asked
    assert asked.count("starports_now") == 1  # once: after the Build, on its page
    assert later["snapshot"]["answers"]["starports_now"] == 0
    assert later["snapshot"]["answers_after"][0]["starports_now"] == 1
    assert later["snapshot"]["flagship"] is False


def test_a_count_said_on_the_page_is_its_first_value_an_action_asks_the_next(
        before_red_leads):
    """An answers file gives a count asked again after an action as a list (`starports_now:
    [0, 1]`): the page takes the first, the question after the action the second."""
    turn, page = to_the_page(before_red_leads)
    source = FromFile({**RED_LEADS, "starports_now": [0, 1]}, "3-red-leads.yaml")
    turn.answer(page.id, source(page, 7))
    after = Question(id="starports_now", what="answer", kind="number", text="", layer=1)
    [again] = counted([after], turn.answers, turn.inquiry.data)
    assert again.times_said == 1 and source(again, 8) == 1


def test_the_page_typed_at_a_terminal_shows_each_fact_s_own_question(before_red_leads,
                                                                      capsys):
    _, page = to_the_page(before_red_leads)
    expected = {name: RED_LEADS[name] for name in PAGE}
    # a choice of several words ("in session") typed as the page shows it: values alone
    # separated by commas, or each with its name
    for answer in ("2, 3, 0, yes, in session, 1, 0, 0, 0, 0, 0, 4, no, 0, 12, 0, none",
                   "power 2, player power 3, bonus cards 0, ambition markers available yes, "
                   "imperial council in session, material 1, fuel 0, weapon 0, relic 0, "
                   "psionic 0, starports now 0, cities left 4, flagship no, open claims 0, "
                   "ships available 12, damaged ships 0, dealmakers none",
                   "2 3 0 yes in_session 1 0 0 0 0 0 4 no 0 12 0 none"):
        typed = iter(["dealmakers none, material 1", "in session 1", answer])
        prompts: list[str] = []
        value: Any = Terminal(lambda prompt, typed=typed, prompts=prompts: (
            prompts.append(prompt), next(typed))[1])(page, 7)
        shown = " ".join(capsys.readouterr().out.split())  # as read, not as wrapped
        assert "dealmakers: The bot's Dealmakers Guild card: not held (none)" in shown
        assert "flagship: Does the bot have a Flagship? (y/n)" in shown
        assert "starports now: How many loyal starports does the bot have, counting those " \
               "it built this card?" in shown
        assert "give power, player power, bonus cards" in shown
        assert "3 value(s) given for 17" in shown  # "in session 1": spaces split the values
        assert prompts[-1].endswith("(name value, …) > ")  # each field shows its own kind
        assert "(power 1, …)" in shown  # the example, a value the first field takes
        assert value == expected


def test_an_answers_file_gives_the_page_as_one_mapping_or_fact_by_fact(before_red_leads):
    _, page = to_the_page(before_red_leads)
    facts = {name: RED_LEADS[name] for name in PAGE}
    by_fact = FromFile(dict(RED_LEADS), "3-red-leads.yaml")(page, 7)
    as_one = FromFile({"standing": facts}, "game.yaml")(page, 7)
    # a count asked again after an action is given a value each time: the page takes the first
    each_time = FromFile({**RED_LEADS, "starports_now": [0, 1]}, "3-red-leads.yaml")(page, 7)
    assert by_fact == as_one == each_time == facts


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
