"""`whybot new` and `whybot play` in a real terminal (a pseudo-terminal driven by pexpect):
the prompts render, `?` explains, a wrong answer is explained and asked again, `back` goes back,
Enter takes the seed's default, and a list is typed one entry per line."""

from __future__ import annotations

import sys

import pexpect
import yaml


def _spawn(*args: str, cwd) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "whybot.cli", *args], cwd=str(cwd),
                          encoding="utf-8", timeout=60, dimensions=(40, 120),
                          env={"PATH": "/usr/bin:/bin", "TERM": "dumb", "COLUMNS": "120"})
    return child


def test_new_and_play_at_a_terminal(tmp_path):
    child = _spawn("new", "arcs", "game.yaml", "--seed", "3", cwd=tmp_path)
    child.expect_exact("1. Which SUPERCAT bots play, by colour, in turn order?")
    child.expect_exact("red|blue|yellow|white: one or more per line")
    child.expect_exact("entry 1 > ")
    child.sendline("green")  # a one-field list takes plain values
    child.expect_exact("'green' is not one of the choices")
    child.sendline("red")
    child.expect_exact("entry 2 > ")
    child.sendline("")
    child.expect_exact("Which Act of the campaign is it?")
    child.expect_exact("(1..3) [1] > ")
    child.sendline("")  # the seed's default: Act I
    child.expect_exact("Difficulty modifiers: none, normal or harder?")
    child.expect_exact("[none] > ")
    child.sendline("?")
    child.expect_exact("why: difficulty modifiers (L139–173)")
    child.sendline("nor")  # a unique prefix
    child.expect_exact("Which Fate does this bot play?")
    child.sendline("none")
    child.expect_exact("new arcs game game.yaml (seed 3), bots: red")
    child.expect(pexpect.EOF)
    data = yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))
    assert data["state"] == {"game": {"act": 1, "difficulty": "normal", "bots": 1},
                             "bots": {"red": {"fate": "none"}}, "entities": {}}

    child = _spawn("play", "game.yaml", "--at", "chapter", cwd=tmp_path)
    child.expect_exact("1. Which Guild and lore cards does the bot hold?")
    child.expect_exact("entry 1 > ")
    child.sendline("?")
    child.expect_exact("why: the procedure reads it here")
    child.expect_exact("(SUPERCAT v0.9 §")  # the seed's title and section, no file name
    child.sendline("name=Mining Guild, action=build, exhausted=y")
    child.expect_exact("entry 2 > ")
    child.sendline("back")  # drops the entry just typed
    child.expect_exact("entry 1 > ")
    child.sendline("Mining Guild, action=build, exhausted=yes")  # by its name
    child.expect_exact("entry 2 > ")
    child.sendline("")
    child.expect_exact("Set the bot's hand counter to 6.")
    child.expect_exact("turn 1 (red) saved to game.yaml: 1 question asked")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))
    assert data["state"]["bots"]["red"]["hand_counter"] == 6
    assert data["log"][0]["asked"] == [{"id": "guild_cards", "value": [
        {"name": "Mining Guild", "action": "build", "exhausted": True}]}]
    assert data["state"]["entities"] == {"red": {"guild_card": {"Mining Guild": {
        "exhausted": False}}}}
