"""Issue 20 item 1 on the page: after an action, what it may have changed is one screen — a box
to tick for each yes/no judgment and a number for each count, the last answers filled in, one
Next — and the turn decided through it saves what `whybot play` saves for the same answers.

The table: the scripted Steward game (tests/play/steward_game) up to blue's turn 10, where
blue's Build gives it a starport; after it, the page asks how many starports it has now and
whether it can still build one. The browser test drives Chromium at a phone's 390×844 (see
test_serve_browser.py: skipped without a Chromium).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml

from whybot.cli.web.forms import write_answers
from whybot.facts.play.table import Table

from .conftest import hidden, question_of

# the browser and the server: that module's fixtures, visible here for `getfixturevalue`
from .test_serve_browser import PHONE, WAIT_MS, artifacts, chromium, go, server  # noqa: F401

STEWARD = Path(__file__).resolve().parent.parent / "play" / "steward_game"
PLAN = yaml.safe_load((STEWARD / "plan.yaml").read_text(encoding="utf-8"))
TURN = 10  # blue leads and builds a starport: one action, then the page
# the flow's question as the round begins, as the game page carries its answer to the turn
FLOW = write_answers([{"id": "flow.initiative", "value": "blue"}])


def _before_turn(run_cli, folder: Path) -> Path:
    game = folder / "steward.yaml"
    args = ["new", "arcs", game, "--seed", PLAN["game"]["seed"], "--answers",
            STEWARD / PLAN["game"]["setup"]]
    assert run_cli(*map(str, args)).exit_code == 0
    for step in PLAN["steps"][:TURN - 1]:
        assert run_cli("play", str(game), "--answers", str(STEWARD / step["answers"])
                       ).exit_code == 0
    return game


def _typed(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def test_the_page_ticks_the_last_answers_and_decides_as_the_terminal(client, games, run_cli,
                                                                      tmp_path):
    game = _before_turn(run_cli, games)
    played = tmp_path / "played.yaml"  # the same turn through `whybot play --answers`
    shutil.copy(game, played)
    assert run_cli("play", str(played), "--answers",
                   str(STEWARD / PLAN["steps"][TURN - 1]["answers"])).exit_code == 0
    logged = Table.open(played).game.log[-1]
    asked = logged["asked"]
    at = [a["id"] for a in asked].index("after.1")
    start = client.get(f"/g/{game.stem}/turn", params={"point": "turn", "flow": FLOW})
    assert start.status_code == 200
    before = asked[at - 1]  # the answers up to the page, then the question before it (the
    page = client.post(f"/g/{game.stem}/turn", follow_redirects=False, data={  # Build's yes,
        **hidden(start.text), "answers": write_answers(asked[:at - 1]),  # with its target)
        "question": before["id"], "value": _typed(before["value"]), "action": "answer",
        "target": "".join(before.get("target", {}).values())})
    assert page.status_code == 200 and question_of(page.text) == "after.1", page.text[:800]
    assert "which of these are so now, and how many? (the last answers are given)" in page.text
    # a box for the yes/no one, ticked as last answered; the count filled in; one Next
    assert re.search(r'<input type="checkbox" name="value\.can\.build\.starport" value="yes" '
                     r'checked', page.text)
    assert re.search(r'<input type="number" name="value\.starports_now"[^>]*value="0"',
                     page.text, re.S)
    assert page.text.count(">Next</button>") == 1
    assert "Can bot build a starport?" in page.text
    # the box left unticked (no longer so), the count changed: the next question is asked
    said = asked[at]["said"]
    answer = {**hidden(page.text), "action": "answer", "value.starports_now": "1"}
    assert said == {"starports_now": 1, "can.build.starport": False}
    page = client.post(f"/g/{game.stem}/turn", data=answer, follow_redirects=False)
    for later in asked[at + 1:]:
        assert page.status_code == 200 and question_of(page.text) == later["id"]
        page = client.post(f"/g/{game.stem}/turn", follow_redirects=False, data={
            **hidden(page.text), "action": "answer", "value": _typed(later["value"])})
    assert page.status_code == 303, page.text[:800]
    entry = Table.open(game).game.log[-1]
    assert entry["snapshot"] == logged["snapshot"]
    assert entry["decision"] == logged["decision"]
    assert entry["asked"][at] == asked[at]  # logged as the terminal logs it


@pytest.mark.browser
def test_the_page_fits_a_phone_and_is_answered_with_a_tap_and_one_next(request, run_cli):
    """Chromium at 390×844: the page after blue's Build, reached with the answers before it
    (as the form carries them), shows a box and a count, scrolls no sideways; one box
    untapped and the count changed, Next asks the next question."""
    browser = request.getfixturevalue("chromium")
    base, games = request.getfixturevalue("server")
    game = _before_turn(run_cli, games)
    played = games.parent / "played.yaml"
    shutil.copy(game, played)
    assert run_cli("play", str(played), "--answers",
                   str(STEWARD / PLAN["steps"][TURN - 1]["answers"])).exit_code == 0
    asked = Table.open(played).game.log[-1]["asked"]
    at = [a["id"] for a in asked].index("after.1")
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"{base}/g/{game.stem}/turn?point=turn&flow={quote(FLOW)}")
    with page.expect_navigation():  # the answers before the page, as the form carries them
        page.evaluate("""([answers, question, value]) => {
            const form = document.querySelector("form.question");
            form.querySelector("[name=answers]").value = answers;
            form.querySelector("[name=question]").value = question;
            for (const [name, given] of [["value", value], ["action", "answer"]]) {
                const field = document.createElement("input");
                Object.assign(field, {type: "hidden", name: name, value: given});
                form.appendChild(field);
            }
            form.submit();
        }""", [write_answers(asked[:at - 1]), asked[at - 1]["id"],
               _typed(asked[at - 1]["value"])])
    assert page.locator('input[name="question"]').input_value() == "after.1"
    box = page.get_by_label("Can bot build a starport?")
    assert box.is_checked()
    assert page.locator('[name="value.starports_now"]').input_value() == "0"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts() / "phone-after-action.png"), full_page=True)
    box.uncheck()
    page.fill('[name="value.starports_now"]', "1")
    go(page, page.get_by_role("button", name="Next", exact=True))
    assert page.locator(".error").count() == 0
    assert page.locator('input[name="question"]').input_value() == asked[at + 1]["id"]
    context.close()
