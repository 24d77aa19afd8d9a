"""Playing a turn through the table API with a hand-worked example's own values."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from whybot.engine.errors import SnapshotError
from whybot.engine.load.sources import read_document
from whybot.facts.includes import with_includes
from whybot.facts.play.first import FIRST, NONE
from whybot.facts.play.first import given as picked
from whybot.facts.play.table import Table
from whybot.facts.play.turn import Turn

EXAMPLES = Path(__file__).resolve().parents[2] / "facts" / "examples"


def example(path: str | Path) -> dict[str, Any]:
    """An example snapshot with what it includes merged in."""
    document = with_includes(read_document(EXAMPLES / path, SnapshotError))
    return copy.deepcopy(document.data)


def value_for(question: Any, values: dict[str, Any], dice: list[int]) -> Any:
    """The example's value for a question (a judgment under answers:, dice in order); the
    pack's default where the example leaves it out, as the example itself assumes."""
    if question.what == "dice":
        faces = dice[:question.count]
        del dice[:question.count]
        return faces
    if question.what == "review":  # still so, unless the example gives one of them
        return not any(name in values for name in question.known)
    if question.what == "group":  # facts asked together: each the example's own
        return {f.id: values.get(f.id, f.spec.default) for f in question.fields}
    if question.what == FIRST:  # the first of a run the example answers yes
        said = values.get("answers", {})
        return next((m.id for m in question.fields if said.get(m.id, m.spec.default)), NONE)
    if question.what == "list":
        return values.get(question.id, [])
    if question.what == "answer":
        return values.get("answers", {}).get(question.id, question.spec.default)
    return values.get(question.id, question.spec.default)


def given(question: Any, values: dict[str, Any], missing: Any = False) -> Any:
    """An answers file's value for a question: a group's facts each by its own id."""
    if question.what == "group":
        return {f.id: values[f.id] for f in question.fields}
    if question.what == FIRST:
        return next((m.id for m in question.fields if values.get(m.id, missing)), NONE)
    return values.get(question.id, missing)


def play(table: Table, values: dict[str, Any], *, bot: str | None = None,
         point: Any = None, dice: str = "roll") -> tuple[Turn, list[str]]:
    """Answer every question the turn asks from `values`; the turn and the ids asked (of a
    run asked as one, first.py, each judgment the pick answered)."""
    turn = table.turn(bot, point, dice, moves=any(key in values for key in table.move_lists))
    faces = list(values.get("dice", []))
    asked = []
    while (question := turn.next_question()) is not None:
        value = turn.answer(question.id, value_for(question, values, faces))
        asked += list(picked(question, value)) if question.what == FIRST else [question.id]
    return turn, asked


def said_in(entry: dict[str, Any]) -> list[str]:
    """The ids a logged turn asked, in order, a run asked as one (first.py) by the judgments
    its pick answered."""
    return [name for asked in entry["asked"] for name in asked.get("said", [asked["id"]])]


def chapter_begun(run: Any, game: Path, setup: Path, chapter: Path, seed: int = 11) -> Path:
    """A new Arcs game from the `setup` answers, its chapter begun with the `chapter` ones."""
    result = run("new", "arcs", game, "--seed", str(seed), "--answers", setup)
    assert result.exit_code == 0, result.output
    result = run("play", game, "--at", "chapter", "--answers", chapter)
    assert result.exit_code == 0, result.output
    return game
