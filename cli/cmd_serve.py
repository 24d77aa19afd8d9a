"""`whybot serve`: the table companion as a local web page (the app lives in `web/`).

Listening on this machine only (127.0.0.1) is the default. Any other address (`--host
0.0.0.0`, for a phone on the same network) gets an access token, printed in the address; a
request without it is refused. Starlette and uvicorn come with the extra `whybot[serve]`.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import socket
from pathlib import Path
from typing import Annotated

import typer

from whybot.engine import WhybotError

from .common import rel

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,200}")

GamesDir = Annotated[Path, typer.Argument(
    metavar="GAMES_DIR", exists=True, file_okay=False,
    help="The folder of game files the page lists and plays (default: this folder).")]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def free_port(host: str) -> int:
    """A port nothing listens on now (for `--port 0`), so the address can be printed first."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _own_addresses() -> list[str]:
    """This machine's own addresses other than loopback (what a phone on the network opens),
    as the system's resolver lists them for its host name; the host name when it lists none."""
    try:
        found = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        found = []
    return [a for a in found if not a.startswith("127.")] or [socket.gethostname()]


def addresses(host: str, port: int, token: str | None) -> list[str]:
    """The addresses to open: the one listened on, or each of this machine's for 0.0.0.0."""
    hosts = _own_addresses() if host in ("0.0.0.0", "::") else [host]
    return [f"http://{f'[{h}]' if ':' in h else h}:{port}/" + (f"?token={token}" if token
                                                                else "") for h in hosts]


def serve(games_dir: GamesDir = Path("."),
          port: Annotated[int, typer.Option(
              "--port", metavar="N", min=0, max=65535,
              help="Port to listen on (0: any free port).")] = 8000,
          host: Annotated[str, typer.Option(
              "--host", metavar="H",
              help="Address to listen on. 127.0.0.1 (default): this machine only; 0.0.0.0: "
                   "every network, with an access token.")] = "127.0.0.1",
          token: Annotated[str | None, typer.Option(
              "--token", metavar="TEXT",
              help="The access token to require (default: a random one when the host is not "
                   "this machine; none on 127.0.0.1).")] = None) -> None:
    """The table companion as a web page: games, the next turn's questions, the decision.

    Open the printed address on the phone or tablet beside the board. The game files are the
    ones `whybot play` uses, in GAMES_DIR. Ctrl-C stops the server."""
    try:
        from .web.app import create_app
        from .web.listen import bind, server
    except ImportError as exc:
        raise WhybotError(f"whybot serve needs its extra packages ({exc.name} is missing)",
                          hint="pip install 'whybot[serve]'") from None
    if token is not None and not TOKEN.fullmatch(token):
        raise WhybotError("--token: give at least 16 letters, digits, - or _")
    if token is None and not _loopback(host):
        token = secrets.token_urlsafe(18)
    sock = bind(host, port)  # before anything is printed: a port in use is one line, exit 2
    port = int(sock.getsockname()[1])
    with sock:
        app = create_app(games_dir, token=token, host=host)
        typer.echo(f"whybot serve: {'  or  '.join(addresses(host, port, token))}  (games in "
                   f"{rel(str(games_dir.resolve())) or '.'}; Ctrl-C stops)")
        if token:
            typer.echo("every request needs the token in that address; share it only with "
                       "your own devices")
        server(app).run(sockets=[sock])
