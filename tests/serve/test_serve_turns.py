"""Turns in progress kept between requests (`cli/web/turns.py`): taken, never shared, bounded,
and the same turn as one rebuilt from the form's answers."""

from __future__ import annotations

from whybot.cli.web.forms import write_answers
from whybot.cli.web.turns import Turns
from whybot.facts.play.table import Table


def test_a_kept_turn_is_taken_once_and_equals_one_rebuilt_from_its_answers(player, games):
    player.new_game()
    table = Table.open(games / "g1.yaml")
    turns = Turns()
    first, second = (turns.take(table, "red", None, "roll", None) for _ in range(2))
    assert first is not second
    first.answer("hand_counter", 4)
    second.answer("hand_counter", 4)
    turns.keep(first, None)
    turns.keep(second, None)
    answers = write_answers(first.asked())
    taken = [turns.take(table, "red", None, "roll", answers) for _ in range(3)]
    assert {id(taken[0]), id(taken[1])} == {id(first), id(second)}
    assert taken[2] not in (first, second)  # none left: rebuilt from the answers
    assert taken[2].next_question().id == first.next_question().id == "standing"


def test_at_most_size_turns_are_kept_the_oldest_dropped(player, games):
    player.new_game()
    table = Table.open(games / "g1.yaml")
    turns = Turns(size=2)
    kept = []
    for value in (1, 2, 3):
        turn = turns.take(table, "red", None, "roll", None)
        turn.answer("hand_counter", value)
        turns.keep(turn, None)
        kept.append(turn)
    assert turns.count == 2 and len(turns.kept) == 2
    oldest = write_answers(kept[0].asked())
    assert turns.take(table, "red", None, "roll", oldest) is not kept[0]
