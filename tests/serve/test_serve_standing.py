"""The page of a bot's standing on its first turn (play.yaml `together:`, `remembered: true`)
on the web: one form, each fact labelled with its own question, a choice as a pick list, a
yes/no as yes or no, a count as a number; the bot's next turn offers what it said, and asks
none of it again."""

from __future__ import annotations

import html
import re

from tests.play.test_standing_page import (
    PAGE,
    RED_LEADS,
    steward_game,
    steward_game_before_red_leads,
)
from whybot.cli.web.forms import write_answers

from .arcs_game import group_cells
from .conftest import errors, hidden, question_of, scripted

# red's first turn as the web page takes it: the cards picked with their pips; the Guild cards
# said at the chapter's start still so
SCRIPT = {**RED_LEADS, "unchanged": True,
          "cards": [{"card": card, "pips": RED_LEADS[f"pips.{card}"]}
                    for card in RED_LEADS["cards"]]}


def test_the_standing_page_is_one_form_with_each_fact_s_own_question(player, games):
    steward_game_before_red_leads(games / "g1.yaml")
    page = player.client.get("/g/g1/turn", params={  # the flow's question answered first
        "point": "turn", "flow": write_answers([{"id": "flow.initiative", "value": "red"}])})
    while question_of(page.text) != "standing":
        assert question_of(page.text) is not None, "the page of red's standing never came"
        page = player.reply(page, SCRIPT)
        assert page.status_code == 200, errors(page.text) or page.text[:500]
    text = html.unescape(page.text)
    assert re.findall(r'name="value\.([^"]+)"', text) == PAGE
    assert "The bot's Dealmakers Guild card: not held (none)" in text
    assert re.search(r'<select name="value\.dealmakers"[^>]*>\s*<option value=""></option>'
                     r'\s*<option value="none"', text)
    assert re.search(r'<select name="value\.flagship"[^>]*>\s*<option value=""></option>'
                     r'\s*<option value="yes"', text)
    assert re.search(r'<input type="number" name="value\.material"', text)
    # a count the walk reads only once it has chosen the card, asked with the rest
    assert re.search(r'<input type="number" name="value\.starports_now"', text)
    assert "How many loyal starports does the bot have, counting those it built this card?" \
        in text
    value = scripted(page.text, "standing", RED_LEADS)
    sent = player.client.post(page.url.path, data={**hidden(page.text), "action": "answer",
                                                   **group_cells(value)},
                              follow_redirects=False)
    assert sent.status_code == 200 and not errors(sent.text)
    assert question_of(sent.text) not in (None, "standing", *PAGE)  # the walk reads on
    # a choice left empty is refused, beside the form, and asked again
    empty = player.client.post(page.url.path, data={**hidden(page.text), "action": "answer",
                                                    **group_cells({**value, "dealmakers": ""})})
    assert empty.status_code == 422 and question_of(empty.text) == "standing"
    assert any("dealmakers" in e for e in errors(empty.text))


def test_the_bot_s_next_turn_offers_the_page_s_counts_and_asks_none_again(player, games):
    """Red's second card (turn 11): its starports, unbuilt cities and claims, said on its first
    turn's page before the walk read them, are offered in "Since the last turn"; kept, the
    turn goes on to the cards, asking no page and no count."""
    steward_game(games / "g1.yaml", 10)
    page = player.client.get("/g/g1/turn")
    assert question_of(page.text) == "unchanged"
    assert "starports now: 0; cities left: 4; open claims: 0" in html.unescape(page.text)
    kept = player.answer(page, True)
    assert kept.status_code == 200 and question_of(kept.text) == "cards"
