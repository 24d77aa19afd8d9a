"""Asking only what the walk reaches loses nothing: for hand-worked examples of every pack,
answering each question asked with the example's own value (the pack's default where the
example leaves a fact out, as the example itself assumes) decides exactly as the example —
the same result, choices, actions and every rule fired; and each question asked is a value
the example gives or a default its own decision reads (its Assumed block), never another."""

from __future__ import annotations

import copy

import pytest

from whybot.cli.common import engine_for
from whybot.engine.load.sources import Document
from whybot.engine.walk.facts_read import Reading
from whybot.facts.inquiry import Inquiry
from whybot.facts.ledger import compact
from whybot.facts.snapshot import situation_from

from .helpers import EXAMPLES, example

# every third example of each pack (all 195 take a minute; these a third of it)
PATHS = [p for pack in ("arcs", "yellow_scarves", "sparta_athens")
         for p in sorted((EXAMPLES / pack).rglob("*.yaml"))[::3]
         if "house" not in p.name]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_questions_asked_decide_as_the_example(path):
    values = example(path)
    engine = engine_for(values["pack"])
    seed = (values.get("expect") or {}).get("seed", 0)
    expected = engine.decide(situation_from(Document(copy.deepcopy(values), str(path)),
                                            engine.pack), seed=seed, explain=False,
                             reading=Reading())
    board = engine.pack.facts.board
    # what a player states rather than is asked: the decision point, a resume (not assumed)
    start = {k: v for k, v in values.items() if k in ("pack", "dice")
             or (k in board and not board[k].assumed)}
    asked = []

    def answer(question, _inquiry):
        asked.append(question.name)
        if question.what == "answer":
            return values.get("answers", {}).get(question.name, question.value)
        if question.what == "list":
            return values.get(question.name, [])
        return values.get(question.name, board[question.name].default)

    trace, _ = Inquiry(engine, start, str(path), seed=seed).run(answer)
    assert compact(trace, engine.pack) == compact(expected, engine.pack)
    assert len(asked) == len(set(asked))  # never the same question twice
    assumed = {a["name"] for a in expected.assumed}
    assert set(asked) <= set(values) | set(values.get("answers", {})) | assumed
