"""Issue 20 at a real terminal: `whybot fix GAME --turn N` lists the turn's answers in the
player's words, asks the corrected one as it was asked, shows the later turn that now decides
differently and asks whether to keep it."""

from __future__ import annotations

import sys

import pexpect
import yaml
from typer.testing import CliRunner

from whybot.cli.app import app

from .conftest import ARCS_GAME, HERE


def test_fix_at_a_terminal(tmp_path):
    game = tmp_path / "game.yaml"
    runner = CliRunner()
    for args in (["new", "arcs", game, "--seed", "11", "--answers", ARCS_GAME / "setup.yaml"],
                 ["play", game, "--at", "chapter", "--answers", ARCS_GAME / "1-chapter.yaml"],
                 ["play", game, "--at", "turn", "--answers", ARCS_GAME / "2-turn.yaml"],
                 ["play", game, "--at", "turn", "--answers",
                  HERE / "issue20" / "kept-ambition-turn.yaml"]):
        assert runner.invoke(app, [str(a) for a in args]).exit_code == 0
    child = pexpect.spawn(sys.executable, ["-m", "whybot.cli", "fix", "game.yaml", "--turn",
                                           "2"], cwd=str(tmp_path), encoding="utf-8",
                          timeout=60, dimensions=(40, 120),
                          env={"PATH": "/usr/bin:/bin", "TERM": "dumb", "COLUMNS": "120"})
    child.expect_exact("6. Which ambitions are in play, which are declared, and what are the")
    child.expect_exact("name=empath, declared=yes, bot=1, best rival=1")
    child.expect_exact("which answer to correct? (1..10) > ")
    child.sendline("6")
    child.expect_exact("entry 1 > ")
    child.sendline("empath, declared=no, bot=1, best rival=1")
    child.expect_exact("entry 2 > ")
    child.sendline("")
    child.expect_exact("turn 3 (red) now decides differently")
    child.expect_exact("(keep|drop) > ")
    child.sendline("keep")
    child.expect_exact("turn 2 corrected and saved to game.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["state"]["entities"]["game"]["ambition"]["empath"]["declared"] is False
    assert len(data["log"]) == 3
