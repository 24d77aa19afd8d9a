"""Correcting an answer of a past turn on the page, as `whybot fix GAME --turn N` does.

`/g/NAME/turns/N/fix` lists the turn's answers; `?q=ID` asks that question again (the same
input as when it was asked, the old answer filled in). The corrected answer is sent with the
game's turn count (a stale form is refused): the page shows turn N decided again and the later
turns that now decide differently, with "keep them" / "drop them" — and only that second post
saves (`facts/play/fix.py`). The correction travels in the form, as a turn's answers do.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from whybot.facts.play.fix import apply_fix, asked_at, plan_fix
from whybot.facts.play.question import AnswerError, Question

from .decision import TURNS
from .forms import raw_answer, read_answers, table_rows, text, whole, write_answers
from .pages import Pages, fresh, see
from .play import open_game


def _question(asked: list[tuple[Question, Any]], ident: str | None) -> tuple[Question, Any]:
    for question, value in asked:
        if question.id == ident:
            return question, value
    raise AnswerError(f"turn did not ask {ident!r}", path="q")


def fix_page(pages: Pages, request: Request) -> Response:
    """GET: the turn's answers, or (`q`) one of them asked again."""
    name = request.path_params["game"]
    number = whole(request.path_params["number"], "turn", TURNS)
    with pages.lock:
        table = open_game(pages, name)
        asked = asked_at(table, number)
        turns = len(table.game.log)
    ident = request.query_params.get("q")
    if ident is None:
        return pages.render(request, "fix.html", game=name, number=number, turns=turns,
                            asked=asked, q=None)
    question, value = _question(asked, ident)
    return _ask(pages, request, name, number, turns, question, value)


def _ask(pages: Pages, request: Request, name: str, number: int, turns: int,
         question: Question, value: Any, error: AnswerError | None = None) -> Response:
    rows = table_rows(question, [{k: str(v) for k, v in item.items()} for item in value
                                 if isinstance(item, dict)]) \
        if question.kind == "entities" and isinstance(value, list) else []
    return pages.render(request, "fix.html", status=422 if error else 200, game=name,
                        number=number, turns=turns, q=question, asked=[],
                        value=None if question.kind == "entities" else value, rows=rows,
                        error=error.message + (f" ({error.hint})" if error.hint else "")
                        if error else None)


def fix_post(pages: Pages, request: Request, form: FormData) -> Response:
    """POST: a corrected answer (the plan shown, nothing saved), or keep / drop (saved)."""
    name = request.path_params["game"]
    number = whole(request.path_params["number"], "turn", TURNS)
    action = text(form, "action") or "answer"
    with pages.lock:
        table = open_game(pages, name)
        turns = len(table.game.log)
        fresh(text(form, "turn"), turns)
        if action in ("keep", "drop"):
            corrections = dict(read_answers(text(form, "answers")))
            plan = plan_fix(table, number, corrections)
            dropped = apply_fix(table, plan, keep=action == "keep")
            notice = f"Turn {number} was corrected and saved." + (
                f" Dropped turn(s) {', '.join(map(str, dropped))}: play them again."
                if dropped else "")
            return see(request, "game", notice, game=name)
        question, _ = _question(asked_at(table, number), text(form, "question"))
        try:
            value = question.parse(raw_answer(question, form))
            plan = plan_fix(table, number, {question.id: value})
        except AnswerError as exc:
            return _ask(pages, request, name, number, turns, question, None, exc)
    return pages.render(request, "fix.html", game=name, number=number, turns=turns, q=None,
                        asked=[], plan=plan,
                        answers=write_answers([{"id": question.id, "value": value}]))


__all__ = ["fix_page", "fix_post"]
