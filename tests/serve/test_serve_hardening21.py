"""Issue 21, hardening round two: a bad number in a form or URL is a 4xx in one line (no path,
no traceback); slow clients cannot crowd out a real one; start-up errors are one line and
exit 2; the Host check parses the header whole and answers to the address listened on."""

from __future__ import annotations

import logging
import re

import pytest
from starlette.testclient import TestClient

from whybot.cli.web.app import create_app
from whybot.cli.web.guard import host_name

BAD_NUMBERS = ["²", "٣", "1" * 5000, "-1", "1e3", " ", "0x1"]


def _one_line(page: str) -> str:
    found = re.findall(r'class="error"[^>]*>([^<]*)<', page)
    assert len(found) == 1, page[:500]
    return found[0]


# --- 9: every number a request carries is read by one helper --------------------------------


@pytest.mark.parametrize("bad", BAD_NUMBERS)
def test_a_bad_turn_in_a_form_is_a_stale_page_not_a_500(player, bad):
    player.new_game()
    for path, data in (("/g/g1/turn", {"turn": bad, "bot": "red", "dice": "roll"}),
                       ("/g/g1/undo", {"turn": bad}), ("/g/g1/delete", {"turn": bad})):
        refused = player.client.post(path, data=data)
        assert refused.status_code == 409, path
        assert "out of date" in _one_line(refused.text)


@pytest.mark.parametrize("bad", BAD_NUMBERS[:5])
def test_a_bad_seed_is_shown_beside_its_field(player, games, bad):
    refused = player.new_game(seed=bad)
    assert refused.status_code == 422
    assert "not a whole number from 0 to 999,999,999" in _one_line(refused.text)
    assert list(games.iterdir()) == []


@pytest.mark.parametrize("bad", ["%C2%B2", "1" * 5000, "0", "99", "x"])
def test_a_bad_turn_in_a_url_is_a_400_that_names_no_path(player, games, bad):
    player.new_game()
    for path in (f"/g/g1/turns/{bad}", f"/g/g1/turns/{bad}/odds"):
        refused = player.client.get(path)
        assert refused.status_code == 400, path
        line = _one_line(refused.text)
        assert "turn" in line and len(line) < 200
        assert str(games) not in refused.text and "/tmp" not in refused.text


def test_deeply_nested_answers_are_refused_in_one_line(player):
    player.new_game()
    refused = player.client.post("/g/g1/turn", data={
        "turn": "0", "bot": "red", "dice": "roll", "answers": "[" * 5_000 + "]" * 5_000})
    assert refused.status_code == 400 and "not readable" in _one_line(refused.text)


def test_a_content_length_of_other_digits_is_refused(client):
    refused = client.post("/new", content=b"x", headers={"content-length": "²".encode("latin-1")})
    assert refused.status_code == 413


def test_a_bug_is_a_500_page_that_names_nothing_of_the_server(games, monkeypatch, caplog):
    from whybot.cli.web import games as games_module

    def broken(*_: object) -> None:
        raise RuntimeError(f"kaputt in {games}/secret.yaml\nsecond line")
    monkeypatch.setattr(games_module.Table, "open", broken)
    (games / "g1.yaml").write_text("x: 1\n")
    client = TestClient(create_app(games), base_url="http://127.0.0.1")
    with caplog.at_level(logging.ERROR, logger="uvicorn.error"):
        page = client.get("/g/g1")
    assert page.status_code == 500 and "a bug in whybot" in page.text
    assert "kaputt" not in page.text and str(games) not in page.text
    assert "Traceback" not in page.text
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1 and "RuntimeError: kaputt" in logged[0] and "\n" not in logged[0]


def test_a_damaged_game_file_is_named_relative_to_the_folder(player, games):
    (games / "broken.yaml").write_text("{not yaml: [\n")
    listed = player.client.get("/")
    assert listed.status_code == 200 and "broken.yaml" in listed.text
    assert str(games) not in listed.text


# --- 11: the Host header parsed whole, the address listened on answered to ------------------


@pytest.mark.parametrize("header, name", [
    ("127.0.0.1", "127.0.0.1"), ("127.0.0.1:8000", "127.0.0.1"), ("LocalHost:1", "localhost"),
    ("[::1]", "::1"), ("[::1]:8000", "::1"), ("[0:0::1]:80", "::1"),
    ("[::1]evil.example", None), ("[::1]:80evil", None), ("127.0.0.1:80:80", None),
    ("127.0.0.1 evil", None), ("", None), ("[evil]", None), ("127.0.0.1:", None),
    ("a@127.0.0.1", None), ("::1", None)])
def test_the_host_header_is_one_host_and_an_optional_port(header, name):
    assert host_name(header) == name


@pytest.mark.parametrize("host", ["[::1]evil.example", "[::1]:8000.evil.example",
                                  "127.0.0.1.evil.example", "localhost:80@evil.example"])
def test_a_host_that_only_starts_like_this_machine_is_refused(games, host):
    refused = TestClient(create_app(games), base_url="http://127.0.0.1").get(
        "/", headers={"host": host})
    assert refused.status_code == 403 and "own address" in refused.text


def test_the_loopback_address_listened_on_is_answered(games):
    for host in ("127.0.0.2", "127.0.0.2:8000"):
        assert TestClient(create_app(games, host="127.0.0.2"), base_url=f"http://{host}").get(
            "/").status_code == 200
    assert TestClient(create_app(games), base_url="http://127.0.0.2:8000").get(
        "/").status_code == 403
