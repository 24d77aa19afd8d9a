"""Issue 20 through the pages: a card new to the game has a field for its pips beside it, on
the card pick's own page (nothing asked apart); a card the game knows says its pips in the
pick list and has no field for them."""

from __future__ import annotations

import re
from typing import Any

from whybot.facts.play.table import Table

from .arcs_game import CARDS, PICKED, PIPS, TURN_1, TURN_2
from .conftest import errors, question_of

# turn 1 with each card's pips given beside it on the pick's page: no pips question of its own
PICKING = {**{k: v for k, v in TURN_1.items() if k not in PIPS}, "cards": PICKED}


def _to_cards(player: Any, script: dict[str, Any]) -> Any:
    """A turn's pages answered from `script` up to the card pick."""
    page = player.client.get("/g/g1/turn", params={"moves": "1"})
    while question_of(page.text) != "cards":
        page = player.reply(page, script)
        assert page.status_code == 200, errors(page.text) or page.text[:500]
    return page


def test_a_new_card_s_pips_are_given_beside_it_on_the_pick_s_page(player, games):
    player.new_game()
    page = _to_cards(player, PICKING)
    fields = re.findall(r'<label class="pick-field" data-new-only\s*>pips \(new card\) '
                        r'\s*<input type="number" name="value\.(\d+)\.pips"[^>]*min="1"', page.text)
    assert fields == ["0", "1", "2"]  # one beside each row, none hidden: no card is known yet
    done = player.turn("g1", PICKING)
    assert done.status_code == 303
    assert not [q for q in player.asked if q.startswith("pips.")]
    entry = Table.open(games / "g1.yaml").game.log[0]
    assert [a["id"] for a in entry["asked"]].count("cards") == 1
    kept = Table.open(games / "g1.yaml").game.state["entities"]["game"]["card"]
    assert kept == {"administration 3": {"pips": 3}, "construction 5": {"pips": 2}}


def test_a_card_the_game_knows_says_its_pips_and_has_no_field_for_them(player):
    player.new_game()
    assert player.turn("g1", PICKING).status_code == 303
    page = _to_cards(player, TURN_2)
    assert re.search(r'<option value="administration 3"\s*data-printed>administration 3 · 3 '
                     r'pips', page.text)
    assert re.search(r'<option value="event"\s*data-printed>', page.text)  # prints nothing asked
    bad = player.answer(page, [CARDS[0], {"card": "constructon 5"}])  # sent back, with an error
    assert bad.status_code == 422
    rows = bad.text.split('<li>')[1:]
    assert "data-new-only hidden" in rows[0]  # administration 3: known, no field
    assert "data-new-only hidden" not in rows[1]  # not a card yet: the field stays


def test_pips_left_out_beside_a_new_card_are_asked_next(player):
    player.new_game()
    page = _to_cards(player, TURN_1)
    page = player.answer(page, CARDS)
    assert question_of(page.text) == "pips.administration 3"
