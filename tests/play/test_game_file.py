"""The game file: checked when read (field path and line), written atomically, and never
written over when it is damaged, stale (saved by another writer since it was read) or new."""

from __future__ import annotations

import pytest

from whybot.engine.errors import WhybotError
from whybot.facts.play.game import GameFileError
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .helpers import example, play

SETUP = {"bots": ["red"], "difficulty": "none", "act": 1, "red.fate": "none"}


@pytest.fixture()
def game(tmp_path):
    path = tmp_path / "game.yaml"
    Table.new(path, "arcs", SETUP, seed=5)
    return path


def test_a_new_game_holds_the_setup_and_is_never_written_over(game):
    text = game.read_text(encoding="utf-8")
    assert "whybot: whybot game" in text and "revision: 1" in text
    table = Table.open(game)
    assert table.game.state["game"] == {"act": 1, "difficulty": "none", "bots": 1}
    assert table.game.state["bots"] == {"red": {"fate": "none"}}
    with pytest.raises(GameFileError, match="exists: it is not overwritten"):
        Table.new(game, "arcs", SETUP)
    assert game.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in game.parent.iterdir()) == [".game.yaml.lock", "game.yaml"]


@pytest.mark.parametrize(("edit", "message"), [
    (("fate: none", "fate: nonee"),
     "game.yaml:16 ($.state.bots.red.fate): 'nonee' is not one of: none, "),
    (("bots: [red]", "bots: [red, red]"), "($.bots): bots must be a list of different names"),
    (("revision: 1", "revison: 1"), "($.revison): unknown key 'revison' in a game file (did "
                                    "you mean 'revision'?)"),
    (("pack: arcs", "pack: arc"), "no knowledge pack named 'arc' (did you mean 'arcs'?)"),
])
def test_a_damaged_file_is_refused_naming_the_field(game, edit, message):
    game.write_text(game.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    with pytest.raises(WhybotError) as caught:
        Table.open(game)
    assert message in str(caught.value)


def test_a_damaged_or_stale_file_is_not_overwritten(game, tmp_path):
    first, second = Table.open(game), Table.open(game)
    turn = first.turn(point="chapter")
    turn.answer("guild_cards", [])
    first.record(turn.decide())
    saved = game.read_text(encoding="utf-8")
    turn = second.turn(point="chapter")
    turn.answer("guild_cards", [])
    with pytest.raises(GameFileError, match=r"changed since it was read \(revision 2, read at "
                                            r"1\): nothing saved"):
        second.record(turn.decide())
    assert game.read_text(encoding="utf-8") == saved
    assert second.game.log == [] and second.game.revision == 1  # left as it was read

    damaged = saved.replace("hand_counter: 6", "hand_counter: six")
    game.write_text(damaged, encoding="utf-8")
    with pytest.raises(GameFileError, match=r"cannot be read .*it is not overwritten"):
        first.undo()
    assert game.read_text(encoding="utf-8") == damaged
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_a_turn_recorded_twice_is_refused(game):
    table = Table.open(game)
    turn = table.turn(point="chapter")
    turn.answer("guild_cards", [])
    result = turn.decide()
    table.record(result)
    with pytest.raises(GameFileError, match="turn 1 was decided, but the game is at turn 2"):
        table.record(result)


def test_answers_are_checked_and_taken_back(game):
    table = Table.open(game)
    turn = table.turn()
    question = turn.next_question()
    shown = question.as_dict()
    # needed before any rule reads it: `?` quotes the rules that do, in the seed's words
    assert shown.pop("why").startswith("the procedure reads it: “")
    assert shown == {
        "id": "hand_counter", "what": "fact", "kind": "number",
        "text": "What does the bot's hand counter show?",
        "help": "the bot's hand counter",
        "minimum": 0, "maximum": 20}
    with pytest.raises(AnswerError, match=r"21 is outside 0\.\.20"):
        turn.answer("hand_counter", "21")
    with pytest.raises(AnswerError, match="the question now is 'hand_counter', not 'x'"):
        turn.answer("x", 1)
    assert turn.answer("hand_counter", "4") == 4
    question = turn.next_question()  # the bonus cards: the first fact of the bot's standing
    assert (question.id, question.kind, question.rule, question.page) == (
        "standing", "group", "bot_turn.draw", "bot_turn")
    assert question.fields[0].id == "bonus_cards"
    assert question.why().startswith("the procedure reads them here: “Is bot’s "
                                     "hand counter greater than number of bonus cards")
    assert "(SUPERCAT v0.9 §" in question.why()
    turn.answer("standing", {f.id: f.spec.default for f in question.fields})
    assert turn.answer("initiative", "y") is True
    cards = turn.next_question()
    assert cards.kind == "entities" and [f.id for f in cards.fields][:3] == [
        "suit", "number", "pips"]
    with pytest.raises(AnswerError, match=r"cards\[0\].suit.*'adminstration' is not one of"):
        turn.answer("cards", [{"suit": "adminstration"}])
    assert turn.back().id == "initiative"
    assert turn.next_question().id == "initiative"
    assert [a["id"] for a in turn.asked()] == ["hand_counter", "standing"]
    assert turn.asked()[1]["value"]["bonus_cards"] == 0


def test_dice_at_the_table_are_asked_as_faces(game):
    values = example("arcs/demo.yaml")
    table = Table.open(game)
    turn, _ = play(table, {**values, "dice": [3]}, dice="table")
    dice = [q for q, _ in turn.answers if q.what == "dice"]
    assert [(q.id, q.count, q.sides) for q in dice] == [("dice.0", 1, 6)]
    with pytest.raises(AnswerError):
        dice[0].parse("7")
    result = turn.decide()
    assert result.snapshot["dice"] == [3]
    assert result.trace.dice[0].source == "pre-rolled #1"
