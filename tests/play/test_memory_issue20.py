"""Issue 20, part 2: the game file remembers the game.

What the procedure changed is kept (never asked again); what the player said that holds until
the table changes is asked again with the last answer offered to keep (an answers file that
leaves it out keeps it); what a setup gives is kept where the pack's play.yaml says."""

from __future__ import annotations

import shutil

import yaml

from whybot.facts.play.table import Table

from .conftest import ARCS_GAME
from .helpers import EXAMPLES, chapter_begun, example, play


def _yellow_scarves(tmp_path, bots):
    shutil.copy(EXAMPLES.parent / "maps" / "yellow_scarves" / "example_map.yaml",
                tmp_path / "map.yaml")
    return Table.new(tmp_path / "game.yaml", "yellow_scarves",
                     {"bots": bots, "player_count": 1, "difficulty": "normal"}, seed=3,
                     include=[str(tmp_path / "map.yaml")])


def test_an_invasion_through_two_engagements_asks_the_board_once(tmp_path):
    table = _yellow_scarves(tmp_path, [{"name": "Red", "captured": 2}])
    assert table.game.state["entities"] == {"game": {"bot": {"Red": {"captured": 2}}}}
    board = example("yellow_scarves/turn_round1_invade.yaml")
    turn, asked = play(table, board, point="turn", dice="table")
    assert asked == ["provinces", "players", "round", "dice.0", "dice.1", "dice.2"]
    table.record(turn.decide())

    turn, asked = play(table, {"attackers_left": 5, "defenders_left": 2})
    assert asked == ["defenders_left", "attackers_left"]  # the board is the walk's
    result = turn.decide()
    assert result.trace.decision.result == "invasion"
    table.record(result)

    turn, asked = play(table, {"attackers_left": 4, "defenders_left": 0})
    assert asked == ["defenders_left", "attackers_left"]
    result = turn.decide()
    says = " ".join(result.trace.decision.say)
    assert "capture no. 3" in says  # the 2 captured at setup count (002 L154, L158)
    assert "place a bot General there" in says
    table.record(result)
    table = Table.open(table.game.path)
    assert table.game.state["entities"]["game"]["bot"]["Red"]["captured"] == 3

    # the next turn offers the board as the invasion left it, all at once: still so?
    turn = table.turn(point="turn")
    question = turn.next_question()
    assert question is not None and question.id == "unchanged" and question.default is True
    assert "provinces: Ashford, Birchwood" in question.text
    birchwood = next(p for p in question.known["provinces"]["value"]
                     if p["name"] == "Birchwood")
    assert birchwood["owner"] == "Red" and birchwood["capture_number"] == 3
    assert "acted" not in birchwood  # it held for that turn only (remember: except:)
    turn.answer("unchanged", False)  # something changed: each is asked, the last offered
    question = turn.next_question()
    assert question is not None and question.id == "provinces" and question.last
    assert question.help.startswith("Last time: 9 entries. Anything changed?")


def test_without_a_captured_count_the_third_capture_is_the_first(tmp_path):
    table = _yellow_scarves(tmp_path, ["Red"])
    board = example("yellow_scarves/turn_round1_invade.yaml")
    table.record(play(table, board, point="turn", dice="table")[0].decide())
    result = play(table, {"attackers_left": 4, "defenders_left": 0})[0].decide()
    assert "capture no. 1" in " ".join(result.trace.decision.say)


def test_sparta_keeps_the_objective_it_chose(tmp_path):
    table = Table.new(tmp_path / "game.yaml", "sparta_athens", {"bots": ["athens"]}, seed=1)
    navy = example("sparta_athens/objective_athens_navy.yaml")
    turn, asked = play(table, navy, point="objective", dice="table")
    assert "objective_region" in asked
    table.record(turn.decide())
    assert table.game.state["game"]["objective_region"] == "Chalkidike"
    turn, asked = play(table, navy, point="objective", dice="table")
    # the objective and the game's dice rule are the game's now: the kept objective decides
    assert asked == ["regions"]
    assert turn.decide().trace.decision.result == "keep_objective"


def _arcs(run, tmp_path):
    game = tmp_path / "game.yaml"
    assert run("new", "arcs", game, "--seed", "11", "--answers",
               ARCS_GAME / "setup.yaml").exit_code == 0
    for answers, extra in (("1-chapter.yaml", ["--at", "chapter"]),
                           ("2-turn.yaml", ["--at", "turn"])):
        result = run("play", game, "--answers", ARCS_GAME / answers, *extra)
        assert result.exit_code == 0, result.output
    return game


def test_arcs_guild_cards_and_resources_are_offered_as_last_time(run, tmp_path):
    game = _arcs(run, tmp_path)
    said = yaml.safe_load(game.read_text(encoding="utf-8"))["state"]["said"]["red"]
    assert said["guild_cards"] == [] and said["fuel"] == 1 and said["psionic"] == 1
    # the third turn's answers file leaves the resources and Guild cards out: kept
    answers = yaml.safe_load((ARCS_GAME / "3-turn.yaml").read_text(encoding="utf-8"))
    for name in ("material", "fuel", "relic", "psionic", "guild_cards"):
        answers.pop(name, None)
    answers["weapon"] = 1  # given again: it replaces the last value
    partial = tmp_path / "3-turn.yaml"
    partial.write_text(yaml.safe_dump(answers), encoding="utf-8")
    result = run("play", game, "--at", "turn", "--answers", partial)  # past the round end
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    asked = {a["id"]: a["value"] for a in data["log"][2]["asked"]}["bot_resources"]
    assert (asked["fuel"], asked["psionic"], asked["weapon"]) == (1, 1, 1)
    assert data["state"]["said"]["red"]["weapon"] == 1
    # the resumed card reads the Guild cards again: offered as last time, kept by a file
    resume = yaml.safe_load((ARCS_GAME / "4-resume.yaml").read_text(encoding="utf-8"))
    turn = Table.open(game).turn(moves=True)  # the file lists the moves
    while (question := turn.next_question()) is not None and question.id != "guild_cards":
        turn.answer(question.id, {f.id: resume[f.id] for f in question.fields}
                    if question.kind == "group"  # a page of facts not said before
                    else resume.get(question.id, False))  # unchanged: no, ask each
    assert question is not None and question.last and question.default == []
    resume.pop("guild_cards")
    partial.write_text(yaml.safe_dump(resume), encoding="utf-8")
    assert run("play", game, "--at", "turn", "--answers", partial).exit_code == 0


def test_a_kept_value_given_again_in_an_answers_file_replaces_it(run, tmp_path):
    game = chapter_begun(run, tmp_path / "game.yaml", ARCS_GAME / "setup.yaml",
                         ARCS_GAME / "1-chapter.yaml")
    answers = tmp_path / "2-turn.yaml"
    answers.write_text((ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8")
                       + "hand_counter: 2\n", encoding="utf-8")
    result = run("play", game, "--answers", answers, "--at", "turn")
    assert result.exit_code == 0, result.output
    assert "red: hand counter 6 → 1" in result.stdout  # 2, then the card played
    assert "not asked" not in result.stderr
    answers.write_text("hand_counter: lots\n", encoding="utf-8")
    bad = run("play", game, "--answers", answers)
    assert bad.exit_code == 2 and "'lots' is not a number" in bad.stderr
    assert "Traceback" not in bad.output
