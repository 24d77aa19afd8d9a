"""Snapshot references (`refers`, `unique`, `required_when`), even spreads that leave their
leftovers, roll purposes that name values, and `each` loops whose pages change and rederive the
entity they visit — on the `ledger` test pack."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import TOY_PACKS, engine_for
from tests.engine.helpers import decide
from whybot.engine import RuleFileError, SnapshotError, load_pack
from whybot.engine.walk.effects import spread
from whybot.facts.snapshot import parse_snapshot

MEMBERS = "members: [{name: Ann, purse: 4}, {name: Bob, purse: 1}]\n"


@pytest.fixture(scope="module")
def ledger():
    return engine_for(TOY_PACKS, "ledger")


def _snapshot(ledger, text: str):
    return parse_snapshot("pack: ledger\n" + text, "s.yaml", ledger.pack)


def test_a_value_that_names_no_listed_entity_is_one_line_naming_the_field(ledger):
    with pytest.raises(SnapshotError, match=r"s.yaml:4 \(\$.seats\[0\].holder\): 'Bobb' is not "
                                            r"a listed member name \(nor empty\) \(did you mean "
                                            r"'Bob'\?\)"):
        _snapshot(ledger, "phase: open\n" + MEMBERS + "seats: [{holder: Bobb}]\n")
    with pytest.raises(SnapshotError, match=r"\(\$.chair\): 'Cy' is not a listed member name"):
        _snapshot(ledger, "phase: pay\nchair: Cy\n" + MEMBERS)


def test_an_enum_value_or_the_default_names_no_entity_and_is_accepted(ledger):
    situation = _snapshot(ledger, "phase: open\n" + MEMBERS + "seats: [{holder: empty}, "
                                  "{holder: Ann}]\n")
    assert [s["holder"] for s in situation.entities["seat"]] == ["empty", "Ann"]
    assert situation.board["chair"] == ""


def test_two_entities_may_not_share_a_unique_field(ledger):
    with pytest.raises(SnapshotError, match=r"\(\$.members\[1\].name\): 'Ann' is listed twice "
                                            r"\(members\[0\] has it too\)"):
        _snapshot(ledger, "phase: open\nmembers: [{name: Ann}, {name: Ann}]\n")


def test_a_value_required_only_in_some_situations(ledger):
    with pytest.raises(SnapshotError, match=r"missing required fact 'chair' \(the member who "
                                            r"chairs\): it is needed when phase == 'pay'"):
        _snapshot(ledger, "phase: pay\n" + MEMBERS)
    assert _snapshot(ledger, "phase: open\n").board["phase"] == "open"


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("refers: member.name", "refers: member.nick", r"\(\$.facts.board.chair.refers\): refers "
                                                   r"to member.nick, which is not a field"),
    ("refers: member.name", "refers: seat.holder", None),
    ("phase == 'pay'", "mood == 'pay'", r"required_when reads mood, which is not a board "
                                        r"observation"),
])
def test_a_pack_may_refer_only_to_listed_fields_and_board_observations(tmp_path, old, new,
                                                                       expected):
    shutil.copytree(TOY_PACKS / "ledger", tmp_path / "ledger")
    pack_file = tmp_path / "ledger" / "pack.yaml"
    pack_file.write_text(pack_file.read_text().replace(old, new))
    if expected is None:
        assert load_pack(tmp_path, "ledger").facts.board["chair"].refers == (("seat", "holder"),)
        return
    with pytest.raises(RuleFileError, match=expected):
        load_pack(tmp_path, "ledger")


def test_an_even_spread_water_fills_under_caps_and_leaves_its_leftovers():
    """12 over three slots, one full: 6 and 6; one with room for 1: it fills, the other two take
    5 each, and the last unit is a leftover — placed in order, or (`even`) returned."""
    assert spread(12, [0, None, None]) == ([0, 6, 6], 0)
    assert spread(12, [1, None, None]) == ([1, 6, 5], 0)
    assert spread(12, [1, None, None], even=True) == ([1, 5, 5], 1)
    assert spread(11, [None] * 5, even=True) == ([2] * 5, 1)
    assert spread(6, [1, 1], even=True) == ([1, 1], 4)


def test_a_spread_step_shows_each_share_and_a_roll_names_what_it_is_for(ledger):
    trace = decide(ledger, "phase: share\ncoins: 13\nchair: Bob\nmembers: [{name: Ann, purse: 2, "
                           "cap: 2}, {name: Bob}, {name: Cy}]\n", pack="ledger")
    spread_ = trace.steps[0].outcome["distribute"]
    assert [(p["entity"], p["added"], p["now"]) for p in spread_["to"]] == [
        ("member Ann", 0, 2), ("member Bob", 6, 6), ("member Cy", 6, 6)]
    assert spread_["rest"] == 1 and spread_["even"]
    assert trace.dice[0]["for"] == "1 left over, chaired by Bob"


def test_each_visits_entities_as_they_are_after_a_rederive_and_keeps_their_changes(ledger):
    """Ann: 4 + 3 = 7, rich after the rederive, +1 bonus = 8. Bob was renewed by Ann's rederive:
    his visit must change the entity as it is now (1 + 3 = 4), and the bonus spread on Ann must
    not be undone when her visit ends."""
    trace = decide(ledger, "phase: pay\nchair: Ann\n" + MEMBERS, pack="ledger")
    assert trace.decision["say"] == ["Ann holds 8.", "Bob holds 4.", "1 rich, 12 in all."]


def test_a_default_the_rules_set_before_reading_it_is_no_assumption(ledger):
    trace = decide(ledger, "phase: open\n", pack="ledger")
    assert trace.decision["result"] == "open"
    assert trace.assumed == []
