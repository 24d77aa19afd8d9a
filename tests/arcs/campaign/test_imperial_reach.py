"""SUPERCAT § Govern the Imperial Reach (lines 192–196): the First Regent's Fate first, enforce
the policy in force if that makes it contend an ambition, else change to one that would; the
Outlaw roll, while enforcing, for a rival with no pieces for Imperial Demand and no agent."""

from __future__ import annotations

import pytest

from tests.arcs.campaign.helpers import acted, run, said, targets

RIVALS = ("rivals:\n"
          "  - {name: Blue, role: player}\n"
          "  - {name: Yellow, role: bot, demand_pieces: false, has_agent: false}\n")
WARLORD = ("standings:\n"
           "  - {party: bot, ambition: warlord, count: 2}\n"
           "  - {party: Blue, ambition: warlord, count: 3}\n"
           "  - {party: bot, ambition: tycoon, count: 4}\n"
           "  - {party: Blue, ambition: tycoon, count: 1}\n")


def policies(in_force: str, *others: str) -> str:
    """`name:ambition` entries; the first is in force."""
    lines = ["policies:"]
    for index, entry in enumerate((in_force, *others)):
        name, _, ambition = entry.partition(":")
        force = ", in_force: true" if index == 0 else ""
        lines.append(f"  - {{name: {name}, ambition: {ambition}{force}}}")
    return "\n".join(lines) + "\n"


def test_a_bot_that_is_not_the_first_regent_does_not_govern(arcs):
    trace = run(arcs, "step: imperial_reach\n" + RIVALS + policies("Peace:warlord", "War:tycoon")
                + WARLORD)
    assert acted(trace) == []
    assert "not the First Regent" in said(trace)


def test_the_policies_must_be_listed_with_the_one_in_force(arcs):
    trace = run(arcs, "step: imperial_reach\nfirst_regent: true\n"
                "policies: [{name: Peace, ambition: warlord}]\n")
    assert trace.decision.result == "list_policies"


@pytest.mark.parametrize(("die", "outlaw"), [(4, False), (5, True), (6, True)])
def test_enforcing_rolls_for_each_rival_with_no_pieces_and_no_agent(arcs, die, outlaw):
    """L196: Blue has pieces for Imperial Demand: no roll; Yellow has neither: 1d6, an Outlaw
    on 5 or 6."""
    trace = run(arcs, "step: imperial_reach\nfirst_regent: true\n" + RIVALS
                + policies("Escalation:warlord", "Peace:tycoon") + WARLORD, dice=[die])
    assert acted(trace)[0] == ("enforce_policy", "imperial_reach.enforce")
    assert ("make_outlaw", "imperial_reach.outlaw.make") in acted(trace) if outlaw else \
        "Yellow stays a Regent" in said(trace)
    assert len(trace.dice) == 1


def test_an_outlaw_already_or_a_rival_with_an_agent_is_not_rolled_for(arcs):
    rivals = ("rivals:\n"
              "  - {name: Blue, role: player, demand_pieces: false}\n"
              "  - {name: Yellow, role: bot, demand_pieces: false, has_agent: false,"
              " outlaw: true}\n")
    trace = run(arcs, "step: imperial_reach\nfirst_regent: true\n" + rivals
                + policies("Escalation:warlord", "Peace:tycoon") + WARLORD)
    assert acted(trace) == [("enforce_policy", "imperial_reach.enforce")]
    assert trace.dice == []


def test_when_no_policy_would_make_the_bot_contend_it_changes_at_random(arcs):
    """L194 “Otherwise, change the policy” — none of the others contends either: a random
    pick among them (readings R106); no enforcement, so no Outlaw roll."""
    standings = ("standings:\n  - {party: bot, ambition: tycoon, count: 4}\n"
                 "  - {party: Blue, ambition: keeper, count: 5}\n")
    picks = set()
    for seed in range(8):
        trace = run(arcs, "step: imperial_reach\nfirst_regent: true\n" + RIVALS
                    + policies("Peace:tycoon", "War:keeper", "Expansion:keeper") + standings,
                    seed=seed)
        assert acted(trace) == [("change_policy", "imperial_reach.change")]
        picks.add(targets(trace, "change_policy")[0])
        assert any("random pick among 2 equal policy" in r.purpose for r in trace.dice)
    assert picks == {"War", "Expansion"}


def test_under_imperial_quorum_the_regent_with_most_cities_governs(arcs):
    """Steward › Act II, Imperial Quorum: the Regent with the most cities checks the Fate to
    see if it will change the policy (readings R105)."""
    trace = run(arcs, "step: imperial_reach\nimperial_quorum: true\nregent_most_cities: true\n"
                + RIVALS + policies("Peace:tycoon", "Escalation:warlord") + WARLORD)
    assert acted(trace) == [("change_policy", "imperial_reach.change")]
    assert targets(trace, "change_policy") == ["Escalation"]


def test_imperial_quorum_the_regent_with_most_starports_takes_the_imperial_action(arcs):
    trace = run(arcs, "step: imperial_reach\nimperial_quorum: true\nregent_most_starports: true\n"
                + RIVALS + policies("Peace:tycoon", "Escalation:warlord") + WARLORD)
    assert acted(trace) == [("imperial_action", "imperial_reach.quorum-imperial-action")]


def test_the_steward_keeps_peace_when_escalation_would_not_make_it_contend(arcs):
    """Readings R20: with Peace in force and Escalation not contending, the Steward enforces
    Peace, though another policy would make it contend."""
    standings = ("standings:\n  - {party: bot, ambition: tycoon, count: 4}\n"
                 "  - {party: Blue, ambition: keeper, count: 1}\n"
                 "  - {party: Blue, ambition: warlord, count: 5}\n"
                 "  - {party: Yellow, ambition: warlord, count: 3}\n")
    board = ("step: imperial_reach\nfate: steward\nact: 2\nfirst_regent: true\npolicy: peace\n"
             + RIVALS + "policies:\n"
             "  - {name: Peace, type: peace, in_force: true, ambition: tycoon}\n"
             "  - {name: Escalation, type: escalation, ambition: warlord}\n"
             "  - {name: Expansion, ambition: keeper}\n" + standings)
    trace = run(arcs, board, dice=[1])
    assert acted(trace)[0] == ("enforce_policy", "imperial_reach.steward-keeps")


def test_the_policy_in_force_must_agree_with_policy(arcs):
    trace = run(arcs, "step: imperial_reach\nfirst_regent: true\npolicy: escalation\n"
                + policies("Peace:tycoon", "War:warlord"))
    assert trace.decision.result == "list_policies"


def test_the_steward_changes_peace_for_escalation_when_that_makes_it_contend(arcs):
    """Readings R20: Peace in force does not make the Steward contend (it wins Tycoon already);
    Escalation would (Warlord 0 → 1, tied with Yellow, behind Blue): it changes to Escalation,
    not to the other policy (Expansion would make it contend Keeper too)."""
    standings = ("standings:\n  - {party: bot, ambition: tycoon, count: 4}\n"
                 "  - {party: Blue, ambition: keeper, count: 1}\n"
                 "  - {party: Blue, ambition: warlord, count: 5}\n"
                 "  - {party: Yellow, ambition: warlord, count: 1}\n")
    board = ("step: imperial_reach\nfate: steward\nact: 2\nfirst_regent: true\npolicy: peace\n"
             + RIVALS + "policies:\n"
             "  - {name: Peace, type: peace, in_force: true, ambition: tycoon}\n"
             "  - {name: Expansion, ambition: keeper}\n"
             "  - {name: Escalation, type: escalation, ambition: warlord}\n" + standings)
    trace = run(arcs, board)
    assert acted(trace) == [("change_policy", "imperial_reach.steward-change")]
    assert targets(trace, "change_policy") == ["Escalation"]
