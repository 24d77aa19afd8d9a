"""The pages of one game: its board state and log, the next turn's questions, undo, redo.

Each handler opens the game file through the table API (`facts/play/table.py`), under the one lock
(`pages.py`), and checks that the form was made for the game as it is now (the turn count it
carries) before anything is written. A turn's answers travel in its form (`forms.py`); when the
procedure asks nothing more, the turn is decided, recorded and saved by `Table.record`, and the
page goes to the decision.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from whybot.facts.play.offer import next_point
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table
from whybot.facts.play.turn import DICE_MODES, Turn

from .forms import raw_answer, read_answers, table_rows, text, write_answers, write_flow
from .pages import Pages, fresh, see


def open_game(pages: Pages, name: str) -> Table:
    return Table.open(pages.folder.path(name))


def points(table: Table) -> list[Any]:
    """The decision points a play can be at (the pack's `point:` fact's choices), if any."""
    point = table.playbook.point
    if not point:
        return []
    spec = table.engine.pack.facts.board[point]
    return list(table.engine.pack.allowed(spec) or [])


def game_page(pages: Pages, request: Request) -> Response:
    """The game, and the next turn the flow offers: first its question, if it asks one (a
    trigger only the table knows, answered with a button: the page again, one answer more)."""
    name = request.path_params["game"]
    query = request.query_params
    flow = dict(read_answers(query.get("flow")))
    if query.get("asked"):
        flow[str(query["asked"])] = query.get("value", "")
    with pages.lock:
        table = open_game(pages, name)
        offer = next_point(table, flow)
    game = table.game
    asking = offer.question if offer is not None else None
    ready = offer if asking is None else None
    return pages.render(request, "game.html", game=name, table=table, state=game.state,
                        pending=game.pending, log=table.log_lines(),
                        next_bot=ready.bot if ready else table.next_bot(),
                        points=points(table), offer=ready, asking=asking,
                        flow=write_flow(offer.said if offer else {}), dice_modes=DICE_MODES,
                        notice=query.get("notice"))


def _question_page(pages: Pages, request: Request, name: str, turn: Turn, point: str | None,
                   error: AnswerError | None = None, value: Any = None,
                   rows: list[dict[str, str]] | None = None) -> Response:
    questions = turn.questions()
    question = questions[0] if questions else None
    shown_error = None
    if error is not None:
        shown_error = error.message + (f" ({error.hint})" if error.hint else "")
        if error.path and question is not None and error.path != question.id:
            shown_error = f"{error.path}: {shown_error}"
    return pages.render(request, "question.html", status=422 if error else 200, game=name,
                        turn=turn, q=question, point=point, flow=write_flow(turn.flow),
                        answers=write_answers(turn.asked()), error=shown_error, value=value,
                        rows=table_rows(question, rows)
                        if question is not None and question.kind == "entities" else [])


def turn_start(pages: Pages, request: Request) -> Response:
    """GET: the first question of the next turn (bot, point and dice from the query); when
    nothing is open, a button that decides (a GET never writes)."""
    name = request.path_params["game"]
    query = request.query_params
    with pages.lock:
        table = open_game(pages, name)
        turn = pages.turns.take(table, query.get("bot"), query.get("point"),
                                query.get("dice", "roll"), None, query.get("moves") == "1",
                                query.get("flow"))
        pages.turns.keep(turn, query.get("point"))
        return _question_page(pages, request, name, turn, query.get("point"))


def turn_answer(pages: Pages, request: Request, form: FormData) -> Response:
    """POST: one answer (or back, or "roll for me"); the next question, or the decision."""
    name = request.path_params["game"]
    with pages.lock:
        table = open_game(pages, name)
        fresh(text(form, "turn"), len(table.game.log))
        action = text(form, "action") or "answer"
        dice = "roll" if action == "roll" else text(form, "dice")
        point = text(form, "point")
        turn = pages.turns.take(table, text(form, "bot"), point, dice, text(form, "answers"),
                                text(form, "moves") == "1", text(form, "flow"))
        question = turn.next_question()
        if action == "back":
            turn.back()
        elif action == "answer" and question is not None:
            if text(form, "question") != question.id:
                pages.turns.keep(turn, point)
                return _question_page(pages, request, name, turn, point, AnswerError(
                    "this answer was for another question: answer the one shown",
                    path=question.id))
            rows, raw = None, None
            try:
                raw = raw_answer(question, form)
                rows = raw if question.kind == "entities" else None
                turn.answer(question.id, raw)
            except AnswerError as exc:
                pages.turns.keep(turn, point)
                return _question_page(pages, request, name, turn, point, exc, value=raw
                                      if question.kind == "group" else text(form, "value"),
                                      rows=rows)
        if turn.next_question() is not None:
            pages.turns.keep(turn, point)
            return _question_page(pages, request, name, turn, point)
        entry = table.record(turn.decide())
    return see(request, "decision", game=name, number=entry["turn"])


def undo(pages: Pages, request: Request, form: FormData) -> Response:
    """POST: take the last turn back, if the form was made for the game's last turn."""
    return _rewind(pages, request, form, back=True)


def redo(pages: Pages, request: Request, form: FormData) -> Response:
    """POST: put back the turn taken back last, if the form was made for the game as it is."""
    return _rewind(pages, request, form, back=False)


def _rewind(pages: Pages, request: Request, form: FormData, back: bool) -> Response:
    name = request.path_params["game"]
    with pages.lock:
        table = open_game(pages, name)
        fresh(text(form, "turn"), len(table.game.log))
        entry = table.undo() if back else table.redo()
    done = "taken back" if back else "put back"
    notice = (f"Turn {entry['turn']} ({entry['bot']}) was {done}." if entry
              else f"There was no turn to be {done}.")
    return see(request, "game", notice, game=name)
