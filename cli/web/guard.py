"""What every request to `whybot serve` passes before a page sees it (an ASGI middleware).

- The access token: when the server listens beyond this machine (`--host 0.0.0.0`), a request
  must carry the token, as `?token=` (the address `whybot serve` printed) or as the cookie that
  address sets; any other request is refused, the static files included.
- Without a token, the server answers only to a Host of this machine (127.0.0.1, localhost,
  [::1]), so a web page elsewhere cannot reach it through a rebound DNS name.
- A form sent from another site (its Origin is not this server) is refused: a page open in the
  same browser cannot delete a game or play a turn.
- Request bodies are read up to the limit `request_bytes` before the page runs; a larger one is
  refused with 413, whatever Content-Length claims.
- Every answer forbids framing, sniffing and cross-site referrers (the token must not leak
  in a Referer; same-origin ones stay, or browsers would send forms with `Origin: null`),
  and its scripts and styles come from this server only.
"""

from __future__ import annotations

import hmac
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
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _host_name(host: str) -> str:
    """`127.0.0.1:8000` → `127.0.0.1`; `[::1]:8000` → `[::1]`."""
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def refuse(send: Send, status: int, text: str) -> None:
    """A short plain-text refusal (nothing of the request echoed back)."""
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The checks above, around the whole app. `token=None`: loopback-only, no token."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body

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
        """The whole body, or None as soon as it passes the limit."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
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
        elif _host_name(_header(scope, b"host") or "") not in LOCAL_HOSTS:
            await refuse(send, 403, "forbidden: this whybot server answers only to this "
                                    "machine's own address")
            return
        if self._cross_site(scope):
            await refuse(send, 403, "forbidden: a form from another site")
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await refuse(send, 413, f"refused: a request body over {self.max_body:,} bytes "
                                    "(the limit request_bytes)")
            return
        body = await self._body(receive)
        if body is None:
            await refuse(send, 413, f"refused: a request body over {self.max_body:,} bytes "
                                    "(the limit request_bytes)")
            return
        await self.app(scope, _replay(body, receive), self._headers(send, set_cookie))

    def _headers(self, send: Send, set_cookie: bool) -> Send:
        token = self.token

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
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
