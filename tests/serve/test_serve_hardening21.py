"""Issue 21, hardening round two: a bad number in a form or URL is a 4xx in one line (no path,
no traceback); slow clients cannot crowd out a real one; start-up errors are one line and
exit 2; the Host check parses the header whole and answers to the address listened on."""

from __future__ import annotations

import contextlib
import http.client
import logging
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from whybot.cli.web import listen
from whybot.cli.web.app import create_app
from whybot.cli.web.guard import host_name
from whybot.cli.web.listen import Bounds, bind
from whybot.cli.web.pages import unrooted

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


def test_a_page_names_no_absolute_path_but_keeps_the_forms_own_text():
    page = ('<a href="/g/g1/turn">(/srv/whybot/knowledge/arcs/pages/bot_turn.yaml:16) '
            '/srv/games/g1.yaml &#39;/etc/passwd&#39; 1/2 and/or https://x.example/a/b</a>'
            '<input type="hidden" name="answers" value="[[&#34;target&#34;,&#34;/a/b&#34;]]">')
    assert unrooted(page, "/srv/games") == (
        '<a href="/g/g1/turn">(bot_turn.yaml:16) g1.yaml &#39;passwd&#39; 1/2 and/or '
        'https://x.example/a/b</a><input type="hidden" name="answers" '
        'value="[[&#34;target&#34;,&#34;/a/b&#34;]]">')


def test_a_damaged_game_file_is_named_relative_to_the_folder(player, games):
    (games / "broken.yaml").write_text("{not yaml: [\n")
    listed = player.client.get("/")
    assert listed.status_code == 200 and "broken.yaml" in listed.text
    assert str(games) not in listed.text


def test_a_refusal_quoting_a_long_address_is_one_short_line(client):
    refused = client.get("/new", params={"pack": "p\n" + "x" * 5000})
    assert refused.status_code == 400
    line = _one_line(refused.text)
    assert len(line) <= 700 and line.endswith("…") and "\\n" in line


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


# --- 10: slow clients are cut off, and cannot crowd out a prompt request --------------------


@contextmanager
def running(app: object, bounds: Bounds) -> Iterator[int]:
    """The server on 127.0.0.1 (a free port) in a thread, stopped on leaving."""
    sock = bind("127.0.0.1", 0)
    served = listen.server(app, bounds)
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not served.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.02)
        yield int(sock.getsockname()[1])
    finally:
        served.should_exit = True
        thread.join(10)
        sock.close()


def _status(port: int, host: str = "127.0.0.1") -> int:
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status
    finally:
        connection.close()


def _closed(sock: socket.socket) -> bool:
    """The server closed (or reset) this connection without answering."""
    try:
        return sock.recv(1024, socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_slow_headers_neither_hold_a_slot_nor_shut_out_a_prompt_request(games):
    bounds = Bounds(request_seconds=1.0)  # and the caps as they are
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 100
    with running(create_app(games), bounds) as port:
        slow = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(64)]
        try:
            statuses = []
            for step in range(12):  # 3 s: one header byte on every slow connection each 0.25 s
                for sock in slow:
                    with contextlib.suppress(OSError):
                        sock.send(head[step:step + 1])
                if step % 4 == 1:
                    started = time.monotonic()
                    statuses.append(_status(port))
                    assert time.monotonic() - started < 2
                time.sleep(0.25)
            assert statuses == [200, 200, 200]
            assert all(_closed(sock) for sock in slow)  # 48 at once, the last 16 after 1 s
        finally:
            for sock in slow:
                sock.close()


def test_a_slow_body_is_cut_off(games):
    with running(create_app(games), Bounds(request_seconds=1.0)) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\n\r\n")
            started = time.monotonic()
            while not _closed(sock):
                assert time.monotonic() - started < 4, "a trickled body is still read"
                with contextlib.suppress(OSError):
                    sock.send(b"x")
                time.sleep(0.2)
        assert _status(port) == 200
    assert list(games.iterdir()) == []


# --- 11: start-up errors are one line and exit 2 ----------------------------------------------


def test_a_port_in_use_is_one_line_and_exit_2(run_cli, games):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run_cli("serve", str(games), "--port", str(taken.getsockname()[1]))
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1
    assert "cannot listen on 127.0.0.1 port" in result.output and "--port 0" in result.output


@pytest.mark.parametrize("host", ["nowhere.invalid", "a..b", " "])
def test_a_host_that_does_not_resolve_is_one_line_and_exit_2(run_cli, games, host):
    result = run_cli("serve", str(games), "--host", host)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.splitlines()) == 1 and "--host" in result.output


def test_serve_on_another_loopback_address_answers_at_the_address_it_prints(games):
    server_process = subprocess.Popen(
        [sys.executable, "-m", "whybot.cli", "serve", str(games), "--host", "127.0.0.2",
         "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server_process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.2:(\d+)/ ", line)
        assert found and "token" not in line, line
        deadline = time.monotonic() + 30
        while True:
            try:
                assert _status(int(found.group(1)), "127.0.0.2") == 200
                break
            except ConnectionError:
                assert time.monotonic() < deadline and server_process.poll() is None
                time.sleep(0.1)
    finally:
        server_process.terminate()
        server_process.wait(10)
