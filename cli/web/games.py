"""The games folder's pages: the list, a new game (the pack's setup questions), delete.

A new game asks what `whybot new` asks (`setup_questions`): the bots in turn order, the game's
setup facts, and each bot's. Each bot's questions are shown once per seat (`seat0.fate`) and
sent to `Table.new` under the bot chosen for that seat (`red.fate`); an answer that does not fit
comes back beside its field, and no file is written.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from whybot.cli.common import pack_names, pack_title
from whybot.engine import WhybotError
from whybot.facts.game import GameFileError
from whybot.facts.playbook import load_playbook
from whybot.facts.question import AnswerError, Question
from whybot.facts.table import Table, setup_questions

from .forms import text, whole
from .pages import Pages, fresh, see
from .play import open_game

SEAT = "seat"


def games_page(pages: Pages, request: Request) -> Response:
    listed = []
    with pages.lock:
        for entry in pages.folder.games():
            item: dict[str, Any] = {"name": entry.name}
            try:
                table = Table.open(entry.path)
                item.update(pack=table.game.pack, bots=table.game.bots,
                            turns=len(table.game.log))
            except WhybotError as exc:  # listed with its problem, never opened or rewritten
                item["problem"] = exc.render()
            listed.append(item)
    packs = [(name, pack_title(name)) for name in pack_names()]
    return pages.render(request, "games.html", games=listed, packs=packs,
                        notice=request.query_params.get("notice"))


def _seat_questions(pack: str) -> tuple[Question, list[Question], list[Question], int, list]:
    """(the bots question, the game's setup questions, one seat's questions, seats, names)."""
    from whybot.cli.common import pack_for

    book = load_playbook(pack_for(pack))
    questions = setup_questions(pack, [SEAT])
    per_seat = [q for q in questions[1:] if q.id.startswith(f"{SEAT}.")]
    game = [q for q in questions[1:] if q not in per_seat]
    return questions[0], game, per_seat, book.max_bots, book.bot_names or []


def _new_form(pages: Pages, request: Request, pack: str, form: Any = None,
              error: WhybotError | None = None, field: str | None = None) -> Response:
    bots, game, per_seat, seats, names = _seat_questions(pack)
    values = {k: v for k, v in (form.multi_items() if form is not None else [])}
    return pages.render(request, "new.html", status=422 if error else 200, pack=pack,
                        bots=bots, game_questions=game, seat_questions=per_seat,
                        seats=range(seats), names=names, values=values,
                        error=error.message + (f" ({error.hint})" if error.hint else "")
                        if error else None, error_field=field)


def new_page(pages: Pages, request: Request) -> Response:
    pack = request.query_params.get("pack", "")
    if pack not in pack_names():
        raise AnswerError(f"no knowledge pack named {pack!r}", path="pack")
    return _new_form(pages, request, pack)


def _answers(form: Any, seats: int, per_seat: list[Question], game: list[Question],
             ) -> tuple[dict[str, Any], dict[str, str]]:
    """The setup answers `Table.new` takes, and which form field each came from."""
    answers: dict[str, Any] = {}
    fields: dict[str, str] = {}
    bots = []
    for seat in range(seats):
        bot = (text(form, f"{SEAT}{seat}") or "").strip()
        if not bot:
            continue
        bots.append(bot)
        for question in per_seat:
            fact = question.id.partition(".")[2]
            value = text(form, f"{SEAT}{seat}.{fact}")
            if value:
                answers[f"{bot}.{fact}"] = value
                fields[f"{bot}.{fact}"] = f"{SEAT}{seat}.{fact}"
    answers["bots"] = bots
    for question in game:
        value = text(form, question.id)
        if value:
            answers[question.id] = value
    return answers, fields


def new_game(pages: Pages, request: Request, form: FormData) -> Response:
    pack = text(form, "pack") or ""
    if pack not in pack_names():
        raise AnswerError(f"no knowledge pack named {pack!r}", path="pack")
    _, game, per_seat, seats, _ = _seat_questions(pack)
    name = (text(form, "name") or "").strip()
    answers, fields = _answers(form, seats, per_seat, game)
    with pages.lock:
        try:
            seed = _seed(text(form, "seed"))
            path = pages.folder.path(name, exists=False)
            Table.new(path, pack, answers, name=name, seed=seed)
        except (AnswerError, GameFileError, WhybotError) as exc:
            where = "name" if exc.path == "name" or isinstance(exc, GameFileError) else \
                fields.get(exc.path or "", exc.path)
            return _new_form(pages, request, pack, form, exc, where)
    return see(request, "game", game=name)


def _seed(raw: str | None) -> int | None:
    """The game's dice seed: a whole number, or none (a random one)."""
    if raw is None or not raw.strip():
        return None
    return whole(raw, "seed")


def delete_page(pages: Pages, request: Request) -> Response:
    name = request.path_params["game"]
    with pages.lock:
        table = open_game(pages, name)
    return pages.render(request, "delete.html", game=name, turns=len(table.game.log))


def delete_game(pages: Pages, request: Request, form: FormData) -> Response:
    name = request.path_params["game"]
    with pages.lock:
        table = open_game(pages, name)
        fresh(text(form, "turn"), len(table.game.log))
        pages.folder.delete(name)
    return see(request, "games", f"Deleted {name}.")
