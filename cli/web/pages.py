"""What every page handler shares: the games folder, the one table lock, and rendering.

The lock: every request that reads a game and may write it holds one lock from reading the file
to writing it, so two tabs (or two phones) on one game take turns; a form rendered before the
other tab's change then fails its freshness check (the turn count it carries) instead of being
applied twice. It also serialises the engine's calls (durable_rules gains nothing from threads).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from whybot.engine.errors import WhybotError

from .folder import GamesFolder
from .forms import whole
from .turns import Turns

HERE = Path(__file__).parent
# An absolute path of two parts or more, not inside a word, a URL or a relative path.
_ABSOLUTE = re.compile(r"(?<![\w/.:~-])/(?:[^\s/'\"<>():,;]+/)+([^\s/'\"<>():,;]*)")


class Stale(WhybotError):
    """A form rendered for a state of the game that has changed since (another tab's turn)."""


@dataclass
class Pages:
    folder: GamesFolder
    lock: threading.Lock = field(default_factory=threading.Lock)
    turns: Turns = field(default_factory=Turns)
    templates: Environment = field(default_factory=lambda: Environment(
        loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
        trim_blocks=True, lstrip_blocks=True))

    def render(self, request: Request, template: str, status: int = 200,
               **context: Any) -> HTMLResponse:
        def url(name: str, **params: Any) -> str:
            return str(request.app.url_path_for(name, **{k: str(v) for k, v in params.items()}))

        html = self.templates.get_template(template).render(url=url, request=request,
                                                            **context)
        root = str(self.folder.root)
        if len(root) > 1:  # a game file as the folder names it, wherever a page quotes it
            html = html.replace(root + "/", "").replace(root, ".")
        return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})

    def problem(self, request: Request, status: int, heading: str, error: WhybotError | str,
                back: str | None = None, back_label: str | None = None) -> HTMLResponse:
        """A refusal as a page: one line saying what is wrong (and a way back). A path
        outside the games folder (a pack's file, the server's own) is cut to its last part:
        the page must not tell a client where the server's files are."""
        text = error if isinstance(error, str) else error.render()
        text = _ABSOLUTE.sub(r"\1", " ".join(text.split()))
        return self.render(request, "problem.html", status, heading=heading, message=text,
                           back=back, back_label=back_label)


def see(request: Request, name: str, notice: str | None = None, **params: Any,
        ) -> RedirectResponse:
    """After a form that changed something: go to a page (so a reload sends nothing again),
    with a line saying what was done."""
    where = str(request.app.url_path_for(name, **{k: str(v) for k, v in params.items()}))
    if notice:
        where += "?" + urlencode({"notice": notice})
    return RedirectResponse(where, status_code=303)


def fresh(given: str | None, now: int) -> None:
    """Refuse a form rendered for another state: `given` is the turn count it was made for."""
    try:
        same = whole(given, "turn") == now
    except WhybotError:
        same = False
    if not same:
        raise Stale("this page is out of date: the game has changed since it was shown "
                    "(another tab or device played or undid a turn). Reload the game and "
                    "try again; nothing was changed.")
