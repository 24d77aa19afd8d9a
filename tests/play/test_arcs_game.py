"""A scripted Arcs game through `whybot new/play/undo/log/why --turn`, with answers files.

A Magnate bot: the chapter begins; a Fate turn with a three-action card (two actions on the
Fate page, one on the suit page); a card stopped by the Prelude's Battle, carried to the bot's
next play and resumed there with the Fate's half; a turn following a lead (seize counter);
an undo. Each decision asks exactly the facts its walk reached (the lists below), writes back
what the procedure changed, and a replay of the log decides every turn the same.
"""

from __future__ import annotations

import json

import yaml

from whybot.facts.play.table import Table

from .conftest import ARCS_GAME

ASKED = {
    # the Guild cards said at the chapter's start offered for review before the counts that
    # follow from them (the file gives them anew: no, so the counts are asked); every fact the
    # game remembers that the rules of a bot turn can read (the bonus cards, the resources,
    # those counts, the starports, the ships in supply, …) asked as one page
    2: ["unchanged", "standing", "initiative", "cards", "seize_counter", "ambitions",
        "options", "golems", "guild_cards", "trust_contends_declared"],
    4: ["options", "unchanged", "flagship", "starports", "rival_controlled", "unbuilt_cities",
        "claims", "guild_cards", "ambition_markers_available", "ships_unassigned"],
    5: ["unchanged", "bonus_cards", "initiative", "cards", "led_card",
        "initiative_seized_this_round", "event_played_this_round", "ambitions",
        "ambition_markers_available",
        "options", "bot_resources", "weapon_guild_cards", "union_cards", "golems"],
}


def _game(run, tmp_path, chapter: bool = True):
    """A new game (a Magnate bot); with `chapter`, the chapter begun (hand counter 6)."""
    game = tmp_path / "game.yaml"
    result = run("new", "arcs", game, "--seed", "11", "--answers", ARCS_GAME / "setup.yaml")
    assert result.exit_code == 0, result.output
    if chapter:
        _play(run, game, "1-chapter.yaml", "--at", "chapter")
    return game


def _play(run, game, answers, *extra):
    """A bot turn (`--at turn` unless told: the script plays no round end between them)."""
    result = run("play", game, "--answers", ARCS_GAME / answers, *(extra or ("--at", "turn")))
    assert result.exit_code == 0, result.output
    return result


def _data(game):
    return yaml.safe_load(game.read_text(encoding="utf-8"))


def test_a_three_turn_game_asks_what_is_reached_and_remembers_the_rest(run, tmp_path):
    game = _game(run, tmp_path, chapter=False)
    assert _data(game)["state"] == {"game": {"act": 1, "difficulty": "none", "bots": 1},
                                    "bots": {"red": {"fate": "magnate"}}, "entities": {}}
    _play(run, game, "1-chapter.yaml", "--at", "chapter")
    assert _data(game)["state"]["bots"]["red"] == {"fate": "magnate", "hand_counter": 6}

    fate_turn = _play(run, game, "2-turn.yaml")
    entry = _data(game)["log"][1]
    assert [a["id"] for a in entry["asked"]] == ASKED[2]
    assert [(a["action"], a["rule"]) for a in entry["decision"]["actions"]] == [
        ("tax", "magnate.act1.tax-resource"), ("tax", "magnate.act1.tax-resource"),
        ("tax", "magnate.act1.merchant-league.tax")]
    assert entry["changes"][0] == {"path": ["bots", "red", "hand_counter"], "before": 6,
                                   "after": 5}
    assert "red: hand counter 6 → 5" in fate_turn.stdout
    # the answers file gave these too: the procedure never read them
    assert "not asked" not in fate_turn.stderr

    battle = _play(run, game, "3-turn.yaml")
    data = _data(game)
    assert data["log"][2]["decision"]["result"] == "battle"
    assert data["pending"]["red"] == {
        "resume": "fate", "resume_actions": 3, "resume_fate_actions": 2, "resume_mode": "lead",
        "initiative": True, "lead_suit": "none", "lead_number": 0,
        "cards": [{"suit": "aggression", "number": 1, "pips": 3}]}
    assert "the card stopped for a battle goes on at this bot's next play" in battle.stdout
    # the table carries the card on itself: no snapshot fields to write
    assert "this card goes on with its 3 action(s) left" in battle.stdout
    assert "resume_actions" not in battle.stdout and "in a snapshot" not in battle.stdout

    _play(run, game, "4-resume.yaml")
    data = _data(game)
    resumed = data["log"][3]
    assert [a["id"] for a in resumed["asked"]] == ASKED[4]  # no cards, no lead, no counters
    assert "bot_turn.draw" not in resumed["decision"]["fired"]
    assert resumed["decision"]["fired"][:2] == ["start.turn", "bot_turn.resume-card"]
    assert data["pending"] == {}

    _play(run, game, "5-turn.yaml")
    data = _data(game)
    assert [a["id"] for a in data["log"][4]["asked"]] == ASKED[5]
    assert data["state"]["bots"]["red"] == {"fate": "magnate", "hand_counter": 3,
                                            "seize_counter": 1}
    assert data["log"][0]["asked"] == [{"id": "guild_cards", "value": []}]
    assert Table.open(game).replay() == []

    log = run("log", game)
    assert log.exit_code == 0
    lines = log.stdout.splitlines()
    assert len(lines) == 5
    assert lines[2].split()[:3] == ["3", "red", "turn"] and "[battle]" in lines[2]

    why = run("why", game, "--turn", "2", "--brief")
    assert why.exit_code == 0, why.output
    # the rule that chose the card, in the seed's words, not by its id
    assert "chosen by: Can bot Tax for any resource?" in " ".join(why.stdout.split())
    assert "magnate.act1.tax-resource" not in why.stdout


def test_undo_takes_a_turn_back_exactly_and_the_turn_replays_the_same(run, tmp_path):
    game = _game(run, tmp_path)
    for answers in ("2-turn.yaml", "3-turn.yaml"):
        _play(run, game, answers)
    before_resume = _data(game)
    _play(run, game, "4-resume.yaml")
    first = _data(game)["log"][-1]

    undone = run("undo", game)
    assert undone.exit_code == 0, undone.output
    assert "took back turn 4 (red)" in undone.stdout
    after = _data(game)
    assert after["state"] == before_resume["state"]
    assert after["pending"] == before_resume["pending"]  # the stopped card waits again
    assert after["log"] == before_resume["log"]

    _play(run, game, "4-resume.yaml")
    assert _data(game)["log"][-1] == first

    assert run("undo", game, "--turns", "4").exit_code == 0
    assert _data(game)["log"] == [] and _data(game)["state"]["bots"]["red"] == {
        "fate": "magnate"}
    empty = run("undo", game)
    assert empty.exit_code == 2 and "nothing to undo" in empty.stderr


def test_an_answers_file_that_misses_a_reached_fact_is_refused_naming_it(run, tmp_path):
    game = _game(run, tmp_path)
    partial = tmp_path / "partial.yaml"  # the bot's standing and the initiative, no cards
    turn = yaml.safe_load((ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8"))
    partial.write_text(yaml.safe_dump({"flow.initiative": "red", **{
        k: v for k, v in turn.items() if k != "cards"}}), encoding="utf-8")
    result = run("play", game, "--answers", partial)
    assert result.exit_code == 2
    assert "no answer to 'cards'" in result.stderr
    assert len(_data(game)["log"]) == 1  # nothing saved
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("flow.initiative: red\nbonus_cards: lots\n", encoding="utf-8")
    result = run("play", game, "--answers", wrong)
    assert result.exit_code == 2
    assert "($.bonus_cards): 'lots' is not a number" in result.stderr


def test_answers_from_standard_input_and_json(run, tmp_path):
    game = _game(run, tmp_path)
    answers = (ARCS_GAME / "2-turn.yaml").read_text(encoding="utf-8")
    result = run("play", game, "--json", "--at", "turn", stdin=answers)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn"] == 2 and [a["id"] for a in data["asked"]] == ASKED[2]
    assert [a["action"] for a in data["decision"]["actions"]] == ["tax", "tax", "tax"]
