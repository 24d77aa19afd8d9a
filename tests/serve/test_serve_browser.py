"""`whybot serve` in a real browser: Debian's Chromium driven by Playwright plays a two-turn
Arcs game with one undo, at phone (360×740) and tablet (768×1024) sizes, partly with the
keyboard alone, and saves screenshots: a question page (SIZE-turn.png), the decision
(SIZE-decision.png) and the decision with its why open (SIZE-decision-why.png).

Playwright's own browser download is not used: the tests drive the system `chromium`
(`apt-get install chromium`). Without one they are skipped, saying how to install it; with
WHYBOT_REQUIRE_BROWSER=1 (set by `.ci/run`) a missing browser fails instead. The screenshots go
to build/test-artifacts/ (or $WHYBOT_ARTIFACTS).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from whybot.cli.cmd_serve import free_port
from whybot.cli.web.app import create_app
from whybot.facts.play.table import Table

from .arcs_game import AMBITIONS, ASKED_1, ASKED_2, CONSULT, TURN_1, TURN_2, as_text
from .conftest import scripted

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
INSTALL = ("no Chromium for the browser tests: install it with `sudo apt-get install -y "
           "chromium` (Debian/Ubuntu) and `pip install -e '.[test]'` for Playwright; "
           "Playwright's own browser download is not needed")
SIZES = {"phone": {"width": 360, "height": 740}, "tablet": {"width": 768, "height": 1024}}
PHONE = {"width": 390, "height": 844}
# (question, the how-many-th time it is answered): the target named with that yes
NAMED_AT_YES = {("can.tax.contend_declared", 2): "Yellow's city in Arrow 1"}
# Playwright waits 30 s for a page by default; a shared 2-core machine under a full test run
# has taken longer to load a pack on the first decision. A hang still fails, later.
WAIT_MS = 120_000


def _browser_path() -> str | None:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright  # noqa: F401
    except ImportError:
        return None
    return found


def artifacts() -> Path:
    folder = Path(os.environ.get("WHYBOT_ARTIFACTS", ROOT / "build" / "test-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    path = _browser_path()
    if path is None:
        if os.environ.get("WHYBOT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"WHYBOT_REQUIRE_BROWSER=1 but {INSTALL}")
        pytest.skip(INSTALL)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`whybot serve`'s app under uvicorn on a free loopback port, for one test."""
    import uvicorn

    games = tmp_path / "games"
    games.mkdir()
    port = free_port("127.0.0.1")
    running = uvicorn.Server(uvicorn.Config(create_app(games), host="127.0.0.1", port=port,
                                            log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", games
    running.should_exit = True
    thread.join(10)


def _fill_table(page: Any, rows: list[dict[str, Any]]) -> None:
    """An entity table's rows, or cards picked from the deck's pick list (one per line)."""
    picks = page.locator("ol.picks").count() > 0
    shown = page.locator("#rows > li" if picks else "#rows tbody tr").count()
    for _ in range(len(rows) - shown):
        page.get_by_role("button", name="Add a card" if picks else "Add a row").click()
    for index, row in enumerate(rows):
        for field, value in row.items():
            cell = page.locator(f'[name="value.{index}.{field}"]')
            if cell.evaluate("e => e.tagName") == "SELECT":
                cell.select_option(as_text(value))
            else:
                cell.fill(as_text(value))


def go(page: Any, target: Any) -> None:
    """Click what leads to another page and return once that page has loaded: a check made
    straight after a bare click can read the page being left (a flake seen in CI)."""
    with page.expect_navigation():
        target.click()


def answer(page: Any, value: Any, keyboard: bool) -> None:
    """Answer the question shown, as a player would: tap (or type and press Enter); returns
    when the next page has loaded."""
    with page.expect_navigation():
        _answer(page, value, keyboard)


def _answer(page: Any, value: Any, keyboard: bool) -> None:
    if page.locator("#rows").count():
        _fill_table(page, value)
        page.get_by_role("button", name="Next", exact=True).click()
    elif page.locator(".group, .names").count():  # facts asked together, targets' names
        # one field each: a number or a name typed, a choice picked
        for name, one in value.items():
            cell = page.locator(f'[name="value.{name}"]')
            if cell.evaluate("e => e.tagName") == "SELECT":
                cell.select_option(as_text(one))
            else:
                cell.fill(as_text(one))
        page.get_by_role("button", name="Next", exact=True).click()
    elif page.locator(".yesno").count():
        label = "Yes" if value else "No"
        if keyboard:  # "Yes" has the focus: Tab moves to "No"
            if not value:
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        else:
            page.get_by_role("button", name=label, exact=True).click()
    elif page.locator("select#answer").count():
        page.select_option("select#answer", as_text(value))
        page.get_by_role("button", name="Next", exact=True).click()
    elif page.locator("#answer").count():
        if keyboard:
            page.keyboard.press("Control+A")
            page.keyboard.type(as_text(value))
            page.keyboard.press("Enter")
        else:
            page.fill("#answer", as_text(value))
            page.get_by_role("button", name="Next", exact=True).click()
    else:  # a short pick list as buttons
        page.get_by_role("button", name=as_text(value), exact=True).click()


def play_turn(page: Any, script: dict[str, Any], shots: str | None = None) -> list[str]:
    """Answer every question of the turn; the ids asked, in order."""
    asked = []
    while page.locator('input[name="question"]').count():
        question = page.locator('input[name="question"]').input_value()
        if shots and question == "cards":
            page.screenshot(path=str(artifacts() / f"{shots}-turn.png"))
        asked.append(question)
        answer(page, scripted(page.content(), question, script), keyboard=len(asked) <= 3)
        assert page.locator(".error").count() == 0, page.locator(".error").all_inner_texts()
    return asked


def _new_game(page: Any, base: str) -> None:
    page.goto(base + "/")
    go(page, page.get_by_role("button", name="Set up a new game"))
    page.fill("#name", "arcs-web")
    page.locator("summary", has_text="Dice seed").click()
    page.fill("#seed", "7")
    go(page, page.get_by_role("button", name="Start the game"))


def _start_a_turn(page: Any, number: int, moves: bool = True) -> None:
    """A bot turn, not the point the game's flow offers first (the Act I Setup); `moves`:
    listing every move (the table) rather than answering the bot's questions."""
    page.select_option("#point", "")
    if moves:
        page.get_by_label("List every move I see for the bot").check()
    go(page, page.get_by_role("button", name=f"Start turn {number}"))


@pytest.mark.parametrize("size", SIZES)
def test_a_two_turn_arcs_game_with_one_undo(chromium, server, size):
    base, games = server
    context = chromium.new_context(viewport=SIZES[size])
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    _new_game(page, base)
    _start_a_turn(page, 1)

    assert play_turn(page, TURN_1) == ASKED_1
    assert page.url.endswith("/g/arcs-web/turns/1")
    go(page, page.locator("#undo"))
    assert "Turn 1 (red) was taken back." in page.inner_text("main")

    _start_a_turn(page, 1)
    play_turn(page, TURN_1, shots=size)
    assert page.url.endswith("/g/arcs-web/turns/1"), (page.url, page.inner_text("main"))
    # "Next turn" follows the game's flow: the one bot has played its card, so the round ends
    assert "point=round_end&bot=red" in page.get_by_role("link", name="Next turn").get_attribute(
        "href")
    go(page, page.get_by_role("link", name="The game"))
    _start_a_turn(page, 2)  # a bot turn all the same, as the player chooses on the game page
    assert play_turn(page, TURN_2) == ASKED_2  # the counters are known now
    assert page.url.endswith("/g/arcs-web/turns/2")
    big = page.inner_text(".decision")
    assert "tax" in big and "Blue's city in Hexy 2" in big
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], "the decision page scrolls sideways"
    page.screenshot(path=str(artifacts() / f"{size}-decision.png"))
    page.get_by_text("Why", exact=True).click()
    assert page.locator("#why .tree").first.is_visible()
    page.screenshot(path=str(artifacts() / f"{size}-decision-why.png"), full_page=True)

    table = Table.open(games / "arcs-web.yaml")
    assert [e["turn"] for e in table.game.log] == [1, 2]
    assert table.game.state["bots"]["red"]["hand_counter"] == 2
    assert table.game.state["entities"]["game"]["ambition"]["tycoon"]["declared"] is \
        AMBITIONS[0]["declared"]
    context.close()


def test_a_normal_difficulty_turn_asks_the_bots_own_questions_on_a_phone(chromium, server):
    """The default flow at 390×844: the seed's questions one per screen, yes/no buttons, the
    same question again after each action, the targets named in the table's words; no page
    scrolls sideways."""
    base, games = server
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(base + "/")
    go(page, page.get_by_role("button", name="Set up a new game"))
    page.fill("#name", "arcs-phone")
    page.select_option("#difficulty", "normal")
    go(page, page.get_by_role("button", name="Start the game"))
    _start_a_turn(page, 1, moves=False)
    asked, taken = [], {}
    while page.locator('input[name="question"]').count():
        question = page.locator('input[name="question"]').input_value()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{question}: the page scrolls sideways ({width} px)"
        if question == "cards":  # the pick list, two new cards picked with their pips
            assert page.locator("label[data-new-only]").first.is_visible()
            spare = page.locator('[name="value.2.card"]')  # an Event prints nothing asked
            spare.select_option("event")
            assert page.locator("#rows > li").nth(2).locator("label[data-new-only]").is_hidden()
            spare.select_option("")
            _fill_table(page, CONSULT[question])
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the card pick scrolls sideways ({width} px)"
            page.screenshot(path=str(artifacts() / "phone-cards.png"), full_page=True)
        if question.startswith("first."):  # the first of the seed's questions answered yes
            asked += _pick_first(page, taken)
            continue
        names = [str(i.get_attribute("name"))[len("value."):]
                 for i in page.locator(".names input").all()]
        value = {n: CONSULT[n] for n in names} if names else \
            scripted(page.content(), question, CONSULT)
        if question in ("power_track", "bot_resources", "standing"):  # facts asked together
            assert page.locator(".group input, .group select").count() == len(value)
            page.screenshot(path=str(artifacts() / f"phone-{question}.png"), full_page=True)
        if isinstance(value, list) and question not in ("cards", "ambitions", "golems",
                                                        "guild_cards"):
            taken[question] = taken.get(question, 0) + 1
            value = value[taken[question] - 1]
        if value is True and (target := NAMED_AT_YES.get((question, taken.get(question)))):
            page.fill("#target", target)  # its target named with the yes
        asked.append(question)
        answer(page, value, keyboard=False)
        assert page.locator(".error").count() == 0, page.locator(".error").all_inner_texts()
    assert "options" not in asked and asked.count("can.tax.contend_declared") == 3
    assert "named.1" in asked and "named" not in asked, str(asked)  # the second named with its yes
    assert not [q for q in asked if q.startswith("pips.")]  # given with the pick
    big = page.inner_text(".decision")
    assert "Blue's city in Hexy 2" in big and "Yellow's city in Arrow 1" in big
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts() / "phone-consult-decision.png"), full_page=True)
    log = Table.open(games / "arcs-phone.yaml").game.log
    assert [a["action"] for a in log[0]["decision"]["actions"]] == ["tax", "tax"]
    context.close()


def _pick_first(page: Any, taken: dict[str, int]) -> list[str]:
    """Tap the first of the seed's questions on the page that the script answers yes (none:
    "None of these"); the questions it answered, in order."""
    said = []
    for member in page.locator(".firsts button").all():
        name = str(member.get_attribute("value"))
        value = CONSULT[name]
        if isinstance(value, list):
            taken[name] = taken.get(name, 0) + 1
            value = value[taken[name] - 1]
        said.append(name)
        if value:
            if target := NAMED_AT_YES.get((name, taken.get(name))):
                page.fill("#target", target)  # its target named with the yes
            go(page, member)
            return said
    go(page, page.get_by_role("button", name="None of these"))
    return said


def test_the_page_follows_the_devices_dark_setting(chromium, server):
    base, _ = server
    context = chromium.new_context(viewport=SIZES["phone"], color_scheme="dark")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(base + "/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 20, 23)"
    context.close()


def test_the_page_asks_what_only_the_table_knows_then_offers_the_same_point(chromium, server):
    """The scripted Steward game after red's Event card (decision 13), at 390×844: the game
    page asks the flow's questions first, one tap each (no Imperial Reach; a Summit for red),
    then offers the Summit for red — the point `whybot play` offers with the same answers —
    and after it, asks whether the Negotiation minigame is played, then offers blue's card."""
    from typer.testing import CliRunner

    from whybot.cli.app import app

    base, games = server
    steward = ROOT / "tests" / "play" / "steward_game"
    plan = yaml.safe_load((steward / "plan.yaml").read_text(encoding="utf-8"))
    game = games / "steward.yaml"
    runner = CliRunner()
    for args in (["new", "arcs", str(game), "--seed", "5", "--answers",
                  str(steward / "0-setup.yaml")],
                 *(["play", str(game), "--answers", str(steward / step["answers"])]
                   for step in plan["steps"][:13])):
        assert runner.invoke(app, args).exit_code == 0
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(base + "/g/steward")
    assert "govern the Imperial Reach now?" in page.inner_text("#flow-question")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts() / "phone-flow-question.png"), full_page=True)
    go(page, page.get_by_role("button", name="no", exact=True))
    assert "call a Summit?" in page.inner_text("#flow-question")
    go(page, page.get_by_role("button", name="red", exact=True))
    assert page.locator("#flow-question").count() == 0
    assert page.locator("#point").input_value() == "summit"
    assert page.locator("#bot").input_value() == "red"
    go(page, page.get_by_role("button", name="Start turn 14"))
    # the no to the First Regent's question tells the Summit: not asked again
    asked = play_turn(page, {"unchanged": True, "favors": [], "summit.revive_empire": False})
    assert "first_regent" not in asked and "call_summit" in page.inner_text(".decision")
    page.goto(base + "/g/steward")
    assert "Negotiation Minigame (Optional) with red?" in page.inner_text("#flow-question")
    go(page, page.get_by_role("button", name="no", exact=True))
    assert (page.locator("#point").input_value(), page.locator("#bot").input_value()) == \
        ("turn", "blue")
    log = Table.open(game).game.log
    assert (log[13]["bot"], log[13]["point"]) == ("red", "summit")
    assert log[13]["flow"] == {"flow.imperial_reach": "no", "flow.summit": "red"}
    context.close()
