"""The first turn's table in fewer questions (issue 20, stop 28): facts a player reads off one
board asked as one question (play.yaml `together:`), counts that follow from what the game was
told given with their reason (`follows:`), and neither ever a silent default."""

from __future__ import annotations

import re

import pytest
import yaml

from whybot.facts.play.asking import group_question
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .conftest import ARCS_GAME
from .helpers import chapter_begun, given

RESOURCES = ("material", "fuel", "weapon", "relic", "psionic")
VALUES = yaml.safe_load((ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8"))


def _resources(tmp_path, run, guild_cards=None):
    """A Magnate turn up to its first question about the bot's resources (the Guild cards
    said at the chapter's start: `guild_cards`, still so): on the bot's first turn, the page
    of every fact the game remembers that the rules of a bot turn can read."""
    chapter = tmp_path / "chapter.yaml"
    chapter.write_text(yaml.safe_dump({"guild_cards": guild_cards or []}), encoding="utf-8")
    game = chapter_begun(run, tmp_path / "game.yaml", ARCS_GAME / "setup.yaml", chapter)
    turn = Table.open(game).turn(moves=True)
    while (question := turn.next_question()) is not None and \
            "material" not in [f.id for f in question.fields]:
        turn.answer(question.id, True if question.what == "review" else VALUES[question.id])
    return turn, question


def test_the_resources_are_one_question_in_several_forms(tmp_path, run):
    turn, page = _resources(tmp_path, run)
    # on the bot's first turn, side by side on the page of its standing
    ids = [f.id for f in page.fields]
    at = ids.index("material")
    assert page.kind == "group" and page.id == "standing"
    assert ids[at:at + 5] == list(RESOURCES)
    # asked as their own question (a later turn, when one of them changed): several forms
    question = group_question(turn.table.playbook.together["bot_resources"],
                              page.fields[at:at + 5])
    assert question.parse("material 2, fuel 1, weapon 0, relic 0, psionic 3") == \
        dict(zip(RESOURCES, (2, 1, 0, 0, 3), strict=True))
    assert question.parse("2 1 0 0 3") == question.parse("2, 1, 0, 0, 3") == \
        question.parse({"material": 2, "fuel": 1, "weapon": 0, "relic": 0, "psionic": 3})
    for typed, problem in (("material 2, fuel 1", "give weapon, relic, psionic too"),
                           ("2 1 0", "3 value(s) given for 5"),
                           ("material 2 fuel 1", "by commas (material 1, …)"),
                           ("materials 2, fuel 1", "'materials' is not asked here"),
                           ("2 1 0 0 lots", "psionic: 'lots' is not a number"),
                           ("material 21, fuel 0, weapon 0, relic 0, psionic 0",
                            "material: 21 is outside 0..20")):
        with pytest.raises(AnswerError, match=re.escape(problem)):
            question.parse(typed)
    said = dict(zip(RESOURCES, (0, 1, 0, 0, 1), strict=True))
    turn.answer("standing", {**{f.id: VALUES[f.id] for f in page.fields}, **said})
    assert {name: turn.inquiry.data[name] for name in RESOURCES} == said


def test_a_later_turn_offers_last_time_s_values_and_takes_only_what_changed(tmp_path, run):
    game = chapter_begun(run, tmp_path / "game.yaml", ARCS_GAME / "setup.yaml",
                         ARCS_GAME / "1-chapter.yaml")
    assert run("play", game, "--answers", ARCS_GAME / "2-turn.yaml", "--at",
               "turn").exit_code == 0
    turn = Table.open(game).turn(moves=True, point="turn")
    values = yaml.safe_load((ARCS_GAME / "3-turn.yaml").read_text())
    while (question := turn.next_question()) is not None and question.id != "bot_resources":
        turn.answer(question.id, False if question.what == "review" else
                    {f.id: values[f.id] for f in question.fields} if question.kind == "group"
                    else values[question.id])
    assert question is not None and question.last
    assert question.default == {"material": 0, "fuel": 1, "weapon": 0, "relic": 0,
                                "psionic": 1}
    assert "Last time: material 0, fuel 1" in question.help
    assert question.parse("fuel 3") == {**question.default, "fuel": 3}


def test_the_guild_counts_follow_from_the_guild_cards_with_their_reason(tmp_path, run):
    cards = [{"name": "Gun Smugglers", "suit": "weapon"},
             {"name": "Admin Union", "suit": "material", "union": True},
             {"name": "Sprinter Lore", "lore": True, "suit": "none"}]
    turn, question = _resources(tmp_path, run, cards)
    # the Guild cards said at the chapter's start were offered before the counts need them
    review = next(q for q, _ in turn.answers if q.what == "review")
    assert "guild_cards" in review.known
    assert not {"weapon_guild_cards", "union_cards"} & {f.id for f in question.fields}
    while question is not None:  # on to the Prelude, which reads the counts
        turn.answer(question.id, given(question, VALUES))
        question = turn.next_question()
    followed = {item.id: item for item in turn.unasked}
    assert (followed["weapon_guild_cards"].value, followed["union_cards"].value) == (1, 1)
    assert followed["union_cards"].why.startswith("counted from the bot's Guild cards")
    assert "SUPERCAT v0.9 § Prelude" in followed["weapon_guild_cards"].why
    assert turn.inquiry.data["weapon_guild_cards"] == 1
