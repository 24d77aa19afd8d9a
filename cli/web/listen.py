"""Where `whybot serve` listens, and how long it waits for a client (uvicorn's h11, bounded).

The socket is bound here, before anything is printed, so a port in use or a host that does
not resolve is one line and exit 2 (uvicorn would log it and exit 3), and `--port 0` prints
the port actually bound.

uvicorn bounds the connections (`limit_concurrency`: past it, every request gets 503) but
waits for a request's head and body as long as a client likes, so 64 connections trickling
a header byte every 2 s hold every slot, and with `--host 0.0.0.0` that needs no token. So:

- a connection must deliver a whole request (head and body) within `request_seconds` of
  opening or of its last response, or it is closed;
- one client (an IP address) holds at most `per_client` connections, the server at most
  `connections`: a new connection past either closes the oldest one (that client's, or
  anyone's) not being answered, one still sending its request or idle between requests.
  A slow or crowding client then never shuts out a request sent promptly; only a server
  whose every connection is being answered says 503.
"""

from __future__ import annotations

import asyncio
import errno
import socket
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from whybot.engine import WhybotError


@dataclass(frozen=True)
class Bounds:
    """How long a request may take to arrive, and how many connections are kept."""

    request_seconds: float = 10.0
    per_client: int = 16  # a browser opens up to 6 to one server; `make serve-load`, 8 tabs
    connections: int = 64


class _Bounded(H11Protocol):
    """uvicorn's h11 protocol with the deadline and the connection caps above."""

    bounds: ClassVar[Bounds]
    kept: ClassVar[dict[_Bounded, None]]  # the open connections, oldest first

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()
        peer = self._peer()
        self._make_room([c for c in self.kept if c._peer() == peer], self.bounds.per_client)
        self._make_room(list(self.kept), self.bounds.connections)
        self.kept[self] = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.kept.pop(self, None)
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request on this connection has its own time

    def _peer(self) -> str:
        return str(self.client[0]) if self.client else ""

    def _answering(self) -> bool:
        """A whole request has arrived and is being answered: never cut short."""
        return self.conn.their_state is h11.DONE

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.bounds.request_seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._deadline = None
        if not self._answering():
            self._close()

    def _close(self) -> None:
        self.kept.pop(self, None)
        self.connections.discard(self)
        if not self.transport.is_closing():
            self.transport.close()

    @staticmethod
    def _make_room(connections: list[_Bounded], most: int) -> None:
        """Close the oldest connections not being answered until this one fits in `most`."""
        idle = [c for c in connections if not c._answering()]
        for connection in idle[:max(0, len(connections) + 1 - most)]:
            connection._close()


def protocol(bounds: Bounds) -> type[H11Protocol]:
    """A protocol class with its own bounds and its own register of connections."""
    return type("BoundedH11Protocol", (_Bounded,), {"bounds": bounds, "kept": {}})


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` (not yet listening); WhybotError in one line if not."""
    if not host.strip():
        raise WhybotError("--host: give an address (127.0.0.1, 0.0.0.0, or a name)")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError, ValueError) as exc:
        raise WhybotError(f"--host {host[:80]!r}: not an address this machine can listen on "
                          f"({getattr(exc, 'strerror', None) or exc})") from None
    family, kind, proto, _, address = min(found, key=lambda f: f[0] != socket.AF_INET)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        hint = {errno.EADDRINUSE: "another program listens there: choose another --port, "
                                  "or --port 0 for any free one",
                errno.EADDRNOTAVAIL: "not an address of this machine",
                errno.EACCES: "ports below 1024 need more rights: choose --port 8000"}.get(
                    exc.errno or 0)
        raise WhybotError(f"cannot listen on {host[:80]} port {port}: {exc.strerror}",
                          hint=hint) from None
    return sock


def server(app: Any, bounds: Bounds = Bounds()) -> uvicorn.Server:
    """The uvicorn server for `app`, bounded as above; `.run(sockets=[bind(...)])` serves."""
    return uvicorn.Server(uvicorn.Config(
        app, http=protocol(bounds), ws="none", lifespan="off", log_level="warning",
        access_log=False, proxy_headers=False, server_header=False, timeout_keep_alive=5,
        limit_concurrency=bounds.connections + 1))
