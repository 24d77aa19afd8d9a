"""SUPERCAT § Summits (lines 198–210): whether the bot calls a Summit (its Fate, else 1d6 + 1
per favor, on 5 or more) and its Call to Order (Return Favors by the three priorities, the
fewest favors first; Petition the Council, Leave the Empire, Revive the Empire by its Fate)."""

from __future__ import annotations

import pytest

from tests.arcs.campaign.helpers import acted, judged, run, said, targets

RIVALS = "rivals: [{name: Blue, role: player}, {name: Yellow, role: bot}]\n"
TYCOON = ("ambitions: [{name: tycoon, declared: true}]\n"
          "standings:\n"
          "  - {party: bot, ambition: tycoon, count: 1}\n"
          "  - {party: Blue, ambition: tycoon, count: 3}\n"
          "  - {party: Yellow, ambition: tycoon, count: 2}\n")


def favors(*owners: str) -> str:
    return "favors:\n" + "".join(f"  - {{holder: bot, owner: {o}}}\n" for o in owners)


@pytest.mark.parametrize(("held", "die", "calls"), [
    (0, 4, False), (0, 5, True), (1, 4, True), (2, 2, False), (2, 3, True), (3, 6, True)])
def test_the_roll_adds_one_per_favor_and_calls_on_five_or_more(arcs, held, die, calls):
    """L200: roll 1d6, +1 for each favor the bot has, call on a result of 5 or 6 — 5 or more:
    3 favors and a 6 make 9, and the bot calls (readings R100)."""
    trace = run(arcs, "step: summit\n" + RIVALS + (favors(*["Blue"] * held) if held else ""),
                dice=[die])
    assert trace.decision.result == ("summit" if calls else "no_summit")
    assert judged(trace, "summit.favors_held") == held
    text = trace.decision.actions[0].fields["details"] if calls else said(trace)
    assert f"= {die + held}" in text


def test_a_founder_regent_always_calls_and_leaves_the_empire_without_a_roll(arcs):
    """Founder › Act I, Summits (L355): If bot is a Regent, then always call the Summit. During
    the Call to Order phase, Leave the Empire."""
    trace = run(arcs, "step: summit\nfate: founder\nact: 1\nregent: true\n")
    assert acted(trace) == [("call_summit", "summit.fate"), ("leave_empire", "call_to_order.leave")]
    assert trace.dice == []


@pytest.mark.parametrize("board", [
    "fate: founder\nact: 1\nregent: false\n",                 # an Outlaw Founder
    "fate: steward\nfirst_regent: true\nimperial_council: decided\n",
    "fate: steward\nfirst_regent: false\nimperial_council: in_session\n",
])
def test_a_fate_whose_summit_line_does_not_hold_leaves_it_to_the_roll(arcs, board):
    """L200: If Fate does not dictate behavior for Summits, roll (readings R101)."""
    trace = run(arcs, "step: summit\n" + board, dice=[1])
    assert trace.decision.result == "no_summit"
    assert "summit.roll" in trace.fired()


def test_the_call_to_order_returns_favors_by_the_priorities_as_many_as_possible(arcs):
    """L204–207: contend first (Blue's Material), then the objective (Yellow's Guild card); the
    Weapon serves no listed goal and is never bought with a favor (readings R103)."""
    trace = run(arcs, "step: summit\n" + RIVALS + favors("Blue", "Yellow", "Yellow") + TYCOON
                + "deals:\n"
                  "  - {name: Yellow gives 1 Weapon, giver: Yellow, receiver: bot,"
                  " asset: resource}\n"
                  "  - {name: Yellow gives a card, giver: Yellow, receiver: bot, asset: card,"
                  " objective: true}\n"
                  "  - {name: Blue gives 1 Material, giver: Blue, receiver: bot, asset: resource,"
                  " ambition: tycoon}\n", dice=[6])
    assert acted(trace)[1:] == [("return_favor", "return_favors.contend"),
                                ("return_favor", "return_favors.objective")]
    assert targets(trace, "return_favor") == ["Blue gives 1 Material", "Yellow gives a card"]


def test_within_a_priority_the_action_needing_fewest_favors_is_returned_first(arcs):
    """L204 “using favors as efficiently as possible”: two of Blue's favors; 2 Fuel for both,
    or 1 Material for one — the Material, after which 2 Fuel needs more than the one left."""
    trace = run(arcs, "step: summit\n" + RIVALS + favors("Blue", "Blue") + TYCOON
                + "deals:\n"
                  "  - {name: Blue gives 2 Fuel, giver: Blue, receiver: bot, asset: resource,"
                  " ambition: tycoon, amount: 2, favors: 2}\n"
                  "  - {name: Blue gives 1 Material, giver: Blue, receiver: bot, asset: resource,"
                  " ambition: tycoon}\n", dice=[6])
    assert targets(trace, "return_favor") == ["Blue gives 1 Material"]


def test_the_third_priority_makes_a_rival_stop_contending_a_declared_ambition(arcs):
    """L207: forcing Yellow to give Blue a Relic moves Keeper (declared): Yellow 2 → 1 drops
    behind the bot (3) and Blue (2 → 3) — Yellow stops contending; the bot gains nothing, so
    the first two priorities do not take it; the third does."""
    trace = run(arcs, "step: summit\n" + RIVALS + favors("Yellow")
                + "ambitions: [{name: keeper, declared: true}]\n"
                  "standings:\n"
                  "  - {party: bot, ambition: keeper, count: 3}\n"
                  "  - {party: Blue, ambition: keeper, count: 2}\n"
                  "  - {party: Yellow, ambition: keeper, count: 2}\n"
                  "deals:\n"
                  "  - {name: Yellow gives Blue 1 Relic, giver: Yellow, receiver: Blue,"
                  " asset: resource, ambition: keeper}\n", dice=[6])
    assert acted(trace)[1:] == [("return_favor", "return_favors.stop-rival")]
    target = trace.decision.actions[1].target
    assert (target["g_before"], target["g_after"], target["g_place_after"]) == (2, 1, 3)


def test_without_favors_the_call_to_order_only_reads_the_fate(arcs):
    """L202: Return Favors needs a favor; L208 check Fate: no Fate, nothing to do."""
    trace = run(arcs, "step: summit\n", dice=[5])
    assert acted(trace) == [("call_summit", "summit.call")]
    assert "the bot has no favors to return" in said(trace)
    assert "it does none of them" in said(trace)
