"""Issue 20, the player's words at the terminal: a list of several fields takes an entry by its
name (`tycoon`), its guidance names only what a player needs to type, wrapped to the terminal;
the facts of a group read together (help and the "still so?" review); and a wrong answer typed
at the terminal behind an answers file is asked again, as on the terminal alone."""

from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from whybot.cli import played
from whybot.cli.prompt import Terminal
from whybot.facts.packs import engine_for
from whybot.facts.play.asking import group_question
from whybot.facts.play.consult import review
from whybot.facts.play.playbook import load_playbook
from whybot.facts.play.question import Question, field_question, list_question

from .conftest import HERE

GAME = HERE / "steward_game"
PLAN = yaml.safe_load((GAME / "plan.yaml").read_text(encoding="utf-8"))


def _list(kind: str) -> Question:
    pack = engine_for("arcs").pack
    book = load_playbook(pack)
    entity = pack.facts.entities[kind]
    return list_question(entity.key or kind, entity, pack, book.hidden.get(kind, []),
                         book.wording(entity.key or kind))


def _typed(question: Question, lines: list[str], capsys) -> tuple[object, str]:
    typed = iter(lines)
    value = Terminal(lambda prompt: next(typed))(question, 1)
    return value, capsys.readouterr().out


def test_a_bare_name_is_an_entry_of_a_list_of_several_fields(capsys):
    ambitions = _list("ambition")
    value, _ = _typed(ambitions, ["tycoon", "warlord, declared=yes, bot=2", ""], capsys)
    assert value == [{"name": "tycoon"}, {"name": "warlord", "declared": True, "bot": 2}]
    # as an answers file or the page gives them: plain names, by the naming field
    assert ambitions.parse("tycoon, keeper") == [{"name": "tycoon"}, {"name": "keeper"}]
    assert ambitions.parse(["tycoon"]) == [{"name": "tycoon"}]
    kept = replace(ambitions, known={"tycoon": {"declared": False}})
    _, out = _typed(kept, [""], capsys)
    assert "kept by the game for tycoon: declared=no" in out  # in words, as typed
    favors = _list("favor")  # a second required field still needs its value
    value, out = _typed(favors, ["red", "red, owner=blue", ""], capsys)
    assert "each entry needs its owner" in out
    assert value == [{"holder": "red", "owner": "blue"}]


def test_the_list_s_guidance_names_what_to_type_wrapped_to_the_terminal(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    _, out = _typed(_list("ambition"), ["?", ""], capsys)
    guidance, _, why = out.partition("why:")
    wrapped = [line for line in out.splitlines()[3:] if not line.startswith("   why:")]
    assert len(wrapped) >= 4 and all(len(line) < 80 for line in wrapped)
    guidance = " ".join(guidance.split()).partition("one entry per line")[2]
    assert "by its name* (tycoon|tyrant|warlord|keeper|empath)" in guidance
    assert "for example: tycoon, declared=yes" in guidance
    for field in ("best rival", "second outsider", "members"):  # not needed: not shown
        assert field not in guidance
        assert field in why  # ? lists every field, with what it means
    assert "best rival (0..100): the highest rival count" in " ".join(why.split())


def _resources_and_power() -> tuple[list[Question], list[Question]]:
    pack = engine_for("arcs").pack
    book = load_playbook(pack)
    facts = {name: field_question(pack.facts.board[name], pack, name, "fact",
                                  book.wording(name))
             for group in book.together.values() if not group.remembered
             for name in group.facts}
    return ([facts[n] for n in book.together["bot_resources"].facts],
            [facts[n] for n in book.together["power_track"].facts])


def test_a_group_s_help_names_only_the_facts_asked():
    book = load_playbook(engine_for("arcs").pack)
    _, (power, player, other) = _resources_and_power()
    two = group_question(book.together["power_track"], [power, player])
    assert "player power: the player's" in two.help
    assert "other bot power" not in two.help
    three = group_question(book.together["power_track"], [power, player, other])
    assert "other bot power: the most any other bot has" in three.help


def test_the_review_shows_a_group_s_facts_together():
    book = load_playbook(engine_for("arcs").pack)
    said = {"guild_cards": [], "material": 1, "fuel": 0, "weapon": 0, "relic": 2,
            "psionic": 0, "power": 2, "imperial_council": "in_session", "player_power": 3}
    text = review(said, book.together.values()).text
    assert text == ("Since the last turn: guild cards: none; bot resources: material 1, fuel 0, "
                    "weapon 0, relic 2, psionic 0; power track: power 2, player power 3; "
                    "imperial council: in session. Is all of this still so?")


@pytest.fixture()
def red_has_led(run, tmp_path):
    """The scripted game up to red's first card (administration 4 led; aggression 2 told to
    print 3 pips)."""
    game = tmp_path / "game.yaml"
    assert run("new", "arcs", game, "--seed", str(PLAN["game"]["seed"]), "--answers",
               GAME / PLAN["game"]["setup"]).exit_code == 0
    for step in PLAN["steps"][:7]:
        result = run("play", game, "--answers", GAME / step["answers"])
        assert result.exit_code == 0, result.output
    return game


def test_a_wrong_answer_typed_behind_an_answers_file_is_asked_again(run, red_has_led,
                                                                    tmp_path, monkeypatch):
    answers = yaml.safe_load((GAME / "4-blue-surpasses.yaml").read_text(encoding="utf-8"))
    del answers["cards"]  # typed at the terminal instead
    file = tmp_path / "blue.yaml"
    file.write_text(yaml.safe_dump(answers), encoding="utf-8")
    monkeypatch.setattr(played, "interactive", lambda: True)
    # (each card new to the game is asked its pips on the next line: 2, then 4)
    typed = "aggression 2, pips=1\n\nadministration 6, construction 2\n2\n4\n\n"
    result = run("play", red_has_led, "--answers", file, stdin=typed)
    assert result.exit_code == 0, result.output
    assert "aggression 2 shows 3 pips in this game (told on turn 7)" in result.output
    assert "card: administration · 6 · surpass" in result.output
    log = yaml.safe_load(red_has_led.read_text(encoding="utf-8"))["log"]
    cards = next(a["value"] for a in log[-1]["asked"] if a["id"] == "cards")
    assert [(c["suit"], c["number"], c["pips"]) for c in cards] == [("administration", 6, 2),
                                                                    ("construction", 2, 4)]


def test_a_wrong_answer_in_the_file_still_ends_the_run(run, red_has_led, tmp_path, monkeypatch):
    answers = yaml.safe_load((GAME / "4-blue-surpasses.yaml").read_text(encoding="utf-8"))
    answers["cards"] = [{"suit": "aggression", "number": 2, "pips": 1},
                        {"suit": "administration", "number": 6}]
    file = tmp_path / "blue.yaml"
    file.write_text(yaml.safe_dump(answers), encoding="utf-8")
    monkeypatch.setattr(played, "interactive", lambda: True)
    result = run("play", red_has_led, "--answers", file, stdin="")
    assert result.exit_code == 2
    assert "aggression 2 shows 3 pips in this game (told on turn 7)" in result.stderr
