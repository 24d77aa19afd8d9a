"""`whybot serve` as a command: it prints the address (with the token when one is required)
and answers there, refusing requests without the token."""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import time
from pathlib import Path

TOKEN = "table-side-token-1234"


def _get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def test_serve_prints_its_address_with_the_token_and_refuses_requests_without_it(games: Path):
    server = subprocess.Popen([sys.executable, "-m", "whybot.cli", "serve", str(games),
                               "--port", "0", "--token", TOKEN],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=" + TOKEN, line)
        assert found, line
        port = int(found.group(1))
        deadline = time.monotonic() + 30
        while True:
            try:
                status = _get(port, "/")
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        assert status == 403
        assert _get(port, f"/?token={TOKEN}") == 200
    finally:
        server.terminate()
        server.wait(10)


def test_serve_on_a_folder_that_is_not_there_is_one_line_and_exit_2(run_cli, tmp_path):
    result = run_cli("serve", str(tmp_path / "nowhere"))
    assert result.exit_code == 2
    assert "does not exist" in result.output
