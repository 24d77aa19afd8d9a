"""The seed's questions the table answers without asking (facts/play/unasked.py and
facts/play/told.py): an answer an action cannot change is carried past it, one a condition on
the known table settles is answered no, and both are declared in play.yaml, checked when it
loads."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import TOY_PACKS
from whybot.engine import Action, Decision, Open, Reading, RuleFileError, Situation, load_pack
from whybot.facts import packs as registry
from whybot.facts.packs import installed_engine
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.unasked import carried, given_by_table, settled

ARCS = load_playbook(installed_engine("arcs").pack)


def _open(name: str, layer: int = 0, again: bool = False, value: Any = None) -> Open:
    return Open("answer", name, value, "", "", "", layer=layer, again=again)


def _after(*actions: str) -> Any:
    """A trace as far as carrying reads it: the actions taken, in order."""
    return SimpleNamespace(decision=Decision(actions=[Action(a, {}, "", "", "", "")
                                                      for a in actions]))


def _table(ambitions: list[dict[str, Any]] | None, declared_later: bool = False,
           ) -> tuple[Situation, Reading]:
    entities = {"ambition": ambitions or []}
    situation = Situation("t", {"ambition_markers_available": True}, entities,
                          unlisted=set() if ambitions is not None else {"ambition"})
    left = [{**a, "declared": True} for a in ambitions or []] if declared_later else None
    return situation, Reading(board=dict(situation.board),
                              entities={"ambition": left} if left else dict(entities))


TYCOON = {"name": "tycoon", "declared": False, "bot": 1, "best_rival": 0, "second_rival": 0}


def test_an_answer_the_action_cannot_change_is_carried_with_its_reason():
    item = _open("can.tax.captives", layer=2, again=True, value=False)
    answer = carried(ARCS.unchanged, item, _after("tax", "influence"))
    assert answer is not None and (answer.id, answer.layer, answer.value) == \
        ("can.tax.captives", 2, False)
    assert answer.why.startswith("still so after action 2 (influence): influence cannot "
                                 "change it (SUPERCAT v0.9 § How to follow the procedures")


@pytest.mark.parametrize(("item", "actions"), [
    (_open("can.tax.captives", layer=1, again=True), ("tax",)),  # a Tax can change it
    (_open("can.tax.captives", layer=1, again=True), ("secure",)),  # a Secure keeps nothing
    (_open("can.tax.captives", layer=1, again=False), ("influence",)),  # never answered
    (_open("can.tax.captives", layer=0, again=True), ("influence",)),  # before any action
])
def test_an_answer_the_action_may_change_is_asked_again(item, actions):
    assert carried(ARCS.unchanged, item, _after(*actions)) is None


def test_no_declared_ambition_settles_the_declared_questions_no():
    situation, reading = _table([TYCOON])
    answer = settled(ARCS.settled, _open("can.tax.contend_declared"), situation, reading)
    assert answer is not None and answer.value is False
    assert answer.why.startswith("no ambition is declared")
    assert settled(ARCS.settled, _open("can.tax.any"), situation, reading) is None


@pytest.mark.parametrize("table", [
    _table([{**TYCOON, "declared": True}]),  # declared: the question is the player's
    _table(None),  # the ambitions not known yet: nothing is settled
    _table([TYCOON], declared_later=True),  # the walk declares one: not settled either
])
def test_what_the_game_does_not_know_for_sure_is_asked(table):
    assert settled(ARCS.settled, _open("can.tax.contend_declared"), *table) is None


def test_the_table_answers_only_up_to_the_first_question_the_player_must():
    situation, reading = _table([TYCOON])
    opened = [_open("can.tax.contend_declared"), _open("can.tax.any"),
              _open("can.secure.contend_declared")]
    found = given_by_table(ARCS.unchanged, ARCS.settled, opened, _after(), situation, reading)
    assert [a.id for a in found] == ["can.tax.contend_declared"]


def _toy(tmp_path: Path, play: str) -> Path:
    shutil.copytree(TOY_PACKS / "toy", tmp_path / "toy")
    (tmp_path / "toy" / "play.yaml").write_text(f"pack: toy\n{play}", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("play", "expected"), [
    ("unchanged:\n  grow: {keeps: [fitz], cite: toy}\n",
     r"play.yaml:3 \(\$.unchanged.grow.keeps\[0\]\): unknown judgment 'fitz' "
     r"\(did you mean 'fits'\?\)"),
    ("unchanged:\n  grow: {keeps: [fits], cite: toy, kept: []}\n",
     r"\(\$.unchanged.grow.kept\): unknown key 'kept' \(did you mean 'keeps'\?\)"),
    ("unchanged:\n  grow: {keeps: [fits]}\n",
     r"\(\$.unchanged.grow\): give the seed's citation \(cite:\)"),
    ("settled:\n  - {when: 'coins < 1', answered_no: [por], says: broke, cite: toy}\n",
     r"\(\$.settled\[0\].answered_no\[0\]\): unknown judgment 'por' \(did you mean 'poor'\?\)"),
    ("settled:\n  - {when: 'coins <', answered_no: [poor], says: broke, cite: toy}\n",
     r"\(\$.settled\[0\].when\): not a condition"),
    ("settled:\n  - {when: 'coins < 1', answered_no: [poor], cite: toy}\n",
     r"\(\$.settled\[0\]\): a settled answer says why"),
    ("point: mood\nround:\n  tells: [{lead: coins, says: led, cite: toy}]\n",
     r"\(\$.round.tells\[0\].lead\): unknown fact 'lead'"),
    ("point: mood\nround:\n  tells: [{coins: coins}]\n",
     r"\(\$.round.tells\[0\]\): say why the later decisions know it"),
    ("round:\n  starts: [calm]\n", r"\(\$.round\): a round needs the decision point"),
])
def test_a_bad_declaration_is_one_error_naming_its_field(tmp_path, play, expected):
    with pytest.raises(RuleFileError, match=expected):
        load_playbook(load_pack(_toy(tmp_path, play), "toy"))


def test_an_action_the_pack_does_not_take_is_refused(tmp_path):
    shutil.copytree(TOY_PACKS / "toy", tmp_path / "toy")
    pack_file = tmp_path / "toy" / "pack.yaml"
    declared = "actions: [celebrate, place, shout, tax]\n"
    pack_file.write_text(pack_file.read_text(encoding="utf-8") + declared, encoding="utf-8")
    (tmp_path / "toy" / "play.yaml").write_text(
        "pack: toy\nunchanged:\n  taxx: {keeps: [fits], cite: toy}\n", encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"unknown action 'taxx' \(did you mean 'tax'\?\)"):
        load_playbook(load_pack(tmp_path, "toy"))


def test_play_refuses_a_bad_declaration_in_one_line_exit_2(run, tmp_path, monkeypatch):
    root = _toy(tmp_path, "settled:\n  - {when: 'coins < 1', answered_no: [por], says: x, "
                          "cite: toy}\n")
    monkeypatch.setattr(registry, "KNOWLEDGE", root)
    registry.pack_names.cache_clear()  # the packs found there, not the shipped ones
    try:
        result = run("new", "toy", tmp_path / "game.yaml")
    finally:
        registry.pack_names.cache_clear()
        registry.pack_for.cache_clear()
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "play.yaml:3" in lines[0] and "did you mean 'poor'" in lines[0]
    assert "Traceback" not in result.output
