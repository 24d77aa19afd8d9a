"""SUPERCAT § Act I Setup (lines 70–83): the bot's buildings as a decision (step: setup), the
Fate's setup page when there is one, and nothing read when there is none."""

from __future__ import annotations

from tests.arcs.helpers import decide

SLOTS = "slots: [{name: Hexy 1}, {name: Arrow 2}]\n"


def test_a_fate_without_a_setup_page_is_simply_not_read(arcs):
    trace = decide(arcs, "step: setup\nbuildings_placed: 0\nfate: steward\n" + SLOTS)
    step = next(s for s in trace.steps if s.rule == "setup.fate")
    assert step.outcome["missing"] == "fate.steward.setup"
    assert "has no special setup instructions" in step.notes[0]
    assert [a.rule for a in trace.decision.actions] == ["setup.city"]


def test_the_first_building_is_a_city_the_second_a_starport(arcs):
    first = decide(arcs, "step: setup\nbuildings_placed: 0\n" + SLOTS)
    second = decide(arcs, "step: setup\nbuildings_placed: 1\n" + SLOTS)
    assert [a.action for a in first.decision.actions] == ["place_city"]
    assert [a.action for a in second.decision.actions] == ["place_starport"]
    assert "setup.hand-counter" not in first.fired()
    step = next(s for s in second.steps if s.rule == "setup.hand-counter")
    assert step.outcome["set"]["hand_counter"]["to"] == 6


def test_the_slot_is_a_dice_pick_the_trace_shows(arcs):
    trace = decide(arcs, "step: setup\nbuildings_placed: 0\n" + SLOTS)
    assert any("random pick among 2 equal slot" in roll.purpose for roll in trace.dice)


def test_setup_needs_no_hand_counter_but_says_which_building(arcs):
    trace = decide(arcs, "step: setup\nbuildings_placed: 1\n" + SLOTS)
    assert trace.decision.result == "setup"


def test_only_act_one_has_setup_changes(arcs):
    trace = decide(arcs, "step: setup\nact: 2\nbuildings_placed: 0\n" + SLOTS)
    assert trace.fired() == ["start.setup", "setup.act"]


def test_several_bots_a_d12_names_the_bot_with_the_initiative(arcs):
    trace = decide(arcs, "step: setup\nbuildings_placed: 0\ndifficulty: normal\nbots: 3\n"
                   "dice: [8]\n" + SLOTS)
    step = next(s for s in trace.steps if s.rule == "setup.initiative.several-bots")
    assert step.outcome["set"]["seat"]["to"] == 2  # (8 - 1) % 3 + 1
