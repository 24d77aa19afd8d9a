"""SUPERCAT § Fates: Magnate and Steward pages, and a house-rule Fate loaded as an overlay."""

from __future__ import annotations

from tests.arcs.helpers import actions, decide, selected

HAND = """
hand_counter: 4
initiative: true
cards: [{suit: administration, number: 1, pips: 3}, {suit: aggression, number: 1, pips: 2}]
"""


def test_magnate_act1_taxes_for_a_resource_matching_a_declared_ambition(arcs):
    """Magnate Act I ✦ Can bot Tax for any resource? Prefer: resource matching any declared
    ambition; new resource. At most half the actions, rounded up (2 of 3), then the suit page."""
    snapshot = HAND + """
ambitions: [{name: empath, declared: true, bot: 1, best_rival: 1}]
options:
  - {action: tax, resource: weapon, new_resource: true, target: Blue city}
  - {action: tax, resource: psionic, target: own city}
"""
    plain = decide(arcs, snapshot)
    magnate = decide(arcs, "fate: magnate\nact: 1\n" + snapshot)
    assert "magnate.act1.tax-resource" not in plain.fired()
    fate_action = magnate.decision["actions"][0]
    assert fate_action["rule"] == "magnate.act1.tax-resource"
    assert fate_action["budget"] == "2"
    assert fate_action["target"]["target"] == "own city"
    assert selected(magnate)["suit"] == "administration"
    assert magnate.steps[-1].page == "administration"
    assert magnate.decision["actions"][-1]["details"].startswith("1 action(s)")
    assert ("Discard the other drawn cards. Spend the 1 remaining action(s) on the "
            "administration page.") in magnate.decision["say"]


def test_magnate_budget_covering_the_card_ends_the_turn(arcs):
    """§ Fates: half the number of available actions, rounded up — a 1-action copy is all Fate."""
    trace = decide(arcs, """
fate: magnate
hand_counter: 4
lead_suit: administration
lead_number: 7
cards: [{suit: construction, number: 2, pips: 4}]
options: [{action: tax, resource: fuel}]
""")
    assert "bot_turn.fate-action" in trace.fired()
    assert trace.decision["actions"][0]["budget"] == "1"
    assert trace.decision["result"] == "decided"
    assert all(s.page != "administration" for s in trace.steps)


def test_magnate_act1_council_influence_before_secure(arcs):
    """Magnate Act I ✦ Can bot Influence or Secure the Imperial Council?"""
    trace = decide(arcs, "fate: magnate\n" + HAND + (
        "answers: {can.influence.council: yes, can.secure.council: yes}\n"))
    assert "magnate.act1.influence-council" in trace.fired()
    assert selected(trace)["suit"] == "administration"


def test_magnate_prelude_keeps_resources_when_three_or_fewer(arcs):
    """Magnate Act I, Prelude: Do not spend resources for any Prelude actions if bot has 3 or
    fewer resources (the Weapon is kept though combat is favorable)."""
    snapshot = """
hand_counter: 3
initiative: true
weapon: 1
cards: [{suit: aggression, number: 1, pips: 3}]
options: [{action: battle, goal: trophies}]
"""
    plain = decide(arcs, snapshot)
    magnate = decide(arcs, "fate: magnate\n" + snapshot)
    assert "spend_weapon" in [a for a, _ in actions(plain)]
    assert "spend_weapon" not in [a for a, _ in actions(magnate)]
    assert "magnate.act1.prelude" in magnate.fired()
    rich = decide(arcs, "fate: magnate\nfuel: 3\n" + snapshot)
    assert "spend_weapon" in [a for a, _ in actions(rich)]


def test_magnate_act2_monopoly_tax_prefers_monopoly_in_supply(arcs):
    """Magnate Act II ✦ Can bot Tax ... resulting in the bot having more than half of the total
    resources of its type in play? Prefer: Resource matching Monopoly in the supply"""
    trace = decide(arcs, "fate: magnate\nact: 2\n" + HAND + """
options:
  - {action: tax, resource: fuel, monopoly: true, target: fuel}
  - {action: tax, resource: relic, monopoly: true, monopoly_in_supply: true, target: relic}
""")
    assert trace.decision["actions"][0]["rule"] == "magnate.act2.tax-monopoly"
    assert trace.decision["actions"][0]["target"]["target"] == "relic"


def test_magnate_act2_monopoly_in_supply_blocks_prelude_spending(arcs):
    """Magnate Act II, Prelude: If bot has a matching Monopoly, or the matching Monopoly is in the
    supply, do not spend resources for Prelude actions."""
    snapshot = """
fate: magnate
act: 2
hand_counter: 3
initiative: true
weapon: 1
cards: [{suit: aggression, number: 1, pips: 3}]
options: [{action: battle, goal: trophies}]
"""
    held = decide(arcs, snapshot + "monopolies: [{resource: weapon, holder: supply}]\n")
    assert "spend_weapon" not in [a for a, _ in actions(held)]
    rival = decide(arcs, snapshot + "monopolies: [{resource: weapon, holder: rival}]\n")
    assert "spend_weapon" in [a for a, _ in actions(rival)]


def test_steward_secures_council_in_session(arcs):
    """Steward All Acts ✦ Is the Imperial Council “In Session”? Yes: Can bot Secure or Influence
    the Imperial Council?"""
    snapshot = HAND + "options: [{action: secure, court_card: imperial_council}]\n"
    plain = decide(arcs, snapshot)
    steward = decide(arcs, "fate: steward\n" + snapshot)
    assert steward.decision["actions"][0]["rule"] == "steward.act1.in-session.secure-council"
    assert selected(steward)["suit"] == "aggression"
    assert "steward.act1.in-session.secure-council" not in plain.fired()


def test_steward_act2_lines_only_in_act2(arcs):
    """Steward Act II ✦ Are there any clusters where the Empire does not control any systems? Can
    bot Move to get Empire control ...? — not read in Act I."""
    snapshot = """
hand_counter: 3
initiative: true
empire_absent_clusters: true
cards: [{suit: mobilization, number: 1, pips: 2}, {suit: construction, number: 1, pips: 2}]
options: [{action: move, goal: empire_control}]
"""
    act1 = decide(arcs, "fate: steward\nact: 1\n" + snapshot)
    act2 = decide(arcs, "fate: steward\nact: 2\n" + snapshot)
    assert "steward.act2.empire-control" not in act1.fired()
    assert act2.decision["actions"][0]["rule"] == "steward.act2.empire-control"


def test_steward_events_critical_when_not_first_regent_and_council_decided(arcs):
    """Steward Events: If bot is not First Regent and Imperial Council is “Decided”, then Events
    are critical; Summits: always call a Summit."""
    snapshot = """
fate: steward
hand_counter: 4
lead_suit: aggression
lead_number: 7
cards: [{suit: event, name: Edenguard Ambush}, {suit: mobilization, number: 3, pips: 3}]
"""
    decided = decide(arcs, snapshot + "imperial_council: decided\n")
    assert "bot_turn.no_surpass.seize-critical-event" in decided.fired()
    regent = decide(arcs, snapshot + "imperial_council: decided\nfirst_regent: true\ndice: [6]\n")
    assert "bot_turn.no_surpass.seize-critical-event" not in regent.fired()


def test_house_fate_changes_the_decision(arcs, arcs_house):
    """House rule example (knowledge/examples/house/hoarder.yaml): a Hoarder with fewer than 2
    resources Taxes first; with no Fate (the base pack does not know the Hoarder) General
    Priorities builds ships."""
    snapshot = """
fate: hoarder
hand_counter: 3
initiative: true
cards: [{suit: construction, number: 6, pips: 2}, {suit: administration, number: 2, pips: 4}]
options:
  - {action: tax, resource: fuel, new_resource: true}
  - {action: build, goal: ships, task_force: true}
"""
    base = decide(arcs, snapshot.replace("fate: hoarder", "fate: none"))
    house = decide(arcs_house, snapshot)
    assert selected(base)["suit"] == "construction"
    assert selected(house)["suit"] == "administration"
    assert house.decision["actions"][0]["rule"] == "hoarder.act1.tax-when-poor"
    assert house.decision["actions"][0]["budget"] == "2"


def test_fate_checked_after_automatic_surpass(arcs):
    """§ Fates: After a card is automatically selected to declare an ambition or surpass, check
    the page corresponding to the bot's Fate, and follow procedures if applicable (Magnate Act I
    Tax with the surpassing Administration card: 2 of its 3 actions)."""
    snapshot = """
fate: magnate
hand_counter: 3
lead_suit: administration
lead_number: 2
cards: [{suit: administration, number: 5, pips: 3}, {suit: construction, number: 6, pips: 2}]
options: [{action: tax, resource: relic, target: Blue city}]
"""
    trace = decide(arcs, snapshot)
    fired = trace.fired()
    assert "bot_turn.surpass" in fired
    assert "bot_turn.fate-after-auto-select" in fired
    assert "magnate.act1.tax-resource.auto-selected" in fired
    assert selected(trace)["number"] == 5
    assert trace.decision["actions"][0]["budget"] == "2"
    assert trace.steps[-1].page == "administration"


def test_fate_after_surpass_does_not_change_the_card(arcs):
    """§ Fates: the Fate's lines act only with the automatically selected card's suit (the
    Magnate's Tax needs Administration; the surpassing card is Construction)."""
    trace = decide(arcs, """
fate: magnate
hand_counter: 3
lead_suit: construction
lead_number: 2
cards: [{suit: construction, number: 5, pips: 2}, {suit: administration, number: 6, pips: 3}]
options: [{action: tax, resource: relic}]
""")
    assert "bot_turn.fate-after-auto-select" in trace.fired()
    assert not any(a["rule"].startswith("magnate.") for a in trace.decision["actions"])
    assert selected(trace)["suit"] == "construction"
    assert trace.steps[-1].page == "construction"


def test_fate_consulted_once_per_turn(arcs):
    """§ Fates: Check the procedures for the bot's Fate once each turn (General Priorities
    already checked it: no second check before the suit page)."""
    trace = decide(arcs, "fate: magnate\n" + HAND + "answers: {can.build.ships: yes}\n")
    assert trace.fired().count("gp.fate") == 1
    assert "bot_turn.fate-after-auto-select" not in trace.fired()
