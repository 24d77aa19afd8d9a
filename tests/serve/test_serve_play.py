"""`whybot serve`, HTTP level: a game played through the pages writes the same game file the
CLI reads; only reached questions are asked; bad answers change nothing; stale forms are
refused; undo, delete, why, why not and the odds."""

from __future__ import annotations

import html
import re
from pathlib import Path

from whybot.facts.play.table import Table

from .arcs_game import ASKED_1, ASKED_2, CARDS, TURN_1, TURN_2
from .conftest import errors, hidden, question_of


def _revision(games: Path, name: str = "g1") -> int:
    return Table.open(games / f"{name}.yaml").game.revision


def test_the_games_page_offers_a_new_game_of_each_pack(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "No game in this folder yet" in page.text
    for pack in ("arcs", "yellow_scarves", "sparta_athens"):
        assert f'<option value="{pack}">' in page.text
    assert "content-security-policy" in page.headers


def test_a_new_game_is_the_game_file_the_cli_reads(player, games):
    answer = player.new_game()
    assert answer.status_code == 303 and answer.headers["location"] == "/g/g1"
    table = Table.open(games / "g1.yaml")
    assert table.game.bots == ["red"]
    assert table.game.state["bots"]["red"]["fate"] == "none"
    assert "g1" in player.client.get("/").text


def test_a_bad_setup_answer_is_shown_beside_its_field_and_no_file_is_written(player, games):
    page = player.new_game(act="9")
    assert page.status_code == 422
    assert any("outside 1..3" in e for e in errors(page.text))
    assert list(games.iterdir()) == []
    page = player.new_game(seed="seven")
    assert page.status_code == 422 and "not a whole number" in errors(page.text)[0]
    page = player.new_game(name="../escape")
    assert page.status_code == 422 and "not a game name" in page.text
    assert list(games.iterdir()) == [] and not (games.parent / "escape.yaml").exists()


def test_two_turns_ask_only_what_is_reached_and_turn_two_not_what_the_game_knows(player,
                                                                              games):
    player.new_game()
    done = player.turn("g1", TURN_1)
    assert done.status_code == 303 and done.headers["location"] == "/g/g1/turns/1"
    assert player.asked == ASKED_1
    decision = player.client.get(done.headers["location"])
    assert decision.status_code == 200
    assert "<strong>tax</strong>" in decision.text
    assert "Blue&#39;s city in Hexy 2" in decision.text
    assert "admin.tax-contend-declared" in decision.text  # the why, as the CLI renders it
    assert "SUPERCAT v0.9 § Administration" in decision.text  # citing the seed by its title
    assert "003_277f340f362a2395.md" not in decision.text  # never its hashed file
    why = html.unescape(decision.text.split('id="why"')[1].split('id="why-not"')[0])
    assert "Can bot Tax to contend a declared ambition? [1] — Blue's city in Hexy 2" in why
    assert re.search(r"<details><summary><span[^>]*>why not the other decision points: "
                     r"</span><span[^>]*>setup, chapter, summit", decision.text)  # folded
    table = Table.open(games / "g1.yaml")
    assert len(table.game.log) == 1
    assert table.game.state["bots"]["red"]["hand_counter"] == 3

    done = player.turn("g1", TURN_2)
    assert done.headers["location"] == "/g/g1/turns/2"
    assert player.asked == ASKED_2  # the counters are known now
    table = Table.open(games / "g1.yaml")
    assert [e["bot"] for e in table.game.log] == ["red", "red"]
    assert table.game.state["bots"]["red"]["hand_counter"] == 2
    log = player.client.get("/g/g1").text
    assert "tax (Blue&#39;s city in Hexy 2)" in log and "Undo turn 2" in log


def test_a_bad_answer_is_shown_beside_the_field_and_changes_nothing(player, games):
    player.new_game()
    before = _revision(games)
    first = player.client.get("/g/g1/turn")
    page = player.answer(first, "x")
    assert page.status_code == 422
    assert question_of(page.text) == "hand_counter"
    assert errors(page.text) == ["'x' is not a number"]
    page = player.answer(first, 99)
    assert page.status_code == 422 and "outside 0..20" in errors(page.text)[0]
    assert _revision(games) == before


def test_an_entity_table_error_names_the_row_and_field(player):
    player.new_game()
    page = player.client.get("/g/g1/turn")
    for question in ("hand_counter", "standing", "initiative"):  # the bonus cards: standing
        assert question_of(page.text) == question
        page = player.reply(page, TURN_1)
    assert question_of(page.text) == "cards"
    bad = player.answer(page, [CARDS[0], {"card": "constructon 5"}])
    assert bad.status_code == 422
    assert "cards[1]" in errors(bad.text)[0]
    assert "did you mean 'construction 5'?" in errors(bad.text)[0]
    assert 'value="administration 3" selected' in bad.text  # the list keeps what was sent


def test_back_asks_the_previous_question_again(player):
    player.new_game()
    page = player.answer(player.client.get("/g/g1/turn"), 4)
    assert question_of(page.text) == "standing"  # the bonus cards, with the bot's standing
    back = player.client.post("/g/g1/turn", data={**hidden(page.text), "action": "back"})
    assert question_of(back.text) == "hand_counter"
    assert hidden(back.text)["answers"] == "[]"


def test_two_tabs_on_one_game_never_lose_or_double_a_turn(player, games):
    player.new_game()
    tab_b = player.client.get("/g/g1/turn")  # opened before tab A plays
    player.turn("g1", TURN_1)
    stale = player.answer(tab_b, TURN_1["hand_counter"])
    assert stale.status_code == 409
    assert "out of date" in stale.text and "nothing was changed" in stale.text
    assert len(Table.open(games / "g1.yaml").game.log) == 1
    again = player.client.post("/g/g1/undo", data={"turn": "0"})
    assert again.status_code == 409
    assert len(Table.open(games / "g1.yaml").game.log) == 1


def test_a_form_sent_twice_records_the_turn_once(player, games):
    player.new_game()
    page = player.client.get("/g/g1/turn", params={"moves": "1"})  # TURN_1 lists the moves
    script = dict(TURN_1)
    last = None
    while question_of(page.text) is not None:
        last = page
        page = player.reply(page, script)
    assert page.status_code == 303
    resent = player.reply(last, script)
    assert resent.status_code == 409
    assert len(Table.open(games / "g1.yaml").game.log) == 1


def test_undo_is_one_tap_from_the_decision(player, games):
    player.new_game()
    done = player.turn("g1", TURN_1)
    decision = player.client.get(done.headers["location"]).text
    assert 'id="undo"' in decision
    undone = player.client.post("/g/g1/undo", data=hidden(decision), follow_redirects=True)
    assert "Turn 1 (red) was taken back." in undone.text
    table = Table.open(games / "g1.yaml")
    assert table.game.log == [] and "hand_counter" not in table.game.state["bots"]["red"]


def test_why_not_a_rule_and_a_typo_with_did_you_mean(player):
    player.new_game()
    player.turn("g1", TURN_1)
    page = player.client.get("/g/g1/turns/1", params={"rule": "gp.secure-contend-declared"})
    assert page.status_code == 200 and "did NOT apply" in page.text
    page = player.client.get("/g/g1/turns/1", params={"rule": "gp.tax-contend-declard"})
    assert page.status_code == 422
    assert "did you mean &#39;gp.tax-contend-declared&#39;?" in page.text
    missing = player.client.get("/g/g1/turns/7")
    assert missing.status_code == 400 and "no turn 7" in missing.text


def test_the_odds_of_a_turns_dice(player):
    player.new_game()
    player.turn("g1", TURN_1)
    page = player.client.get("/g/g1/turns/1/odds")
    assert page.status_code == 200
    assert "seize check" in page.text  # the roll the turn made, named
    assert "%" in page.text and "tax" in page.text


def test_delete_asks_first_and_refuses_a_stale_confirmation(player, games):
    player.new_game()
    confirm = player.client.get("/g/g1/delete")
    assert "Delete g1?" in confirm.text
    assert player.client.post("/g/g1/delete", data={"turn": "3"}).status_code == 409
    assert (games / "g1.yaml").exists()
    gone = player.client.post("/g/g1/delete", data=hidden(confirm.text), follow_redirects=True)
    assert "Deleted g1." in gone.text and not (games / "g1.yaml").exists()


def test_a_damaged_game_file_is_listed_with_its_problem_and_never_rewritten(client, games):
    damaged = games / "broken.yaml"
    damaged.write_text("whybot: whybot game\nversion: 1\npack: arcs\nbots: [red]\n")
    listed = client.get("/")
    assert "cannot be opened" in listed.text
    page = client.get("/g/broken")
    assert page.status_code == 409
    assert damaged.read_text().endswith("bots: [red]\n")


def _to_dice(player, script):
    """Answer from `script` until the page asks for dice; that page."""
    page = player.client.get("/g/g1/turn", params={"dice": "table", "moves": "1"})
    while (question_of(page.text) or "dice.").split(".")[0] != "dice":
        page = player.reply(page, script)
    return page


def test_dice_from_the_table_are_asked_as_faces_and_checked(player, games):
    player.new_game()
    page = _to_dice(player, TURN_1)
    assert question_of(page.text) == "dice.0"
    assert "Roll 1d6: seize check" in page.text and "Roll them for me" in page.text
    wrong = player.answer(page, 9)
    assert wrong.status_code == 422 and "not a face of a d6" in errors(wrong.text)[0]
    done = player.answer(page, 2)
    while question_of(done.text) is not None:  # what the walk reads after the roll
        done = player.reply(done, TURN_1)
    assert done.status_code == 303
    entry = Table.open(games / "g1.yaml").game.log[0]
    assert entry["snapshot"]["dice"] == [2]


def test_roll_them_for_me_lets_the_games_seed_roll(player, games):
    player.new_game()
    page = _to_dice(player, TURN_1)
    rolled = player.client.post("/g/g1/turn", data={**hidden(page.text), "action": "roll"},
                                follow_redirects=False)
    assert question_of(rolled.text) != "dice.0"
    while question_of(rolled.text) is not None:  # what the walk reads after the roll
        rolled = player.reply(rolled, TURN_1)
    assert rolled.status_code == 303
    table = Table.open(games / "g1.yaml")
    seeded = table.past(1, explain=False).dice[0]
    assert seeded.source.startswith("pre-rolled")  # the faces the seed rolled, kept
    assert len(table.game.log[0]["snapshot"]["dice"]) == 1


def test_a_decision_point_other_than_a_turn_is_played_and_logged(player, games):
    player.new_game()
    page = player.client.get("/g/g1/turn", params={"point": "chapter"})
    assert question_of(page.text) == "guild_cards"
    done = player.answer(page, [])  # an empty table: no Guild cards
    assert done.status_code == 303
    decision = player.client.get(done.headers["location"]).text
    assert "The turn stops here: chapter" in decision and "chapter.hand-counter" in decision
    entry = Table.open(games / "g1.yaml").game.log[0]
    assert entry["point"] == "chapter"


def _first_answer(question) -> str:
    """What a player taking the form's first offer sends: the default, the least, the first."""
    if question.default is not None:
        return str(question.default)
    if question.kind == "number":
        return str(int(question.minimum or 0))
    return str(question.choices[0]) if question.choices else "x"


def test_every_pack_starts_a_game_from_its_own_setup_questions(client, games):
    from whybot.facts.play.setup import setup_questions

    for pack, bot in (("yellow_scarves", "Red"), ("sparta_athens", "sparta")):
        form = client.get("/new", params={"pack": pack})
        assert form.status_code == 200
        data = {"pack": pack, "name": pack, "seat0": bot}
        for question in setup_questions(pack, ["seat"])[1:]:
            data[question.id.replace("seat.", "seat0.")] = _first_answer(question)
        made = client.post("/new", data=data, follow_redirects=False)
        assert made.status_code == 303, errors(made.text)
        assert Table.open(games / f"{pack}.yaml").game.bots == [bot]
        assert client.get(f"/g/{pack}/turn").status_code == 200
