"""SUPERCAT § Grievances (Optional) (lines 212–226), and settling them in the Negotiation
minigame (line 236): what one action against the bot does to its counter in the actor's
colour."""

from __future__ import annotations

import pytest

from tests.arcs.campaign.helpers import acted, run, said

RIVALS = "grievances_rule: true\nrivals: [{name: Blue, role: player}, {name: Yellow, role: bot}]\n"


def counter(trace) -> str:
    return next(line for line in trace.decision.say if "grievance counter" in line)


def test_without_the_optional_rule_nothing_changes(arcs):
    trace = run(arcs, "step: grievances\nrivals: [{name: Blue}]\nby: Blue\naction_taken: battle\n")
    assert acted(trace) == []
    assert "optional and not in play" in said(trace)


@pytest.mark.parametrize(("action", "extra", "gained"), [
    ("tax", "agents_captured: 1\n", ["grievances.tax", "grievances.captured"]),
    ("battle", "pieces_destroyed: 5\nagents_captured: 3\n",
     ["grievances.battle", "grievances.destroyed", "grievances.captured"]),
    ("secure", "agents_captured: 2\n", ["grievances.captured"]),
    ("move", "", []),
])
def test_each_line_gives_one_grievance_limit_one_per_action(arcs, action, extra, gained):
    """L220–224: one grievance per line that holds, however many pieces or agents."""
    trace = run(arcs, f"step: grievances\n{RIVALS}by: Yellow\naction_taken: {action}\n" + extra
                + "grievances: [{holder: bot, source: Yellow, count: 2}]\n")
    assert [rule for _, rule in acted(trace)] == gained
    assert counter(trace).endswith(f"2 → {2 + len(gained)}.")


def test_giving_an_agent_as_a_favor_settles_one(arcs):
    trace = run(arcs, f"step: grievances\n{RIVALS}by: Blue\naction_taken: give_agent\n"
                "grievances: [{holder: bot, source: Blue, count: 1}]\n")
    assert acted(trace) == [("settle_grievance", "grievances.settle")]
    assert counter(trace).endswith("1 → 0.")


def test_nothing_to_settle_stays_at_zero(arcs):
    trace = run(arcs, f"step: grievances\n{RIVALS}by: Blue\naction_taken: return_favor\n")
    assert acted(trace) == []
    assert counter(trace).endswith("0 → 0.")


def test_a_bot_does_not_settle_grievances(arcs):
    """L235: Player(s) may settle Grievances with favors (readings R108)."""
    trace = run(arcs, f"step: grievances\n{RIVALS}by: Yellow\naction_taken: return_favor\n"
                "grievances: [{holder: bot, source: Yellow, count: 2}]\n")
    assert acted(trace) == []
    assert "Only a player settles" in said(trace)
    assert counter(trace).endswith("2 → 2.")


def test_the_actor_must_be_a_listed_rival(arcs):
    from whybot.engine import SnapshotError
    with pytest.raises(SnapshotError, match="by"):
        run(arcs, f"step: grievances\n{RIVALS}by: Purple\naction_taken: battle\n")
