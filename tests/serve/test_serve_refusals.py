"""`whybot serve` refuses: a request without the token, a foreign Host or Origin, a body over
the limit, a game name or link that leaves the folder, a game file over its size limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from whybot.cli.cmd_serve import _loopback, addresses
from whybot.cli.web.app import create_app
from whybot.engine import limits

TOKEN = "k3y-" + "x" * 20


@pytest.fixture()
def guarded(games: Path) -> TestClient:
    return TestClient(create_app(games, token=TOKEN), base_url="http://192.168.1.20:8000")


def test_every_request_without_the_token_is_refused(guarded):
    for path in ("/", "/static/whybot.css", "/g/anything", "/new?pack=arcs"):
        refused = guarded.get(path)
        assert refused.status_code == 403, path
        assert "needs its access token" in refused.text
    assert guarded.get("/", params={"token": "k3y-" + "y" * 20}).status_code == 403
    assert guarded.post("/new", data={"pack": "arcs"}).status_code == 403


def test_the_token_in_the_address_opens_the_page_and_sets_a_cookie(guarded):
    page = guarded.get("/", params={"token": TOKEN})
    assert page.status_code == 200
    assert "HttpOnly" in page.headers["set-cookie"]
    assert "SameSite=Strict" in page.headers["set-cookie"]
    assert guarded.get("/static/whybot.css").status_code == 200  # by the cookie now
    guarded.cookies.clear()
    assert guarded.get("/static/whybot.css").status_code == 403


def test_without_a_token_only_this_machines_host_names_are_answered(games):
    client = TestClient(create_app(games), base_url="http://attacker.example")
    assert client.get("/").status_code == 403
    for host in ("127.0.0.1:8000", "localhost", "[::1]:9"):
        assert TestClient(create_app(games), base_url=f"http://{host}").get("/").status_code \
            == 200, host


def test_a_form_from_another_site_is_refused(player, games):
    refused = player.client.post("/new", data={"pack": "arcs", "name": "x", "seat0": "red"},
                                 headers={"origin": "http://evil.example"})
    assert refused.status_code == 403 and "another site" in refused.text
    assert list(games.iterdir()) == []


def test_a_body_over_the_limit_is_refused_before_any_page_reads_it(client, games):
    big = {"pack": "arcs", "name": "big", "notes": "x" * (limits.current().request_bytes + 1)}
    refused = client.post("/new", data=big)
    assert refused.status_code == 413 and "request_bytes" in refused.text

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(80):
            yield b"x" * 1024
    refused = client.post("/new", content=chunks(),
                          headers={"content-type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 413
    assert list(games.iterdir()) == []


@pytest.mark.parametrize("name", ["%2E%2E", "..%2F..%2Fetc%2Fpasswd", ".hidden", "a%2Fb",
                                  "%2Fetc%2Fpasswd", "x" * 81])
def test_a_game_name_that_could_leave_the_folder_is_refused(client, name):
    for path in (f"/g/{name}", f"/g/{name}/turn", f"/g/{name}/turns/1"):
        refused = client.get(path)
        assert refused.status_code == 404, path


def test_a_link_out_of_the_folder_is_not_a_game(client, games, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("secret: 1\n")
    os.symlink(outside, games / "sneaky.yaml")
    refused = client.get("/g/sneaky")
    assert refused.status_code == 404 and "outside the games folder" in refused.text
    assert "sneaky" not in client.get("/").text
    assert client.post("/g/sneaky/delete", data={"turn": "0"}).status_code == 404
    assert outside.exists()


def test_a_game_file_over_the_size_limit_is_not_opened(player, games):
    player.new_game()
    previous = limits.current()
    limits.use(limits.Limits(game_bytes=100))
    try:
        refused = player.client.get("/g/g1")
    finally:
        limits.use(previous)
    assert refused.status_code == 400 and "game_bytes" in refused.text


def test_an_unknown_page_and_a_wrong_method_are_pages_too(client):
    assert client.get("/nowhere").status_code == 404
    assert client.get("/g/g1/undo").status_code == 405


def test_tampered_answers_are_refused_and_change_nothing(player, games):
    player.new_game()
    refused = player.client.post("/g/g1/turn", data={"turn": "0", "bot": "red", "dice": "roll",
                                                     "answers": "{not json"})
    assert refused.status_code == 400 and "not readable" in refused.text
    refused = player.client.post("/g/g1/turn", data={"turn": "0", "bot": "red", "dice": "roll",
                                                     "answers": '[["hand_counter", 999]]'})
    assert refused.status_code == 400 and "outside 0..20" in refused.text
    assert player.client.post("/g/g1/turn", data={"turn": "0", "bot": "nobody",
                                                  "dice": "roll"}).status_code == 400


def test_the_address_printed_carries_the_token_only_beyond_this_machine():
    assert _loopback("127.0.0.1") and _loopback("::1") and _loopback("localhost")
    assert not _loopback("0.0.0.0") and not _loopback("192.168.1.5")
    assert addresses("127.0.0.1", 8000, None) == ["http://127.0.0.1:8000/"]
    assert addresses("192.168.1.5", 8000, "abc") == ["http://192.168.1.5:8000/?token=abc"]
    assert all(a.endswith(":80/?token=t") and "127.0.0.1" not in a
               for a in addresses("0.0.0.0", 80, "t"))


def test_serve_refuses_a_weak_token(run_cli, games):
    result = run_cli("serve", str(games), "--host", "0.0.0.0", "--token", "short")
    assert result.exit_code == 2 and "at least 16" in result.output

