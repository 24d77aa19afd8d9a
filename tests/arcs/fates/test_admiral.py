"""SUPERCAT § Admiral: the Type 3 question of Act I, one new starport per card, Rival Regents."""

from __future__ import annotations

from tests.arcs.helpers import decide


def rules(trace) -> list[str]:
    return [a.rule for a in trace.decision.actions]


def test_the_no_branch_is_not_read_when_the_answer_is_yes(arcs):
    """Type 3 (§ Questions): a favorable combat for trophies with Imperial Ships exists, so the
    partial move (the No branch) is not taken even though no combat card is in hand."""
    trace = decide(arcs, """
fate: admiral
hand_counter: 3
initiative: true
cards: [{suit: mobilization, number: 1, pips: 2}, {suit: construction, number: 3, pips: 2}]
options:
  - {action: battle, goal: trophies, imperial_ships: true, ships: 2, fresh_ships: 2, defenders: 1}
  - {action: move, goal: trophies, imperial_ships: true, moves: 1}
""")
    assert "admiral.act1.partial-move" not in trace.fired()


def test_one_new_starport_from_the_fate_the_suit_page_may_build_another(arcs):
    """Build one new starport (max one new starport per card): the Fate's line once; the
    Construction page's [37] is its own line (readings R51)."""
    trace = decide(arcs, """
fate: admiral
hand_counter: 3
initiative: true
unbuilt_starports: 2
claims: 2
cards: [{suit: construction, number: 4, pips: 3}]
options:
  - {action: build, goal: starport, target: one}
  - {action: build, goal: starport, target: two}
""")
    assert rules(trace) == ["admiral.act1.new-starport", "cons.build-starport-other"]


def test_more_agents_than_a_rival_regent_needs_a_regent_on_the_card(arcs):
    """Influence a card with more agents than a Rival Regent (readings R50): a card without a
    Regent's agents does not qualify."""
    snapshot = """
fate: admiral
act: 2
weapon: 1
hand_counter: 3
initiative: true
cards: [{suit: mobilization, number: 4, pips: 2}]
options: [{action: influence, court_card: guild, rival_agents: 1, regent_agents: REGENT}]
"""
    assert "admiral.act2.influence-beat-regent" in decide(
        arcs, snapshot.replace("REGENT", "1")).fired()
    assert "admiral.act2.influence-beat-regent" not in decide(
        arcs, snapshot.replace("REGENT", "0")).fired()
