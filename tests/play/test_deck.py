"""Cards picked from the pack's deck (play.yaml `deck:`): by name, with the nearest name for one
not in the deck; a card listed twice or led this round refused; what the seeds leave to the
card (an Arcs card's pips) asked the first time the game sees it, kept in the game file, never
asked again, and corrected only by `whybot fix` of the turn that told it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from whybot.cli.answers_file import FromFile
from whybot.engine import RuleFileError, load_pack
from whybot.facts.play.fix import apply_fix, plan_fix
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.printed import refuse_drawn
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .conftest import ARCS_GAME

TURN = {k: v for k, v in yaml.safe_load((ARCS_GAME / "2-turn.yaml").read_text(
    encoding="utf-8")).items() if k != "cards"}
KNOWLEDGE = Path(__file__).resolve().parents[2] / "knowledge"


@pytest.fixture
def game(magnate_game: Path) -> Path:
    return magnate_game


def _plainest(question: Any, _: int) -> Any:
    """What the turn file does not say: no, none, 0, the first choice."""
    if question.default is not None:
        return question.default
    if question.kind == "group":  # facts asked together: each its plainest
        return {f.id: _plainest(f, _) for f in question.fields}
    return {"yes_no": False, "number": 0, "entities": []}.get(
        question.kind, (question.choices or [""])[0])


def _to_cards(table: Table, **given: Any):
    """The next bot turn, answered up to its cards question."""
    turn = table.turn(given=given or None, moves=True)
    source = FromFile(TURN, "turn")
    while (question := turn.next_question()).id != "cards":
        turn.answer(question.id, source(question, 0))
    return turn


def _play(table: Table, cards: str, **pips: int) -> dict[str, Any]:
    """A bot turn with `cards` picked by name, each new card's pips from `pips`."""
    turn = _to_cards(table)
    turn.answer("cards", cards)
    source = FromFile({**TURN, **{f"pips.{k.replace('_', ' ')}": v for k, v in pips.items()}},
                      "turn", _plainest)
    while (question := turn.next_question()) is not None:
        turn.answer(question.id, source(question, 0))
    return table.record(turn.decide())


def test_a_card_is_picked_by_its_name_and_a_name_not_in_the_deck_is_refused(game):
    turn = _to_cards(Table.open(game))
    question = turn.next_question()
    assert "construction 6" in question.as_dict()["deck"]
    with pytest.raises(AnswerError, match=r"'constrution 6' is not in the deck.*did you mean "
                                          r"'construction 6'"):
        turn.answer("cards", "constrution 6")
    with pytest.raises(AnswerError, match="construction runs from 1 to 7"):
        turn.answer("cards", "construction 8")
    with pytest.raises(AnswerError, match="aggression 2 is listed twice"):
        turn.answer("cards", "aggression 2, agg 2")
    assert turn.answer("cards", "suit=aggression, number=2") == [  # by its fields, as before
        {"suit": "aggression", "number": 2}]
    turn.back()
    assert turn.answer("cards", "adm 5, aggression 2, event Edenguard Ambush") == [
        {"suit": "administration", "number": 5}, {"suit": "aggression", "number": 2},
        {"suit": "event", "name": "Edenguard Ambush"}]
    # each new card's pips, one question each, in the words of the card; not the Event's
    asked = [turn.next_question().text]
    turn.answer("pips.administration 5", 3)
    asked.append(turn.next_question().text)
    assert asked == ["How many action pips are printed on administration 5?",
                     "How many action pips are printed on aggression 2?"]
    with pytest.raises(AnswerError, match=r"outside 1\.\.4"):
        turn.answer("pips.aggression 2", 0)


def test_the_card_led_this_round_is_not_in_the_stack(game):
    turn = _to_cards(Table.open(game), lead_suit="aggression", lead_number=2)
    with pytest.raises(AnswerError, match="aggression 2 cannot be drawn: it was led this "
                                          "round, and played cards go to the discard pile"):
        turn.answer("cards", "administration 5, aggression 2")
    turn.answer("cards", "administration 5, aggression 3")


def test_pips_are_asked_once_then_kept_for_the_game(game):
    table = Table.open(game)
    first = _play(table, "administration 5, aggression 2", administration_5=3, aggression_2=3)
    assert [a["id"] for a in first["asked"] if a["id"].startswith("pips.")] == \
        ["pips.administration 5", "pips.aggression 2"]
    kept = yaml.safe_load(game.read_text(encoding="utf-8"))["state"]["entities"]["game"]["card"]
    assert kept == {"administration 5": {"pips": 3}, "aggression 2": {"pips": 3}}

    table = Table.open(game)  # read back from the file: the game remembers
    turn = _to_cards(table)
    turn.answer("cards", "aggression 2, construction 1")
    assert turn.next_question().id == "pips.construction 1"  # only the new card's
    turn.answer("pips.construction 1", 2)
    assert {"suit": "aggression", "number": 2, "pips": 3} in turn.inquiry.data["cards"]

    turn = _to_cards(table)  # another value for a card the game knows: refused, and why
    with pytest.raises(AnswerError, match=r"aggression 2 shows 3 pips in this game \(told on "
                                          r"turn 2\)") as refused:
        turn.answer("cards", [{"suit": "aggression", "number": 2, "pips": 4}])
    assert refused.value.hint == "to correct it: whybot fix GAME --turn 2"

    table.undo()  # the turn that told them taken back: the game no longer knows them
    assert "card" not in Table.open(game).game.state["entities"].get("game", {})


def test_whybot_fix_corrects_what_a_card_shows(game):
    table = Table.open(game)
    _play(table, "administration 5, aggression 2", administration_5=3, aggression_2=3)
    _play(table, "aggression 2, construction 1", construction_1=2)
    plan = plan_fix(table, 2, {"pips.aggression 2": 2})
    apply_fix(table, plan, keep=True)
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["state"]["entities"]["game"]["card"]["aggression 2"] == {"pips": 2}
    assert {"suit": "aggression", "number": 2, "pips": 2} in data["log"][2]["snapshot"]["cards"]


def test_a_game_file_written_before_the_deck_loads_and_asks_what_it_never_kept(game):
    """A game file of before (its cards given with their pips, nothing kept by card) reads as
    it was; a card it saw is asked its pips once, as any new card."""
    table = Table.open(game)
    _play(table, "administration 5, aggression 2", administration_5=3, aggression_2=3)
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    del data["state"]["entities"]["game"]["card"]
    entry = data["log"][-1]
    entry["changes"] = [c for c in entry["changes"] if c["path"][:3] != ["entities", "game",
                                                                          "card"]]
    entry["asked"] = [a for a in entry["asked"] if not a["id"].startswith("pips.")]
    entry["asked"][[a["id"] for a in entry["asked"]].index("cards")]["value"] = \
        entry["snapshot"]["cards"]
    game.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    old = Table.open(game)
    assert old.replay() == []  # its turns decide again as logged
    turn = _to_cards(old)
    turn.answer("cards", "aggression 2, construction 1")
    assert turn.next_question().id == "pips.aggression 2"


def _arcs_with_deck(tmp_path: Path, deck: str) -> Path:
    shutil.copytree(KNOWLEDGE / "arcs", tmp_path / "arcs")
    play = tmp_path / "arcs" / "play.yaml"
    text = play.read_text(encoding="utf-8")
    start, end = text.index("\ndeck:\n"), text.index("\n# Stops that decide nothing")
    play.write_text(text[:start] + "\n" + deck + text[end:], encoding="utf-8")
    return tmp_path


GROUPS = ("    administration: [1, 7]\n    aggression: [1, 7]\n    construction: [1, 7]\n"
          "    mobilization: [1, 7]\n    faithful: [1, 9]\n    event: {named: name}\n")


@pytest.mark.parametrize(("deck", "expected"), [
    ("deck:\n  list: card\n", r"\(\$.deck.list\): unknown entity list 'card' \(did you "
                              r"mean 'cards'\?\)"),
    ("deck:\n  list: cards\n  group: suit\n  number: number\n  groups:\n"
     "    administration: [1, 7]\n  cite: x\n",
     r"\(\$.deck.groups\): the deck has no group for aggression, construction"),
    ("deck:\n  list: cards\n  group: suit\n  number: number\n  groups:\n" + GROUPS +
     "    agression: [1, 7]\n  cite: x\n",
     r"\(\$.deck.groups.agression\): unknown value of suit 'agression' \(did you mean "
     r"'aggression'\?\)"),
    ("deck:\n  list: cards\n  group: suit\n  number: number\n  groups:\n" + GROUPS +
     "  printed:\n    pips: {ask: How many?, says: printed}\n  cite: x\n",
     r"\(\$.deck.printed.pips.ask\): the question names the card"),
    ("deck:\n  list: cards\n  group: suit\n  number: number\n  groups:\n" + GROUPS +
     "  in_play: {cards: [{suit: lead_suite}], says: led, cite: x}\n  cite: x\n",
     r"unknown fact 'lead_suite' \(did you mean 'lead_suit'\?\)"),
])
def test_a_bad_deck_is_one_error_naming_its_field(tmp_path, deck, expected):
    with pytest.raises(RuleFileError, match=expected):
        load_playbook(load_pack(_arcs_with_deck(tmp_path, deck), "arcs"))


def test_a_card_led_after_the_cards_were_named_is_refused_too(game):
    """The fact naming the card led may be answered after the cards: held to them then."""
    table = Table.open(game)
    deck = table.playbook.deck
    board = {"lead_suit": "aggression", "lead_number": 2}
    cards = [{"suit": "aggression", "number": 2}]
    with pytest.raises(AnswerError, match="aggression 2 cannot be drawn: it was led"):
        refuse_drawn(deck, cards, board, {}, {})
    refuse_drawn(deck, cards, {"lead_suit": "aggression", "lead_number": 3}, {}, {})
