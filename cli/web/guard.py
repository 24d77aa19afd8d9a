"""What every request to `whybot serve` passes before a page sees it (an ASGI middleware).

- The access token: when the server listens beyond this machine (`--host 0.0.0.0`), a request
  must carry the token, as `?token=` (the address `whybot serve` printed) or as the cookie that
  address sets; any other request is refused, the static files included.
- Without a token, the server answers only to a Host of this machine (127.0.0.1, localhost,
  [::1], or the loopback address it listens on), so a web page elsewhere cannot reach it
  through a rebound DNS name. The Host header is parsed whole: `[::1]evil.example` is no host.
- A form sent from another site (its Origin is not this server) is refused: a page open in the
  same browser cannot delete a game or play a turn.
- Request bodies are read up to the limit `request_bytes` before the page runs; a larger one is
  refused with 413, whatever Content-Length claims.
- An exception no page turned into a refusal (a bug) ends as a 500 page that names nothing
  of the server, and one line in the server's log, never a traceback.
- Every answer forbids framing, sniffing and cross-site referrers (the token must not leak
  in a Referer; same-origin ones stay, or browsers would send forms with `Origin: null`),
  and its scripts and styles come from this server only.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "whybot_token"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# A Host header: a bracketed IPv6 address or a name (an IPv4 address is one), an optional
# port, nothing else (RFC 9110 § 7.2).
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]{2,45})\]|(?P<name>[A-Za-z0-9._-]{1,253}))"
                   r"(?::[0-9]{1,5})?")
_LENGTH = re.compile(r"[0-9]{1,18}")  # ASCII digits: "²".isdigit(), and int("²") fails
LOG = logging.getLogger("uvicorn.error")
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class _Gone(Exception):
    """The client left before its body ended: no one to answer."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def canonical(host: str) -> str:
    """An address or a name as the Host check compares it (`0:0::1` → `::1`, names lowercase)."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host.lower()


def host_name(header: str) -> str | None:
    """The host a Host header names without its port (`[::1]:8000` → `::1`), or None when the
    header is not one host and an optional port (`[::1]evil.example`, `a b`, `x:y`)."""
    found = _HOST.fullmatch(header)
    if found is None:
        return None
    if found["ip6"] is not None:
        try:
            return str(ipaddress.IPv6Address(found["ip6"]))
        except ValueError:
            return None
    return canonical(found["name"])


async def refuse(send: Send, status: int, text: str) -> None:
    """A short plain-text refusal (nothing of the request echoed back)."""
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The checks above, around the whole app. `token=None`: loopback-only, no token;
    `host`: the address listened on, answered to as well (`--host 127.0.0.2`)."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int,
                 host: str | None = None) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body
        self.hosts = LOCAL_HOSTS | ({canonical(host)} if host else set())

    def _token_given(self, scope: Scope) -> tuple[bool, bool]:
        """(the request carries the token, it came in the query: set the cookie)."""
        assert self.token is not None
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        for given in query.get("token", []):
            if hmac.compare_digest(given.encode(), self.token.encode()):
                return True, True
        cookie = SimpleCookie()
        try:
            cookie.load(_header(scope, b"cookie") or "")
        except Exception:  # a malformed cookie header is no token
            return False, False
        morsel = cookie.get(COOKIE)
        return bool(morsel and hmac.compare_digest(morsel.value.encode(),
                                                   self.token.encode())), False

    def _cross_site(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None or scope["method"] in ("GET", "HEAD"):
            return False
        host = _header(scope, b"host") or ""
        return origin.split("://", 1)[-1] != host

    async def _body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit; _Gone if the client left."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body"):
                return b"".join(chunks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        set_cookie = False
        if self.token is not None:
            allowed, set_cookie = self._token_given(scope)
            if not allowed:
                await refuse(send, 403, "forbidden: this whybot server needs its access token "
                                        "(open the address `whybot serve` printed)")
                return
        elif host_name(_header(scope, b"host") or "") not in self.hosts:
            await refuse(send, 403, "forbidden: this whybot server answers only to this "
                                    "machine's own address")
            return
        if self._cross_site(scope):
            await refuse(send, 403, "forbidden: a form from another site")
            return
        length = _header(scope, b"content-length")
        if length is not None and not (_LENGTH.fullmatch(length) and
                                       int(length) <= self.max_body):
            await refuse(send, 413, f"refused: a request body over {self.max_body:,} bytes "
                                    "(the limit request_bytes)")
            return
        try:
            body = await self._body(receive)
        except _Gone:
            return
        if body is None:
            await refuse(send, 413, f"refused: a request body over {self.max_body:,} bytes "
                                    "(the limit request_bytes)")
            return
        started: list[bool] = []
        try:
            await self.app(scope, _replay(body, receive), self._headers(send, set_cookie,
                                                                        started))
        except Exception as exc:  # the last resort: one line in the log, a bare 500
            LOG.error("whybot serve: %s %s failed: %s", scope["method"], scope["path"][:200],
                      " ".join(f"{type(exc).__name__}: {exc}".split())[:300])
            if not started:
                await refuse(send, 500, "internal error: a bug in whybot (the server's "
                                        "terminal names it)")

    def _headers(self, send: Send, set_cookie: bool, started: list[bool]) -> Send:
        token = self.token

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.append(True)
                headers = list(message.get("headers", [])) + HEADERS
                if set_cookie and token is not None:
                    headers.append((b"set-cookie", f"{COOKIE}={token}; Path=/; HttpOnly; "
                                                   "SameSite=Strict".encode()))
                message = {**message, "headers": headers}
            await send(message)
        return sending


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body already read, given to the app as one message; then the client's own."""
    sent = [False]

    async def receiving() -> Message:
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return receiving
