"""The evaluator (the explainer and the reference) agrees with durable_rules on any condition:
comparisons, arithmetic (compiled or hoisted), `in`, aggregates, joins between `exists`,
board values read inside `exists`, negation — over random boards and entities."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from tests.conftest import TOY_PACKS
from tests.engine.strategies import boards, conditions, slot_lists, token_lists
from whybot.engine import load_pack
from whybot.engine.decide import compile_pages
from whybot.engine.derive.derivation import EID
from whybot.engine.derive.entities import EntityStore
from whybot.engine.evaluator.evaluate import World, holds
from whybot.engine.language.pack import Page
from whybot.engine.language.parser import parse
from whybot.engine.walk.pages import DurablePages

AGREE = load_pack(TOY_PACKS, "agree")


def _fires(text: str, board: dict, tokens: list[dict], slots: list[dict]) -> bool:
    """Compile `text` as a one-rule page and ask durable_rules whether it applies."""
    base = AGREE.pages["p"].rules[0]
    rule = replace(base, id="r", when=parse(text, AGREE.kinds), when_text=text)
    pack = replace(AGREE, pages={"p": Page("p", "p", "", "decision", [rule])})
    entities = {"token": [{EID: i + 1, **t} for i, t in enumerate(tokens)],
                "slot": [{EID: 10 + i, **s} for i, s in enumerate(slots)]}
    store = EntityStore(entities)
    session = DurablePages(compile_pages(pack)).open(store)
    try:
        fired, _ = session.first("p", 1, World(board, store.by_kind))
    finally:
        session.close()
    return fired is not None


@settings(max_examples=250, deadline=None)
@given(conditions, boards, token_lists, slot_lists)
def test_the_evaluator_agrees_with_durable_rules(text, board, tokens, slots):
    world = World(board, {"token": tokens, "slot": slots})
    assert _fires(text, board, tokens, slots) == holds(parse(text, AGREE.kinds), world), text


def test_a_missing_value_fails_every_comparison_in_both():
    for text in ("coins == 1", "coins != 1", "not (coins == 1)", "coins in [1, 2]"):
        assert not _fires(text, {}, [], []) and not holds(parse(text), World({})), text
