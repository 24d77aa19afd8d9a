"""The map as data: a border given once is seen from both provinces; a snapshot that names
something not listed is one line naming the field (exit 2 on the command line)."""

from __future__ import annotations

import pytest

from tests.yellow_scarves.helpers import GRID_BORDERS, decide, grid, snapshot
from whybot.engine import SnapshotError


def test_a_border_given_once_is_seen_from_both_provinces(ys):
    """Aster lies West of Bay, written once as "Bay lies East of Aster". Bay (5) invades Aster
    (2): with D4 = 1 (North, East, South, West), West is the last direction."""
    provinces = [{"name": "Aster", "owner": "neutral", "units": 2, "north_rank": 1},
                 {"name": "Bay", "owner": "Red", "units": 5, "north_rank": 1, "ruler": True}]
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2, 1], provinces=provinces,
                   borders=[{"from": "Aster", "to": "Bay", "direction": "E"}])
    assert trace.decision.actions[0].fields["details"].startswith(
        "Bay invades Aster (West, 2 defenders) with 4 Infantry")


def test_a_neighbour_too_strong_is_listed_with_what_it_needs(ys):
    """"The Invading bot Province must hold at least twice the number of units, plus one": the
    players see each neighbour Elmgate (4) cannot invade, and why."""
    trace = decide(ys, step="turn", bot="Red", round=1, dice=[2, 2],
                   provinces=grid(Elmgate={"owner": "Red", "units": 4, "ruler": True},
                                  Birchwood={"owner": "Liu", "units": 3}))
    said = trace.decision.say
    assert "- Birchwood (North, player, 3 defenders) needs 7 Infantry." in said
    assert "- Fernvale (East, neutral, 2 defenders) needs 5 Infantry." in said


@pytest.mark.parametrize(("change", "expected"), [
    (lambda provinces, borders: provinces[1].update(name="Ashford"),
     r"\(\$.provinces\[1\].name\): 'Ashford' is listed twice \(provinces\[0\] has it too\)"),
    (lambda provinces, borders: borders.append({"from": "Elmgate", "to": "Atlantis",
                                                "direction": "N"}),
     r"\(\$.borders\[12\].to\): 'Atlantis' is not a listed province name"),
    (lambda provinces, borders: provinces[4].update(owner="Lui"),
     r"\(\$.provinces\[4\].owner\): 'Lui' is not a listed bot name or player name \(nor "
     r"neutral\) \(did you mean 'Liu'\?\)"),
])
def test_names_that_are_not_listed_are_refused_with_the_field(ys, change, expected):
    provinces, borders = grid(), list(GRID_BORDERS)
    change(provinces, borders)
    with pytest.raises(SnapshotError, match=expected) as caught:
        snapshot(ys, step="victory", provinces=provinces, borders=borders)
    assert "\n" not in str(caught.value)


def test_a_bad_snapshot_exits_2_with_one_line(tmp_path):
    from typer.testing import CliRunner

    from whybot.cli.app import app

    path = tmp_path / "bad.yaml"
    path.write_text("pack: yellow_scarves\nstep: turn\nbots: [{name: Red}]\n"
                    "provinces: [{name: Elmgate, owner: Red, north_rank: 1}]\n")
    result = CliRunner().invoke(app, ["decide", str(path)])
    assert result.exit_code == 2
    assert "missing required fact 'bot'" in result.output
