"""Issue 20, the cards and what the game already knows: a card new to the game is told what it
prints with the pick itself (one question: the terminal asks it on the next line, an answers
file gives it in the entry or as `pips.CARD`), a card told before is never asked again, a
correction of a card's pips told with its pick goes through `whybot fix`; at a round's end the
other bots' hand counters and the bot's own Event card come from the game file, each with its
reason."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
import yaml

from whybot.cli.answers_file import FromFile, Unanswered
from whybot.cli.prompt import Terminal
from whybot.engine import RuleFileError, load_pack
from whybot.facts.play.fix import apply_fix, plan_fix
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.table import Table

from .test_deck import KNOWLEDGE, TURN, _plainest, _play, _to_cards


def _typed(prompts: list[str], *lines: str) -> Terminal:
    """A terminal typing `lines`, each prompt it shows kept in `prompts`."""
    typed = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)
    return Terminal(read=read)


def _finish(table: Table, turn: Any) -> dict[str, Any]:
    source = FromFile(TURN, "turn", _plainest)
    while (question := turn.next_question()) is not None:
        turn.answer(question.id, source(question, 0))
    return table.record(turn.decide())


def test_a_new_card_s_pips_are_asked_on_the_next_line_of_the_same_question(magnate_game, capsys):
    table = Table.open(magnate_game)
    turn = _to_cards(table)
    question = turn.next_question()
    prompts: list[str] = []
    value = _typed(prompts, "administration 5, aggression 2", "3", "0", "3", "")(question, 4)
    assert prompts == ["   entry 1 > ",
                       "   How many action pips are printed on administration 5? (1..4) > ",
                       *["   How many action pips are printed on aggression 2? (1..4) > "] * 2,
                       "   entry 3 > "]
    assert "outside 1..4" in capsys.readouterr().out  # 0 pips refused, asked again
    assert value == [{"suit": "administration", "number": 5, "pips": 3},
                     {"suit": "aggression", "number": 2, "pips": 3}]
    turn.answer("cards", value)
    assert not turn.next_question().id.startswith("pips.")  # nothing asked apart
    entry = _finish(table, turn)
    assert [a["id"] for a in entry["asked"]].count("cards") == 1
    assert not [a for a in entry["asked"] if a["id"].startswith("pips.")]
    state = yaml.safe_load(magnate_game.read_text(encoding="utf-8"))["state"]
    kept = state["entities"]["game"]["card"]
    assert kept == {"administration 5": {"pips": 3}, "aggression 2": {"pips": 3}}


def test_a_card_told_before_is_not_asked_and_back_drops_the_line(magnate_game, capsys):
    table = Table.open(magnate_game)
    _play(table, "administration 5, aggression 2", administration_5=3, aggression_2=3)
    question = _to_cards(table).next_question()
    # `back` at a new card's pips takes the line back; typed with it, nothing more is asked
    prompts: list[str] = []
    value = _typed(prompts, "construction 1", "back", "aggression 2, construction 1, pips=2",
                   "")(question, 4)
    assert prompts == ["   entry 1 > ",
                       "   How many action pips are printed on construction 1? (1..4) > ",
                       "   entry 1 > ", "   entry 3 > "]
    assert "aggression 2: 3 pips (as told earlier this game)" in capsys.readouterr().out
    assert value == [{"suit": "aggression", "number": 2},
                     {"suit": "construction", "number": 1, "pips": 2}]


@pytest.mark.parametrize("answers", [
    {"cards": ["administration 5", "aggression 2"], "pips.administration 5": 3,
     "pips.aggression 2": 3},
    {"cards": [{"card": "administration 5", "pips": 3}, "aggression 2"],
     "pips.aggression 2": 3},
    {"cards": "administration 5, pips=3, aggression 2, pips=3"},
], ids=["pips.CARD", "in the entry", "typed with it"])
def test_an_answers_file_tells_a_new_card_s_pips_with_its_pick(magnate_game, answers):
    table = Table.open(magnate_game)
    turn = _to_cards(table)
    source = FromFile(answers, "answers.yaml")
    turn.answer("cards", source(turn.next_question(), 4))
    assert source.unused() == []
    assert {"suit": "aggression", "number": 2, "pips": 3} in turn.inquiry.data["cards"]
    assert not turn.next_question().id.startswith("pips.")


def test_an_answers_file_without_a_new_card_s_pips_still_names_what_to_add(magnate_game):
    turn = _to_cards(Table.open(magnate_game))
    turn.answer("cards", FromFile({"cards": ["construction 1"]}, "a.yaml")(
        turn.next_question(), 4))
    question = turn.next_question()  # asked on its own, as before
    with pytest.raises(Unanswered, match=r"add `pips\.construction 1:`"):
        FromFile({}, "a.yaml")(question, 5)


def test_whybot_fix_corrects_pips_told_with_the_pick(magnate_game):
    table = Table.open(magnate_game)
    turn = _to_cards(table)
    turn.answer("cards", "administration 5, pips=3, aggression 2, pips=3")
    _finish(table, turn)
    plan = plan_fix(table, 2, {"pips.aggression 2": 2})
    apply_fix(table, plan, keep=True)
    data = yaml.safe_load(magnate_game.read_text(encoding="utf-8"))
    assert data["state"]["entities"]["game"]["card"]["aggression 2"] == {"pips": 2}
    picked = next(a["value"] for a in data["log"][1]["asked"] if a["id"] == "cards")
    assert {"suit": "aggression", "number": 2, "pips": 2} in picked


def test_a_play_yaml_summing_an_unkept_fact_over_the_other_bots_is_refused(tmp_path):
    shutil.copytree(KNOWLEDGE / "arcs", tmp_path / "arcs")
    play = tmp_path / "arcs" / "play.yaml"
    play.write_text(play.read_text(encoding="utf-8").replace(
        "other_bots: hand_counter", "other_bots: power"), encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"\(\$\.follows\.other_bots_cards\.other_bots\): "
                                            r"'power' is not a fact the game keeps for each bot"):
        load_playbook(load_pack(tmp_path, "arcs"))


def test_a_flow_step_telling_what_a_no_means_without_a_question_is_refused(tmp_path):
    shutil.copytree(KNOWLEDGE / "arcs", tmp_path / "arcs")
    play = tmp_path / "arcs" / "play.yaml"
    play.write_text(play.read_text(encoding="utf-8").replace(
        '- {to: turn, new_round: true, says: "a new round: the bots play on"}',
        '- {to: turn, says: "a new round: the bots play on", no_means: {first_regent: false}}'),
        encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"no_means\): what a no tells needs a question"):
        load_playbook(load_pack(tmp_path, "arcs"))
