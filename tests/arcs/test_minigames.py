"""SUPERCAT § Pathfinder › Find the Portal Minigames: the Cube Bag (step: cube_bag — the cubes
added and removed by meeples, rows and columns, and the draw, with its exact odds) and the
Letter Tiles (step: letter_tiles — the setup, and the tiles turned at the target)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.arcs.fates.helpers import MAP, planets
from tests.arcs.helpers import decide
from tests.conftest import ROOT
from tests.pack_examples import decide_example, missing_says, missing_why_not
from whybot.cli.app import app
from whybot.facts.snapshot import parse_snapshot

EXAMPLES = ROOT / "facts" / "examples" / "arcs"
MINIGAME_EXAMPLES = sorted([*(EXAMPLES / "cube_bag").glob("*.yaml"),
                            *(EXAMPLES / "letter_tiles").glob("*.yaml")])
NAMES = [f"{symbol.capitalize()} {cluster}" for symbol, cluster in MAP]


def cube_bag(tokens: dict[str, str], target: str, extra: str = "") -> str:
    return "step: cube_bag\n" + extra + planets(tokens, flagship=target)


@pytest.mark.parametrize("path", MINIGAME_EXAMPLES,
                         ids=[f"{p.parent.name}/{p.stem}" for p in MINIGAME_EXAMPLES])
def test_each_example_says_what_its_notes_work_out(arcs, path: Path):
    trace, expect = decide_example(arcs, path)
    assert missing_says(trace, expect) == [], trace.decision["say"]
    assert missing_why_not(trace, expect) == []


@pytest.mark.parametrize(("example", "odds", "colours"), [
    ("no_meeples", {"portal_found": "1/18", "clue_check": "7/18", "clue_x": "5/9"},
     ["yellow", "blue", "red"]),
    ("with_meeples", {"portal_found": "1/5", "clue_x": "4/5"}, ["yellow", "red"]),
])
def test_the_exact_chance_of_finding_the_portal(example: str, odds: dict[str, str],
                                                colours: list[str]):
    """`whybot odds` over the draw (the example's pre-rolled die set aside): without meeples
    1 yellow cube of 18; with the “check” on Hex 1 and the “x” on Arrow 2, 1 of 5."""
    data = odds_json(EXAMPLES / "cube_bag" / f"{example}.yaml", "--prerolled", "0", "--by",
                     "result")
    assert {o["decision"]["result"]: o["probability"] for o in data["outcomes"]} == odds
    assert data["total"] == "1"
    (draw,) = data["rolls"]
    assert draw["labels"] == colours
    portal = next(o for o in data["outcomes"] if o["decision"]["result"] == "portal_found")
    assert portal["dice"] == [[{"roll": "A", "values": [1], "drawn": ["yellow"]}]]


def odds_json(*args) -> dict:
    result = CliRunner().invoke(app, ["odds", *map(str, args), "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_cubes_are_the_possible_portal_locations_and_their_colours_the_clue(arcs):
    """For maps whose Clue tokens tell the truth about a hidden Portal (L811–813, readings R62),
    the cubes left in the cup are exactly the possible Portal locations the Pathfinder pages
    derive; yellow on the target if it is one of them, blue where the Portal would make the
    target a “check” (sharing exactly one of cluster and symbol), red where an “x”."""
    chance = random.Random(11)
    for _ in range(25):
        portal = chance.choice(list(MAP))
        tokens = {}
        for symbol, cluster in chance.sample([p for p in MAP if p != portal], 4):
            shared = (symbol == portal[0]) + (cluster == portal[1])
            tokens[f"{symbol.capitalize()} {cluster}"] = "check" if shared == 1 else "x"
        target = chance.choice([n for n in NAMES if n not in tokens])
        situation = parse_snapshot("pack: arcs\n" + cube_bag(tokens, target), "inline.yaml",
                                   arcs.pack)
        run = arcs.derive(arcs.inputs(situation), situation.entities, situation.answers)
        spaces = {p["name"]: p for p in run.entities["planet"]}
        possible = {n for n, p in spaces.items() if p.get("possible")}
        cubed = {n for n, p in spaces.items() if p.get("cube", "none") != "none"}
        assert cubed == possible, (tokens, target)
        t = spaces[target]
        for name in cubed:
            p = spaces[name]
            shared = (p["symbol"] == t["symbol"]) + (p["cluster"] == t["cluster"])
            expected = "yellow" if name == target else "blue" if shared == 1 else "red"
            assert p["cube"] == expected, (tokens, target, name)


def test_a_red_meeple_in_the_pawns_row_removes_the_yellow_cube(arcs):
    """L754: "(including any cube from the space with the pawn if it intersects with a red
    meeple)": an “x” on Arrow 2 and the pawn on Moon 2 — the yellow goes with the cubes of row 2
    and column Arrow: 5 blue (Moon 1, 3–6) and 5 red (Hex 1, 3–6) stay, the Portal cannot be
    found on Moon 2."""
    trace = decide(arcs, cube_bag({"Arrow 2": "x"}, "Moon 2", "dice: [1]\n"))
    assert any("drawn from 5 blue, 5 red" in r["pool"] for r in trace.as_dict()["dice"])
    assert trace.decision["result"] == "clue_check"


def test_clue_tokens_that_contradict_each_other_leave_no_cube(arcs):
    """A “check” and an “x” on the same row and column lines (Hex 1 “check”, Hex 2 “x”, Arrow 1
    “x”, Moon 1 “x”): nothing can be the Portal — L657's promise fails, the table is told."""
    trace = decide(arcs, cube_bag({"Hex 1": "check", "Hex 2": "x", "Arrow 1": "x",
                                   "Moon 1": "x", "Hex 3": "x", "Hex 4": "x", "Hex 5": "x",
                                   "Hex 6": "x"}, "Moon 4"))
    assert trace.decision["result"] == "no_cubes"
    assert trace.dice == []


def test_a_cube_the_cup_cannot_hold_is_refused(arcs):
    """The table says it drew a blue cube, but with the pawn on Moon 1 (a “check” on Hex 1, an
    “x” on Arrow 2) the cup holds only 1 yellow and 4 red."""
    trace = decide(arcs, cube_bag({"Hex 1": "check", "Arrow 2": "x"}, "Moon 1",
                                  "cube_drawn: blue\n"))
    assert trace.decision["result"] == "no_cubes"
    assert "The cup holds no blue cube" in trace.decision["say"][-1]


def test_no_minigame_once_the_portal_is_found_or_without_the_whole_map(arcs):
    found = decide(arcs, cube_bag({"Hex 4": "portal"}, "Moon 1"))
    assert found.decision["result"] == "portal_found_already"
    half = "step: cube_bag\n" + "\n".join(planets({}, "Hex 1").splitlines()[:10]) + "\n"
    assert decide(arcs, half).decision["result"] == "list_planets"
    tiles = decide(arcs, "step: letter_tiles\ntiles_placed: true\ntiles_turned: true\n"
                   "vowels_turned: 1\n" + planets({"Hex 4": "portal"}, "Moon 1"))
    assert tiles.decision["result"] == "portal_found_already"


def test_the_letter_tiles_setup_needs_no_map_and_rolls_nothing(arcs):
    """L786, L800: the player must not know which group is which — whybot rolls no die."""
    trace = decide(arcs, "step: letter_tiles\ntiles_placed: false\n")
    assert trace.decision["result"] == "tiles_setup"
    assert trace.dice == []
    assert [s.rule for s in trace.steps if s.rule.startswith("letter_tiles.setup")] == [
        "letter_tiles.setup.groups-of-six", "letter_tiles.setup.randomize-symbols",
        "letter_tiles.setup.place-symbols", "letter_tiles.setup.groups-of-three",
        "letter_tiles.setup.randomize-clusters", "letter_tiles.setup.place-clusters",
        "letter_tiles.setup.mix"]


def test_the_tiles_decide_the_token(arcs):
    """L813: two vowels the Portal, one a “check”, none an “x”."""
    results = {vowels: decide(arcs, "step: letter_tiles\ntiles_placed: true\ntiles_turned: true\n"
                                    f"vowels_turned: {vowels}\n" + planets({}, "Hex 2")
                              ).decision["result"] for vowels in (0, 1, 2)}
    assert results == {0: "clue_x", 1: "clue_check", 2: "portal_found"}


def test_the_draw_replays_a_pre_rolled_face(arcs):
    """A pre-rolled face counts the cubes yellow first, then blue, then red (no meeples, the
    pawn on Moon 6: face 1 yellow, 2–8 blue, 9–18 red)."""
    drawn = {face: decide(arcs, cube_bag({}, "Moon 6", f"dice: [{face}]\n")).decision["result"]
             for face in (1, 2, 8, 9, 18)}
    assert drawn == {1: "portal_found", 2: "clue_check", 8: "clue_check", 9: "clue_x",
                     18: "clue_x"}


def test_every_section_of_the_minigames_is_cited(arcs):
    from whybot.engine.load.coverage import coverage

    sections = {s["title"]: s for s in coverage(arcs.pack)["sections"]
                if s["title"].startswith("Pathfinder › Find the Portal")}
    assert len(sections) == 10
    assert {title for title, s in sections.items() if s["status"] != "cited"} == set()
