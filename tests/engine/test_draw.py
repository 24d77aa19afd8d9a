"""`draw:` — one item at random from a counted pool (a bag of cubes), on the `chance` test pack:
the die it rolls, the name it hands the procedure, pre-rolled faces, and its exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import TOY_PACKS, engine_for
from whybot.engine.errors import DecisionError, RuleFileError
from whybot.engine.load.loader import load_pack_folder
from whybot.engine.odds.distribution import odds
from whybot.facts.snapshot import parse_snapshot


@pytest.fixture(scope="module")
def chance():
    return engine_for(TOY_PACKS, "chance")


def bag(engine, text: str = ""):
    return parse_snapshot("pack: chance\nmode: bag\n" + text, "inline.yaml", engine.pack)


def test_a_pre_rolled_face_counts_the_pool_in_the_order_listed(chance):
    """1 yellow, 2 blue, 3 red: face 1 is the yellow, 2–3 the blues, 4–6 the reds."""
    drawn = {}
    for face in range(1, 7):
        trace = chance.decide(bag(chance, f"dice: [{face}, 1]"), explain=False)
        drawn[face] = trace.decision["result"]
    assert drawn == {1: "found", 2: "blue", 3: "blue", 4: "red", 5: "red", 6: "red"}


def test_the_trace_shows_the_die_and_the_name_drawn(chance):
    trace = chance.decide(bag(chance, "dice: [3, 1]"), explain=False)
    first = trace.as_dict()["dice"][0]
    assert first["dice"] == "1d6" and first["faces"] == [3]
    assert first["drawn"] == "blue"
    assert first["pool"] == "drawn from 1 yellow, 2 blue, 3 red"
    assert first["for"] == "one cube from the bag"


def test_an_empty_colour_is_not_in_the_die(chance):
    """No yellow: the die is a d5 over 2 blue and 3 red; face 1 is a blue."""
    trace = chance.decide(bag(chance, "yellow: 0\ndice: [1, 4]"), explain=False)
    first = trace.as_dict()["dice"][0]
    assert (first["dice"], first["drawn"], first["pool"]) == \
        ("1d5", "blue", "drawn from 2 blue, 3 red")


def test_an_empty_pool_is_a_clear_error(chance):
    with pytest.raises(DecisionError, match=r"draw: the pool is empty \(yellow, blue, red: 0\)"):
        chance.decide(bag(chance, "yellow: 0\nblue: 0\nred: 0"), explain=False)


def test_the_exact_odds_are_the_shares_of_the_pool(chance):
    """P(yellow) = 1/6, P(blue) = 2/6, P(red) = 3/6. Draws of one colour hand the procedure the
    same value, so the die after a blue cube is walked once, not once per blue cube: one run
    finds the draw, six run its faces, six the die after the blue — 13 runs, not 1 + 6 + 12."""
    found = odds(chance, bag(chance))
    assert {o.decision["result"]: o.probability for o in found.outcomes} == \
        {"found": Fraction(1, 6), "blue": Fraction(1, 3), "red": Fraction(1, 2)}
    assert found.runs == 13
    found_path = next(o for o in found.outcomes if o.decision["result"] == "found").paths[0]
    assert found_path[0].spec.labels == ("yellow", "blue", "red")
    assert [found_path[0].spec.shown(v) for v in found_path[0].values] == ["yellow"]


def test_a_draw_names_only_the_pool_and_a_count_must_be_a_known_value(tmp_path):
    """A rule comparing the name drawn with a name not in the pool, or counting a value nobody
    declared, is refused at load, naming the rule."""
    pack = tmp_path / "bagged"
    (pack / "pages").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "pack: bagged\ntitle: t\nstart: start\nfacts:\n  board:\n"
        "    n: {type: integer, default: 1}\n", encoding="utf-8")
    page = pack / "pages" / "start.yaml"
    page.write_text(
        "pack: bagged\nprocedure: start\nrules:\n  - id: start.draw\n    then:\n"
        "      draw: {from: {a: n, b: 2}, as: got}\n      continue: true\n"
        "  - id: start.c\n    when: got == 'c'\n    then: {stop: c}\n", encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"start\.c"):
        load_pack_folder(pack)
    page.write_text(
        "pack: bagged\nprocedure: start\nrules:\n  - id: start.draw\n    then:\n"
        "      draw: {from: {a: nn, b: 2}, as: got}\n      stop: done\n", encoding="utf-8")
    with pytest.raises(RuleFileError, match="nn"):
        load_pack_folder(pack)
