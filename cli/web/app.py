"""`whybot serve`'s web app: the routes, and how a refusal becomes a page.

Pages are server-rendered HTML with plain forms (a small script only adds steppers and rows);
the stylesheet and script are shipped in the package, nothing is fetched from elsewhere. The
handlers are in `games.py` (the folder), `play.py` (a game, its turn, undo) and `decision.py`
(a logged turn, why, odds); `guard.py` checks every request before any of them.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from whybot.engine import EngineFault, WhybotError
from whybot.engine import current_limits as limits
from whybot.facts.play.first import words_of
from whybot.facts.play.game import GameFileError
from whybot.facts.play.ledger import summary
from whybot.facts.play.wording import plain

from . import decision, fixpage, games, play
from .folder import GamesFolder, NoSuchGame, NotInFolder
from .forms import shown
from .guard import Guard
from .pages import HERE, Pages, Stale

GAME = "/g/{game:str}"


def _routes(pages: Pages) -> list[Any]:
    def page(handler: Any) -> Any:
        return partial(handler, pages)

    def form(handler: Any) -> Any:
        """A POST page: its form read (within the body limit), then the page in a worker
        thread like every other, so the engine never blocks the server's event loop."""
        async def posted(request: Request) -> Response:
            data = await request.form(max_files=0, max_fields=2000)
            return await run_in_threadpool(handler, pages, request, data)
        return posted

    return [
        Route("/", page(games.games_page), name="games"),
        Route("/new", page(games.new_page), name="new", methods=["GET"]),
        Route("/new", form(games.new_game), name="new_post", methods=["POST"]),
        Route(GAME, page(play.game_page), name="game"),
        Route(GAME + "/delete", page(games.delete_page), name="delete", methods=["GET"]),
        Route(GAME + "/delete", form(games.delete_game), methods=["POST"]),
        Route(GAME + "/turn", page(play.turn_start), name="turn", methods=["GET"]),
        Route(GAME + "/turn", form(play.turn_answer), methods=["POST"]),
        Route(GAME + "/undo", form(play.undo), name="undo", methods=["POST"]),
        Route(GAME + "/redo", form(play.redo), name="redo", methods=["POST"]),
        Route(GAME + "/turns/{number}", page(decision.decision_page), name="decision"),
        Route(GAME + "/turns/{number}/odds", page(decision.odds_page), name="odds"),
        Route(GAME + "/turns/{number}/fix", page(fixpage.fix_page), name="fix", methods=["GET"]),
        Route(GAME + "/turns/{number}/fix", form(fixpage.fix_post), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]


def _handlers(pages: Pages) -> dict[Any, Any]:
    """Each refusal as a page with the right status: the one line the CLI would print."""
    def refused(request: Request, exc: Exception) -> Response:
        back = None
        game = request.path_params.get("game")
        if isinstance(exc, Stale | GameFileError) and game:
            back = str(request.app.url_path_for("game", game=game))
        status, heading = {
            NotInFolder: (404, "Not a game of this folder"),
            NoSuchGame: (404, "No such game"),
            Stale: (409, "This page is out of date"),
            GameFileError: (409, "The game file cannot be used"),
        }.get(type(exc), (400, "That cannot be done"))
        if isinstance(exc, EngineFault):
            status, heading = 500, "An engine fault (a bug in whybot, please report it)"
        return pages.problem(request, status, heading, str(exc) if isinstance(
            exc, EngineFault) else exc, back=back or str(request.app.url_path_for("games")),
            back_label="Reload the game" if back else "The games")

    def http(request: Request, exc: HTTPException) -> Response:
        return pages.problem(request, exc.status_code, "Not here", exc.detail or "not found",
                             back=str(request.app.url_path_for("games")))

    def fault(request: Request, exc: Exception) -> Response:
        """Last resort: a bug. The page says so in one line, never the exception's text (it
        may name the server's files); `Guard` logs one line of it for the terminal."""
        return pages.problem(request, 500, "An internal error (a bug in whybot, please report "
                             "it)", "the request was not completed; the server's "
                             "terminal names the error", back=str(request.app.url_path_for(
                                 "games")))

    return {WhybotError: refused, EngineFault: refused, HTTPException: http, Exception: fault}


def create_app(games_dir: Path, token: str | None = None, host: str | None = None) -> Guard:
    """The app for the games in `games_dir`; `token`: required on every request if given;
    `host`: the address listened on, a Host the server answers to besides this machine's."""
    pages = Pages(GamesFolder.at(games_dir))
    pages.templates.globals["shown"] = shown
    pages.templates.globals["plain"] = plain
    pages.templates.globals["picked"] = words_of
    pages.templates.filters["summary"] = summary
    app = Starlette(routes=_routes(pages), exception_handlers=_handlers(pages))
    return Guard(app, token, limits().request_bytes, host)
