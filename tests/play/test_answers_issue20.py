"""Issue 20: an answers file works like the terminal — it may `include:` a map as a snapshot
does, gives the faces of `--dice table` under `dice:`, may give every field `decide` accepts on
an entity (a derived one such as an option's `ability`), and `--at round_end` asks what it
needs."""

from __future__ import annotations

import shutil

import yaml

from whybot.cli.answers_file import FromFile
from whybot.facts.play.after import counted
from whybot.facts.play.consult import review
from whybot.facts.play.question import Question

from .conftest import ARCS_GAME
from .helpers import EXAMPLES

MAP = EXAMPLES.parent / "maps" / "yellow_scarves" / "example_map.yaml"


def _data(game):
    return yaml.safe_load(game.read_text(encoding="utf-8"))


def _yellow(run, tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text("bots: [Red]\nplayer_count: 1\ndifficulty: normal\n", encoding="utf-8")
    game = tmp_path / "game.yaml"
    assert run("new", "yellow_scarves", game, "--seed", "3", "--answers", setup).exit_code == 0
    return game


def _arcs_chapter_begun(run, tmp_path):
    """The Arcs game of tests/play/arcs_game, its chapter begun."""
    game = tmp_path / "game.yaml"
    assert run("new", "arcs", game, "--answers", ARCS_GAME / "setup.yaml").exit_code == 0
    assert run("play", game, "--at", "chapter", "--answers",
               ARCS_GAME / "1-chapter.yaml").exit_code == 0
    return game


def _turn_answers(tmp_path, **changes):
    """The hand-worked Yellow Scarves turn, its map included from a file beside it."""
    shutil.copy(MAP, tmp_path / "map.yaml")
    values = yaml.safe_load((EXAMPLES / "yellow_scarves" / "turn_round1_invade.yaml")
                            .read_text(encoding="utf-8"))
    values = {k: v for k, v in values.items() if k not in ("pack", "name", "notes", "expect")}
    values.update(include="map.yaml", **changes)
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(values, sort_keys=False), encoding="utf-8")
    return answers


def test_an_answers_file_includes_the_map_and_gives_the_dice(run, tmp_path):
    game = _yellow(run, tmp_path)
    result = run("play", game, "--at", "turn", "--dice", "table", "--answers",
                 _turn_answers(tmp_path))
    assert result.exit_code == 0, result.output
    entry = _data(game)["log"][0]
    asked = [a["id"] for a in entry["asked"]]
    assert "borders" in asked  # from the included map
    assert [a["value"] for a in entry["asked"] if a["id"].startswith("dice.")] == [[4], [2],
                                                                                    [2]]
    assert entry["snapshot"]["dice"] == [4, 2, 2]
    assert [a["rule"] for a in entry["decision"]["actions"]] == ["invade.attack"]
    assert "include" not in result.stderr  # merged, not left over


def test_dice_an_answers_file_cannot_give_are_refused_in_one_line(run, tmp_path):
    game = _yellow(run, tmp_path)
    result = run("play", game, "--at", "turn", "--dice", "table", "--answers",
                 _turn_answers(tmp_path, dice=[4, 9, 2]))
    assert result.exit_code == 2
    assert "($.dice): 9 is not a face of a d8" in result.stderr
    assert "Traceback" not in result.output and not _data(game)["log"]
    short = run("play", game, "--at", "turn", "--dice", "table", "--answers",
                _turn_answers(tmp_path, dice=[4]))
    assert short.exit_code == 2 and "no answer to 'dice.1'" in short.stderr


def test_an_include_outside_the_answers_folder_is_refused(run, tmp_path):
    game = _yellow(run, tmp_path)
    answers = tmp_path / "answers.yaml"
    answers.write_text("include: /etc/passwd\n", encoding="utf-8")
    result = run("play", game, "--answers", answers)
    assert result.exit_code == 2 and "is an absolute path" in result.stderr


def test_a_derived_entity_field_is_accepted_as_decide_accepts_it(run, tmp_path):
    game = _arcs_chapter_begun(run, tmp_path)
    values = yaml.safe_load((ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8"))
    values["options"][0]["ability"] = False  # derived by the rules; a snapshot may give it
    answers = tmp_path / "turn.yaml"
    answers.write_text(yaml.safe_dump(values), encoding="utf-8")
    result = run("play", game, "--answers", answers, "--at", "turn")
    assert result.exit_code == 0, result.output
    assert _data(game)["log"][1]["snapshot"]["options"][0]["ability"] is False

    values["options"][0]["abilty"] = True
    answers.write_text(yaml.safe_dump(values), encoding="utf-8")
    wrong = run("play", game, "--at", "turn", "--answers", answers)  # past the round end
    assert wrong.exit_code == 2 and "did you mean 'ability'" in wrong.stderr


def test_round_end_asks_the_player_cards_and_decides(run, tmp_path):
    game = _arcs_chapter_begun(run, tmp_path)
    answers = tmp_path / "round.yaml"
    answers.write_text("event_played_this_round: false\nplayer_cards: 2\n", encoding="utf-8")
    result = run("play", game, "--at", "round_end", "--answers", answers)
    assert result.exit_code == 0, result.output
    entry = _data(game)["log"][1]
    assert {a["id"] for a in entry["asked"]} == {"event_played_this_round", "player_cards"}
    assert entry["decision"]["result"] == "next_round"


def test_a_kept_count_the_file_gives_as_the_procedure_asks_it_leaves_the_review_still_so():
    """The review of what was said last time (a bot's starports kept from its last card): a
    judgment the file gives as the procedure asks it, its first value the one offered, is no
    change (that value is taken: the next ask, after an action, takes the second); another
    first value, or any fact given anew, is a change."""
    question = review({"starports_now": 0, "material": 1}, judged=["starports_now"])
    same = FromFile({"starports_now": [0, 1]}, "turn.yaml")
    assert same(question, 1) is True and same.unused() == []
    # the review said it: asked after an action, the count takes the list's second value
    again = Question(id="starports_now", what="answer", kind="number", text="?", layer=1)
    assert counted([again], [(question, True)], {})[0].times_said == 1
    assert FromFile({"starports_now": 0}, "turn.yaml")(question, 1) is True
    assert FromFile({"starports_now": [2, 3]}, "turn.yaml")(question, 1) is False
    assert FromFile({"material": 1}, "turn.yaml")(question, 1) is False
