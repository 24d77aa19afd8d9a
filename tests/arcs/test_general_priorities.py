"""SUPERCAT § General Priorities: Type 4 questions (→ suit), goals and actions in listed order."""

from __future__ import annotations

from tests.arcs.helpers import decide, selected

LEAD_TWO = """
hand_counter: 3
initiative: true
cards: [{{suit: {a}, number: 1, pips: 3}}, {{suit: {b}, number: 1, pips: 3}}]
answers: {{{answers}}}
"""


def lead(a: str, b: str, answers: str) -> str:
    return LEAD_TWO.format(a=a, b=b, answers=answers)


def test_type4_suit_not_available_reads_on(arcs):
    """§ Questions, Type 4: if the answer is “yes” AND the bot has a card of the indicated suit
    available ... select that card; otherwise read on (Tax to contend, but no Administration)."""
    trace = decide(arcs, lead("construction", "mobilization",
                              "can.tax.contend_declared: yes, can.build.ships: yes"))
    assert "gp.tax-contend-declared" not in trace.fired()
    assert "gp.build-ships" in trace.fired()
    assert selected(trace)["suit"] == "construction"


def test_secure_before_tax_to_contend_declared(arcs):
    """[1] Can bot Secure or Tax to contend declared ambition? → Administration/Aggression; the
    bot will prefer to Secure rather than Tax (§ Decision making, Actions)."""
    trace = decide(arcs, lead("administration", "aggression",
                              "can.tax.contend_declared: yes, can.secure.contend_declared: yes"))
    assert selected(trace)["suit"] == "aggression"


def test_contend_undeclared_before_captives(arcs):
    """[6,7] ... to contend undeclared ambition, take captives, or grow a lead: goals in order
    (§ Decision making, Goals): Secure to contend undeclared beats Tax for captives."""
    trace = decide(arcs, lead("administration", "aggression",
                              "can.tax.captives: yes, can.secure.contend_undeclared: yes"))
    assert "gp.secure-contend-undeclared" in trace.fired()
    assert selected(trace)["suit"] == "aggression"


def test_tax_before_secure_within_a_goal(arcs):
    """[6,7] Can bot Tax or Secure ...? Tax is listed first: both contend an undeclared ambition."""
    trace = decide(arcs, lead("administration", "aggression",
                              "can.tax.contend_undeclared: yes, "
                              "can.secure.contend_undeclared: yes"))
    assert "gp.tax-contend-undeclared" in trace.fired()
    assert selected(trace)["suit"] == "administration"


def test_grow_lead_derived_from_options(arcs):
    """[6,7] grow a lead in a declared ambition: the bot is winning declared Tycoon and a Tax
    would add to it."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
cards: [{suit: administration, number: 1, pips: 3}, {suit: construction, number: 1, pips: 3}]
ambitions: [{name: tycoon, declared: true, bot: 4, best_rival: 2}]
options: [{action: tax, ambition: tycoon, gain: 1, resource: fuel}]
""")
    assert trace.judgments["can.tax.grow_lead"].origin == "derived"
    assert "gp.tax-grow-lead" in trace.fired()
    assert trace.decision.actions[0].rule == "admin.tax-grow-lead"


def test_influence_with_more_agents_picks_either_suit_at_random(arcs):
    """[8,9] Can bot Influence a card with more agents than rivals? → Mobilization/Administration:
    one action on two suits, no preference between them — the dice pick (readings R6)."""
    suits = set()
    for seed in range(6):
        trace = decide(arcs, lead("administration", "mobilization",
                                  "can.influence.more_agents: yes"), seed=seed)
        assert "gp.influence-more-agents" in trace.fired()
        suits.add(selected(trace)["suit"])
    assert suits == {"administration", "mobilization"}


def test_imperial_trust_needs_both_answers(arcs):
    """[9.5] Would bot contend a declared ambition with the Imperial Trust, and can bot Influence
    the Imperial Council with more agents than rivals?"""
    only_council = decide(arcs, lead("administration", "construction",
                                     "can.influence.council_more_agents: yes"))
    assert "gp.trust-influence-council" not in only_council.fired()
    both = decide(arcs, lead("administration", "construction",
                             "can.influence.council_more_agents: yes, "
                             "trust_contends_declared: yes"))
    assert "gp.trust-influence-council" in both.fired()
    assert selected(both)["suit"] == "administration"


def test_take_rival_city_by_move_or_combat(arcs):
    """[10] Can bot Move or favorable combat to take control of rival city or Free city?
    → Mobilization/Aggression (favorable combat needs the Aggression card)."""
    trace = decide(arcs, lead("construction", "aggression", "can.combat.rival_city: yes"))
    assert "gp.combat-rival-city" in trace.fired()
    assert selected(trace)["suit"] == "aggression"


def test_build_before_repair_ships(arcs):
    """[11,12] Can bot Build or Repair ships? → Construction/Administration: Build needs
    Construction; Repair is on Construction and Administration."""
    trace = decide(arcs, lead("administration", "construction",
                              "can.build.ships: yes, can.repair.ships: yes"))
    assert "gp.build-ships" in trace.fired()
    repair = decide(arcs, lead("administration", "mobilization",
                               "can.build.ships: yes, can.repair.ships: yes"))
    assert "gp.repair-ships" in repair.fired()


def test_nothing_applies_picks_randomly(arcs):
    """§ Decision making for the bot, Random: no General Priority applies, pick randomly among
    the non-Event plays."""
    trace = decide(arcs, lead("administration", "construction", ""))
    assert "gp.random" in trace.fired()
    assert selected(trace)["suit"] in ("administration", "construction")


def test_fate_first_then_general_priorities(arcs):
    """✦ Check bot's Fate for initial priorities. If no card selected, return to this page."""
    trace = decide(arcs, "fate: magnate\n" + lead("administration", "construction",
                                                  "can.build.ships: yes"))
    fired = trace.fired()
    assert fired.index("gp.fate") < fired.index("gp.build-ships")
    assert "gp.fate-selected" not in fired


def test_repair_ships_may_take_the_construction_card(arcs):
    """[12] Repair ships → Construction/Administration: with only a Construction card the bot
    repairs with it (Construction [38] Repair)."""
    trace = decide(arcs, lead("construction", "mobilization", "can.repair.ships: yes"))
    assert "gp.repair-ships" in trace.fired()
    assert selected(trace)["suit"] == "construction"


def test_change_control_by_build_needs_construction(arcs):
    """[4] Can bot Build or Repair to change control? → Construction/Administration: only
    Construction Builds, so an Administration card is not taken for a Build."""
    trace = decide(arcs, lead("administration", "mobilization", "can.build.change_control: yes")
                   + "rival_controlled: 1\n")
    assert "gp.rival-control-build" not in trace.fired()
    trace = decide(arcs, lead("administration", "construction", "can.build.change_control: yes")
                   + "rival_controlled: 1\n")
    assert "gp.rival-control-build" in trace.fired()
    assert selected(trace)["suit"] == "construction"
    repair = decide(arcs, lead("administration", "mobilization",
                               "can.repair.change_control: yes") + "rival_controlled: 1\n")
    assert "gp.rival-control-repair" in repair.fired()
    assert selected(repair)["suit"] == "administration"
