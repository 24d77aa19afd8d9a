"""Issue 21's fuzz of `whybot serve`: random and mutated form posts, query strings and URL parts
against every route, through Starlette's test client (no socket, no server thread).

For every request: no 5xx, no traceback, and no absolute path of the server (the games folder,
the repository, the Python installation) anywhere in the body. The games folder holds a game
with one recorded turn (so its decision, why-not and odds pages exist) and a damaged file; it
is put back as it was after every request, so a case that deletes or plays cannot starve the
next. The default run makes 500 requests in about ten seconds; `--fuzz-long` ten times as many.
"""

from __future__ import annotations

import html
import random
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from tests.serve.arcs_game import SETUP, TURN_1, as_text, cells, group_cells  # noqa: E402
from tests.serve.conftest import scripted  # noqa: E402
from whybot.cli.web.app import create_app  # noqa: E402

from .conftest import CASE_SECONDS, TALLY  # noqa: E402
from .corpus import ROOT  # noqa: E402

REQUESTS = 500
GAME = "g1"
_HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
FORM = {"content-type": "application/x-www-form-urlencoded"}

# Text a form field or a URL part might carry: other digits, huge numbers, signs, markup,
# control characters, paths, JSON that is not the answers' shape, and very long text.
STRANGE = ["", " ", "²", "٣", "１", "1" * 5000, "9" * 20, "-1", "+1", "1e3", "0x1f", "1.5",
           "NaN", "inf", "0", "1", "2", "999999999", "1000000000", "yes", "no", "true", "none",
           "\x00", "\x1b[2J", "\ud7ff", "\u202e", "a\nb", "<script>x</script>", "../" * 8,
           "..", ".hidden", "con", "g1/../g1", "%2e%2e", "red", "blue", "roll", "table",
           "back", "answer", "[]", "{}", "[[]]", '[["hand_counter", 4]]', '[["x", 1, 2]]',
           "[" * 3000, '{"a": 1}', "null", "x" * 3000, "é" * 500, "\U0001f3b2" * 50]
FIELDS = ["turn", "bot", "point", "dice", "answers", "action", "question", "value", "pack",
          "name", "seat0", "seat0.fate", "seat1", "act", "difficulty", "seed", "notice",
          "rule", "token", "value.0.suit", "value.999.x", "value.٣.x", "value.0.__class__",
          "value.-1.x", "value." + "9" * 50 + ".x"]


@dataclass
class Site:
    """The app, its games folder as it must stay, and the forms a player would send."""

    client: TestClient
    folder: Path
    files: dict[str, bytes]
    question: dict[str, str]
    forbidden: list[str] = field(default_factory=list)

    def restore(self) -> None:
        for path in self.folder.iterdir():
            if path.name not in self.files:
                path.unlink()
        for name, data in self.files.items():
            path = self.folder / name
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)


def _hidden(page: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in _HIDDEN.findall(page)}


def _play_turn(client: TestClient) -> dict[str, str]:
    """Turn 1 played from the script; the form of turn 2's third question is returned."""
    page = client.get(f"/g/{GAME}/turn", params={"moves": "1"})  # the script lists moves
    for _ in range(60):
        form = _hidden(page.text)
        if "question" not in form:
            break
        value = scripted(page.text, form["question"], TURN_1)  # a group: fact by fact
        data = {**form, "action": "answer",
                **(cells(value) if isinstance(value, list) else group_cells(value)
                   if isinstance(value, dict) else {"value": as_text(value)})}
        page = client.post(f"/g/{GAME}/turn", data=data, follow_redirects=False)
        if page.status_code == 303:
            break
    assert page.status_code == 303, page.text[:500]
    page = client.get(f"/g/{GAME}/turn", params={"moves": "1"})  # the script lists moves
    for _ in range(2):
        form = _hidden(page.text)
        value = TURN_1.get(form.get("question", ""), 0)
        page = client.post(f"/g/{GAME}/turn", data={
            **form, "action": "answer",
            **(cells(value) if isinstance(value, list) else {"value": as_text(value)})})
    return _hidden(page.text)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    folder = tmp_path_factory.mktemp("serve-fuzz") / "games"
    folder.mkdir()
    client = TestClient(create_app(folder), base_url="http://127.0.0.1")
    assert client.post("/new", data={**SETUP, "name": GAME}).status_code == 200
    question = _play_turn(client)
    (folder / "broken.yaml").write_text("{not yaml: [\n", encoding="utf-8")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    return Site(client, folder, files, question, [
        str(folder.parent), str(ROOT), sys.prefix, "site-packages", "Traceback"])


def _value(rng: random.Random) -> str:
    value = rng.choice(STRANGE)
    if rng.random() < 0.2:  # a strange value spliced into a plain one
        value = rng.choice(["1", "red", "yes", "g1"]) + value
    return value


def _mutate(rng: random.Random, form: dict[str, str]) -> list[tuple[str, str]]:
    """A form with one to four of: a field changed, dropped, added or repeated."""
    items = list(form.items())
    for _ in range(rng.randint(1, 4)):
        move = rng.random()
        if items and move < 0.45:
            at = rng.randrange(len(items))
            items[at] = (items[at][0], _value(rng))
        elif items and move < 0.6:
            items.pop(rng.randrange(len(items)))
        elif move < 0.85:
            items.append((rng.choice(FIELDS), _value(rng)))
        elif items:
            items.append(rng.choice(items))
    return items


def _segment(rng: random.Random, plain: str) -> str:
    return plain if rng.random() < 0.75 else quote(_value(rng)[:300], safe="")


def _body(rng: random.Random, form: list[tuple[str, str]]) -> bytes:
    if rng.random() < 0.1:  # raw bytes: undecodable, unbalanced percent signs, no `=`
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    return urlencode(form).encode()


Request = tuple[str, str, bytes, dict[str, str]]


def _request(rng: random.Random, site: Site) -> Request:
    """One request: a route picked at random, its parts mutated."""
    game = _segment(rng, GAME if rng.random() < 0.9 else "broken")
    number = _segment(rng, rng.choice(["1", "1", "2", "0"]))
    query = urlencode(_mutate(rng, {"bot": "red", "dice": "roll", "rule": "bot_turn.pass",
                                    "notice": "x", "pack": "arcs"}))
    gets = ["/", "/new", f"/g/{game}", f"/g/{game}/turn", f"/g/{game}/delete",
            f"/g/{game}/turns/{number}", f"/g/{game}/turns/{number}/odds",
            f"/static/{_segment(rng, 'whybot.css')}", f"/g/{game}/undo"]
    posts: list[tuple[str, dict[str, str]]] = [
        ("/new", {**SETUP, "name": "fz"}), (f"/g/{game}/turn", site.question),
        (f"/g/{game}/turn", {"turn": "1", "bot": "red", "dice": "roll"}),
        (f"/g/{game}/undo", {"turn": "1"}), (f"/g/{game}/delete", {"turn": "1"})]
    if rng.random() < 0.3:
        path = rng.choice(gets)
        # the games page (it opens every game) and a turn's odds take longest: sampled less
        if (path == "/" or path.endswith("/odds")) and rng.random() < 0.75:
            path = f"/g/{game}"
        return "GET", f"{path}?{query}" if rng.random() < 0.7 else path, b"", {}
    path, form = rng.choice(posts)
    headers = dict(FORM)
    if rng.random() < 0.05:
        headers = rng.choice([{}, {"content-type": "text/plain"},
                              {"content-type": "multipart/form-data; boundary=zz"},
                              {"content-type": "multipart/form-data"}])
    return "POST", path, _body(rng, _mutate(rng, form)), headers


def _check(site: Site, label: str, request: Request) -> list[str]:
    """The request sent and checked; what was wrong with its answer, if anything."""
    method, path, body, headers = request
    start = time.perf_counter()
    try:
        answer = site.client.request(method, path, content=body or None, headers=headers,
                                     follow_redirects=False)
    except Exception as exc:  # escaped every handler: a 500 with a traceback in a real server
        TALLY.add("serve", "raised", time.perf_counter() - start, label)
        return [f"{label}: raised {type(exc).__name__}: {exc}"[:300]]
    seconds = time.perf_counter() - start
    TALLY.add("serve", answer.status_code, seconds, label)
    problems = []
    if answer.status_code >= 500:
        problems.append(f"{label}: {answer.status_code}")
    problems += [f"{label}: the body shows {word!r}" for word in site.forbidden
                 if word in answer.text]
    if seconds > CASE_SECONDS:
        problems.append(f"{label}: {seconds:.1f} s")
    return problems


def test_any_form_or_url_is_answered_without_a_5xx_or_a_path(site, scale):
    problems: list[str] = []
    for number in range(REQUESTS * scale):
        rng = random.Random(f"serve/{number}")
        request = _request(rng, site)
        problems += _check(site, f"serve #{number} {request[0]} {request[1][:80]}", request)
        site.restore()
    assert not problems, f"{len(problems)} bad answers; the first: {problems[:5]}"
