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

from whybot.engine import WhybotError, excerpt

from .folder import GamesFolder
from .forms import whole
from .turns import Turns

HERE = Path(__file__).parent
PROBLEM_CHARS = 600  # a refusal's line: room for a file, a message and a hint
# An absolute path of two parts or more in a page's text, not inside a word, a URL or a
# relative path; its quotes are entities (`&#39;`) by then. Attributes are left alone: a form's
# hidden answers carry the player's own text.
_ABSOLUTE = re.compile(r"(?<![\w/.:~-])/(?:[^\s/<>&():,;]+/)+([^\s/<>&():,;]*)")
_TEXT = re.compile(r">([^<]+)<")


def unrooted(html: str, root: str) -> str:
    """A page without the server's paths: a game file named as in the games folder (`g1.yaml`),
    any other absolute path in its text (a pack's rule file, a module) cut to its last part."""
    if len(root) > 1:
        html = html.replace(root + "/", "").replace(root, ".")
    return _TEXT.sub(lambda text: ">" + _ABSOLUTE.sub(r"\1", text[1]) + "<", html)


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
        return HTMLResponse(unrooted(html, str(self.folder.root)), status_code=status,
                            headers={"cache-control": "no-store"})

    def problem(self, request: Request, status: int, heading: str, error: WhybotError | str,
                back: str | None = None, back_label: str | None = None) -> HTMLResponse:
        """A refusal as a page: one line saying what is wrong (and a way back), cut short and
        escaped as the CLI's are (it may quote a 5,000-character name from the address)."""
        text = excerpt(error if isinstance(error, str) else error.render(), PROBLEM_CHARS)
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
