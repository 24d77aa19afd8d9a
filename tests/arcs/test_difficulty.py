"""SUPERCAT § Difficulty modifiers (Optional), lines 139–173: normal mode per bot (ties included),
harder mode (always; the bot with the most power starts every chapter with the initiative), and
the extra-challenge modifiers chosen under `modifiers:`."""

from __future__ import annotations

import pytest

from tests.arcs.helpers import decide
from whybot.engine import SnapshotError
from whybot.facts.snapshot import parse_snapshot

CARD = "hand_counter: 3\ninitiative: true\ncards: [{suit: construction, number: 1, pips: 3}]\n"


@pytest.mark.parametrize(("board", "advantaged"), [
    ("difficulty: normal\npower: 4\nplayer_power: 4\n", True),   # a tie: not more power
    ("difficulty: normal\npower: 0\nplayer_power: 0\n", True),   # the start of the game
    ("difficulty: normal\npower: 5\nplayer_power: 4\n", False),  # ahead: no advantages
    ("difficulty: harder\npower: 9\n", True),                    # harder: even if ahead
    ("", False),                                                 # no modifiers
])
def test_efficient_logistics_goes_to_a_bot_without_more_power(arcs, board, advantaged):
    trace = decide(arcs, board + CARD)
    assert ("play.efficient-logistics" in trace.fired()) is advantaged


def test_normal_mode_needs_both_powers(arcs):
    with pytest.raises(SnapshotError, match="player_power"):
        parse_snapshot("pack: arcs\ndifficulty: normal\npower: 2\n" + CARD, "x.yaml", arcs.pack)


def test_harder_mode_ties_between_bots_are_broken_at_random(arcs):
    trace = decide(arcs, "step: chapter\ndifficulty: harder\nbots: 3\npower: 4\n"
                   "other_bot_power: 4\n")
    assert "chapter.initiative.tied" in trace.fired()


def test_a_chapter_start_sets_the_counter_to_6(arcs):
    trace = decide(arcs, "step: chapter\n")
    step = next(s for s in trace.steps if s.rule == "chapter.hand-counter")
    assert step.outcome["set"]["hand_counter"]["to"] == 6
    assert "chapter.initiative.stays" in trace.fired()


@pytest.mark.parametrize(("board", "taken"), [
    ("difficulty: normal\n", True), ("difficulty: harder\n", True), ("", False),
    ("modifiers: [{name: initiative_to_bot}]\n", True)])
def test_step_1b_goes_with_normal_and_harder_modes_or_when_chosen(arcs, board, taken):
    trace = decide(arcs, "step: setup\nbuildings_placed: 0\nslots: [{name: A}]\n" + board)
    assert ("setup.initiative.one-bot" in trace.fired()) is taken


def test_the_modifiers_for_the_players_attacks_are_told_at_setup(arcs):
    trace = decide(arcs, "step: setup\nbuildings_placed: 1\nslots: [{name: A}]\nmodifiers: ["
                   "{name: energy_shields}, {name: carrier_tactics}, {name: fortress_vaults},"
                   " {name: warp_blockades}]\n")
    for rule in ("setup.energy-shields", "setup.carrier-tactics", "setup.fortress-vaults",
                 "setup.warp-blockades"):
        assert rule in trace.fired()
    assert "setup.fleet-readiness" not in trace.fired()
