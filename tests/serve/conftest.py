"""Fixtures for `whybot serve`: the app on a temporary games folder, and a player that answers
its question pages from a script (`arcs_game.py`) through Starlette's test client."""

from __future__ import annotations

import html
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

# Starlette 1.x suggests httpx2 for its test client; httpx (which it still supports) is kept.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from whybot.cli.web.app import create_app  # noqa: E402

from .arcs_game import SETUP, as_text, cells, group_cells  # noqa: E402

LOCAL = "http://127.0.0.1"
_HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
_QUESTION = re.compile(r'<input type="hidden" name="question" value="([^"]*)">')


def hidden(page: str) -> dict[str, str]:
    """The hidden fields of a question form (the answers so far, the turn it was made for)."""
    return {k: html.unescape(v) for k, v in _HIDDEN.findall(page)}


def question_of(page: str) -> str | None:
    found = _QUESTION.search(page)
    return html.unescape(found.group(1)) if found else None


def group_fields(page: str) -> list[str]:
    """The facts a page asks together (its `.group` fields, `value.FACT`), in order."""
    found = re.search(r'<div class="group">(.*?)</div>\s*</div>', page, re.S)
    return re.findall(r'name="value\.([^"]+)"', found.group(1)) if found else []


def scripted(page: str, question: str, script: dict[str, Any]) -> Any:
    """The script's answer to the page's question; facts asked together, each by its own id
    (as an answers file gives them), unless the script answers the group itself."""
    if question not in script and (fields := group_fields(page)):
        missing = [n for n in fields if n not in script]
        assert not missing, (question, fields, missing)
        return {name: script[name] for name in fields}
    assert question in script, f"asked {question!r}, which the script does not answer"
    return script[question]


def errors(page: str) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'class="error"[^>]*>([^<]*)<', page)]


class Player:
    """Plays turns through the question pages, answering each question from `script`."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.asked: list[str] = []

    def new_game(self, name: str = "g1", **changes: str) -> Any:
        return self.client.post("/new", data={**SETUP, "name": name, **changes},
                                follow_redirects=False)

    def answer(self, page: Any, value: Any) -> Any:
        question = question_of(page.text)
        data = {**hidden(page.text), "action": "answer"}
        data.update(cells(value) if isinstance(value, list) else group_cells(value)
                    if isinstance(value, dict) else {"value": as_text(value)})
        self.asked.append(question or "")
        return self.client.post(page.url.path, data=data, follow_redirects=False)

    def reply(self, page: Any, script: dict[str, Any]) -> Any:
        """Answer the page's question from `script`."""
        return self.answer(page, scripted(page.text, question_of(page.text) or "", script))

    def turn(self, game: str, script: dict[str, Any], limit: int = 60) -> Any:
        """From the turn's first question to the decision page (a redirect to it)."""
        self.asked = []
        # a script that lists the moves plays the listing way (the box on the game page)
        page = self.client.get(f"/g/{game}/turn",
                               params={"moves": "1"} if "options" in script else {})
        assert page.status_code == 200, page.text
        for _ in range(limit):
            question = question_of(page.text)
            if question is None:
                return page
            page = self.reply(page, script)
            if page.status_code == 303:
                return page
            assert page.status_code == 200, errors(page.text) or page.text[:500]
        raise AssertionError("more questions than the limit")


@pytest.fixture()
def games(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    return folder


@pytest.fixture()
def client(games: Path) -> TestClient:
    return TestClient(create_app(games), base_url=LOCAL)


@pytest.fixture()
def run_cli():
    """`whybot ARGS...` in-process (typer's runner)."""
    from typer.testing import CliRunner

    from whybot.cli.app import app

    return lambda *args: CliRunner().invoke(app, list(args))


@pytest.fixture()
def player(client: TestClient) -> Player:
    return Player(client)
