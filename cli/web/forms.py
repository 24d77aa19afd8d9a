"""Between HTML forms and the table API's questions: what a form sends, as the raw answer.

The page holds no answer logic: a form's fields are read back as the text a player would type
at `whybot play` (an entity table as a list of mappings of text), and `Question.parse` — the
same check the CLI uses — turns them into values or an error naming the field. The answers
given so far travel with the form (`answers`, JSON), so a turn is rebuilt from them on every
request (`Table.turn(answers=...)`): no session state on the server, and a reload of a
question page asks the same question again.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.datastructures import FormData

from whybot.engine import WhybotError
from whybot.facts.play.naming import TARGET, raw_of
from whybot.facts.play.question import AnswerError, Question
from whybot.facts.play.wording import plain

_CELL = re.compile(r"value\.([0-9]{1,3})\.([A-Za-z_][A-Za-z0-9_.]{0,80})")
MAX_ROWS = 200
_WHOLE = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() takes "²", which int() refuses


def whole(raw: str | None, name: str, most: int = 999_999_999) -> int:
    """A whole number from a form field or a URL, 0 to `most`; AnswerError (a 400 or the
    field's error) otherwise. Every number a request carries is read here, so "²", "٣" or a
    5,000-digit turn is one line, never a ValueError; the text is not echoed back."""
    value = (raw or "").strip(" \t")
    if not _WHOLE.fullmatch(value) or int(value) > most:
        raise AnswerError(f"not a whole number from 0 to {most:,}", path=name)
    return int(value)


def text(form: FormData, name: str) -> str | None:
    value = form.get(name)
    return value if isinstance(value, str) else None


def read_answers(raw: str | None) -> list[tuple[str, Any]]:
    """The answers a form carried: a JSON list of [id, value] pairs (anything else: refused)."""
    if not raw:
        return []
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the stack
        raise WhybotError("the form's answers are not readable: reload the page") from None
    if not isinstance(data, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in data):
        raise WhybotError("the form's answers are not readable: reload the page")
    return [(ident, value) for ident, value in data]


def write_answers(answers: list[dict[str, Any]]) -> str:
    """`Turn.asked()` as the form carries it."""
    return json.dumps([[a["id"], raw_of(a)] for a in answers], ensure_ascii=False,
                      separators=(",", ":"))


def write_flow(answers: dict[str, Any]) -> str:
    """The answers to the flow's questions (`Turn.flow`) as a form carries them: as answers."""
    return write_answers([{"id": ident, "value": value} for ident, value in answers.items()])


def _rows(form: FormData) -> list[dict[str, str]]:
    """An entity table's cells (`value.ROW.FIELD`), row by row; empty cells and empty rows
    left out (an empty table is the answer "none")."""
    rows: dict[int, dict[str, str]] = {}
    for key, value in form.multi_items():
        match = _CELL.fullmatch(key)
        if match and isinstance(value, str) and value.strip():
            row = int(match.group(1))
            if row >= MAX_ROWS:
                raise AnswerError(f"at most {MAX_ROWS} rows", path="value")
            rows.setdefault(row, {})[match.group(2)] = value.strip()
    return [rows[i] for i in sorted(rows)]


def raw_answer(question: Question, form: FormData) -> Any:
    """What the form says for `question`, as typed text (or rows of it); AnswerError when
    nothing was given."""
    if question.kind == "entities":
        return _rows(form)
    if question.kind == "names":  # each target's name (`value.named.N`), any left empty
        return {f.id: text(form, f"value.{f.id}") or "" for f in question.fields}
    if question.kind == "group":  # one field per fact asked together (`value.FACT`)
        given = {f.id: value.strip() for f in question.fields
                 if (value := text(form, f"value.{f.id}")) and value.strip()}
        if not given:
            raise AnswerError("give an answer", path=question.id)
        return given
    value = text(form, "value")
    if value is None or not value.strip():
        raise AnswerError("give an answer", path=question.id)
    target = (text(form, TARGET) or "").strip() if question.nameable else ""
    return {"answer": value, TARGET: target} if target else value


def table_rows(question: Question, error_rows: list[dict[str, str]] | None = None,
               spare: int = 3) -> list[dict[str, Any]]:
    """The rows an entity table starts with: what was just sent (after an error), else the
    entries given last time (the game remembers them), else the entries the game keeps (by
    their label), then `spare` empty rows."""
    if error_rows is not None:
        rows = [dict(r) for r in error_rows]
    elif question.last and isinstance(question.default, list):
        rows = [dict(item) for item in question.default]
    else:
        rows = [{question.label: label, **fields} for label, fields in question.known.items()
                if question.label]
    return rows + [{} for _ in range(spare)]


def shown(value: Any) -> str:
    """A value as the form's field shows it (yes/no for booleans)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):  # facts asked together
        return ", ".join(f"{plain(name)} {shown(item)}" for name, item in value.items())
    return str(value)
