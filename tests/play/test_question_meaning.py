"""`?` on a question says what it means in the seed's words, never the question's own text.

Every question a pack's play.yaml words (`questions:`), and every group it asks together
(`together:`), is built as `play` builds it when a decision point needs the fact before any
rule reads it (the worst case: no rule to quote). Its `?` must then be neither its text nor
its help, and must cite the seed (a section, `§`). The stop that found it: `?` on "What is the
bot's power?" repeated the question's own help.
"""

from __future__ import annotations

import pytest

from whybot.engine import NAME, Open
from whybot.facts.packs import installed_engine
from whybot.facts.play.asking import group_question, question_for
from whybot.facts.play.consult import read_for
from whybot.facts.play.game import Game
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.table import Table

PACKS = [name for name in ("arcs", "yellow_scarves", "sparta_athens")
         if load_playbook(installed_engine(name).pack).questions]


def _table(pack: str) -> Table:
    return Table(Game(pack=pack, name="meaning", seed=1, bots=["red"]))


def _open(table: Table, name: str) -> Open:
    """How the walk hands `name` over when nothing read it yet (no rule)."""
    facts = table.engine.pack.facts
    kinds = {spec.key: kind for kind, spec in facts.entities.items() if spec.key}
    if name in kinds:
        return Open("list", name, [], facts.entities[kinds[name]].says, "", "", kinds[name])
    if name in facts.judgments:
        return Open("answer", name, None, facts.judgments[name].says, "", "")
    return Open("fact", name, None, facts.board[name].says, "", "")


def _cases() -> list[tuple[str, str]]:
    return [(pack, name) for pack in PACKS
            for name in load_playbook(installed_engine(pack).pack).questions]


@pytest.mark.parametrize(("pack", "name"), _cases())
def test_every_question_s_help_mark_gives_a_meaning_not_its_own_words(pack, name):
    table = _table(pack)
    question = question_for(table, "red", {}, _open(table, name), None)
    why = question.why()
    assert why and why != question.text and why != question.help, (name, why)
    assert "§" in why or question.what == "list", (name, why)


def test_the_bot_s_power_is_explained_by_the_rule_that_compares_it():
    """The normal difficulty needs both powers before any rule reads them: `?` quotes the
    Difficulty modifiers, where they are compared."""
    table = _table("arcs")
    question = question_for(table, "red", {}, _open(table, "power"), None)
    assert "does not have more power than the player" in question.why()
    assert "§ Difficulty modifiers" in question.why()


@pytest.mark.parametrize("pack", PACKS)
def test_every_group_asked_together_is_explained_too(pack):
    table = _table(pack)
    for group in table.playbook.together.values():
        fields = [question_for(table, "red", {}, _open(table, f), None) for f in group.facts]
        question = group_question(group, fields,
                                  read_for(table.engine, [(NAME, f) for f in group.facts]))
        assert "§" in question.why() and question.why() != question.help
