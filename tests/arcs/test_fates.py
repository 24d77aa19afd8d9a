"""SUPERCAT § Fates: Magnate and Steward pages, the Fate's budget, and a house-rule Fate loaded
as an overlay."""

from __future__ import annotations

from tests.arcs.helpers import actions, decide, selected

HAND = """
hand_counter: 4
initiative: true
cards: [{suit: administration, number: 1, pips: 3}, {suit: aggression, number: 1, pips: 2}]
"""


def pages(trace) -> list[str]:
    return [a.page for a in trace.decision.actions]


def test_magnate_act1_taxes_for_a_resource_matching_a_declared_ambition(arcs):
    """Magnate Act I ✦ Can bot Tax for any resource? Prefer: resource matching any declared
    ambition; new resource. At most half the actions, rounded up (2 of 3), then the suit page."""
    snapshot = HAND + """
ambitions: [{name: empath, declared: true, bot: 1, best_rival: 1}]
options:
  - {action: tax, resource: weapon, new_resource: true, target: Blue city}
  - {action: tax, resource: psionic, target: own city}
  - {action: tax, resource: fuel, target: Red city}
"""
    plain = decide(arcs, snapshot)
    magnate = decide(arcs, "fate: magnate\nact: 1\n" + snapshot)
    assert "magnate.act1.tax-resource" not in plain.fired()
    assert [a.rule for a in magnate.decision.actions] == [
        "magnate.act1.tax-resource", "magnate.act1.tax-resource",
        "magnate.act1.merchant-league.tax"]
    assert [a.target["target"] for a in magnate.decision.actions] == [
        "own city", "Blue city", "Red city"]
    assert selected(magnate)["suit"] == "administration"
    budget = next(s for s in magnate.steps if s.rule == "play.fate")
    assert budget.outcome["set"]["fate_left"] == {"from": 0, "to": 2,
                                                  "by": "(actions_left + 1) // 2"}


def test_the_fate_page_chooses_in_general_priorities_and_acts_after_the_prelude(arcs):
    """§ Fates: General Priorities' first line reads the Fate page to select the card; its
    actions come after the Prelude (readings R2)."""
    trace = decide(arcs, "fate: magnate\nunion_cards: 1\n" + HAND +
                   "options: [{action: tax, resource: fuel}]\n")
    fired = trace.fired()
    choose = next(s for s in trace.steps if s.rule == "magnate.act1.tax-resource")
    assert "read only to choose" in choose.notes[0]
    assert fired.index("gp.fate") < fired.index("prelude.union") < \
        len(fired) - 1 - fired[::-1].index("magnate.act1.tax-resource")
    assert [a for a, _ in actions(trace)] == ["discard_union", "tax"]


def test_magnate_budget_covering_the_card_leaves_nothing_for_the_suit_page(arcs):
    """§ Fates: half the number of available actions, rounded up — a 1-action copy is all Fate."""
    trace = decide(arcs, """
fate: magnate
hand_counter: 4
lead_suit: administration
lead_number: 7
cards: [{suit: construction, number: 2, pips: 4}]
options: [{action: tax, resource: fuel}, {action: tax, resource: relic}]
""")
    assert [a.rule for a in trace.decision.actions] == ["magnate.act1.tax-resource"]
    assert "administration" not in [s.page for s in trace.steps]


def test_magnate_act1_council_influence_before_secure(arcs):
    """Magnate Act I ✦ Can bot Influence or Secure the Imperial Council? (Influence listed
    first)"""
    trace = decide(arcs, "fate: magnate\n" + HAND + (
        "answers: {can.influence.council: yes, can.secure.council: yes}\n"))
    assert trace.decision.actions[0].rule == "magnate.act1.influence-council"
    assert selected(trace)["suit"] == "administration"


def test_magnate_prelude_keeps_resources_when_three_or_fewer(arcs):
    """Magnate Act I, Prelude: Do not spend resources for any Prelude actions if bot has 3 or
    fewer resources."""
    snapshot = """
hand_counter: 3
initiative: true
material: 1
cards: [{suit: construction, number: 1, pips: 1}]
options: [{action: build, goal: ships}, {action: build, goal: ships, task_force: true}]
"""
    plain = decide(arcs, snapshot)
    magnate = decide(arcs, "fate: magnate\n" + snapshot)
    assert "spend_material" in [a for a, _ in actions(plain)]
    assert "spend_material" not in [a for a, _ in actions(magnate)]
    assert "magnate.act1.prelude" in magnate.fired()
    rich = decide(arcs, "fate: magnate\nfuel: 3\n" + snapshot)
    assert "spend_material" in [a for a, _ in actions(rich)]


def test_magnate_act2_monopoly_derived_from_the_resources_in_play(arcs):
    """Magnate Act II ✦ Can bot Tax ... resulting in the bot having more than half of the total
    resources of its type in play? Prefer: Resource matching Monopoly in the supply. A Tax takes
    from the supply, so the bot's count and the total rise together (readings R23). Fuel: 2 of 4,
    then 3 of 5 > 2.5; relic: 1 of 4, then 2 of 5, not more than half."""
    trace = decide(arcs, "fate: magnate\nact: 2\n" + HAND + """
monopolies:
  - {resource: fuel, holder: rival, in_play: 4, bot_holds: 2}
  - {resource: relic, holder: supply, in_play: 4, bot_holds: 1}
options:
  - {action: tax, resource: relic, target: relic}
  - {action: tax, resource: fuel, target: fuel}
""")
    first = trace.decision.actions[0]
    assert first.rule == "magnate.act2.tax-monopoly"
    assert first.target["target"] == "fuel"


def test_magnate_act2_monopoly_in_supply_blocks_prelude_spending(arcs):
    """Magnate Act II, Prelude: If bot has a matching Monopoly, or the matching Monopoly is in the
    supply, do not spend resources for Prelude actions."""
    snapshot = """
fate: magnate
act: 2
hand_counter: 3
initiative: true
material: 1
cards: [{suit: construction, number: 1, pips: 1}]
options: [{action: build, goal: ships}]
"""
    held = decide(arcs, snapshot + "monopolies: [{resource: material, holder: supply}]\n")
    assert "spend_material" not in [a for a, _ in actions(held)]
    rival = decide(arcs, snapshot + "monopolies: [{resource: material, holder: rival}]\n")
    assert "spend_material" in [a for a, _ in actions(rival)]


def test_steward_secures_council_in_session(arcs):
    """Steward All Acts ✦ Is the Imperial Council “In Session”? Yes: Can bot Secure or Influence
    the Imperial Council?"""
    snapshot = HAND + "options: [{action: secure, court_card: imperial_council}]\n"
    plain = decide(arcs, snapshot)
    steward = decide(arcs, "fate: steward\n" + snapshot)
    assert steward.decision.actions[0].rule == "steward.act1.in-session.secure-council"
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
    assert act2.decision.actions[0].rule == "steward.act2.empire-control"


def test_steward_act2_double_city_when_it_ties_the_most_cities(arcs):
    """Steward Act II ✦ Does a rival have more cities than bot? Can bot Build a city? If bot would
    have most cities by building a double city, ignore usual restriction on double cities
    (readings R10: ties included). The plain bot, not winning a declared ambition, builds none."""
    snapshot = """
hand_counter: 3
initiative: true
cities: 2
rival_cities: 3
unbuilt_cities: 3
claims: 1
cards: [{suit: construction, number: 1, pips: 1}]
options: [{action: build, goal: city, double_city: true, target: second city on Arrow 1}]
"""
    plain = decide(arcs, "act: 2\n" + snapshot)
    steward = decide(arcs, "fate: steward\nact: 2\n" + snapshot)
    assert "build" not in [a for a, _ in actions(plain)]
    assert steward.decision.actions[0].rule == "steward.act2.build-city"
    far_behind = decide(arcs, "fate: steward\nact: 2\n" + snapshot.replace("rival_cities: 3",
                                                                           "rival_cities: 4"))
    assert "build" not in [a for a, _ in actions(far_behind)]


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
    resources Taxes first; with no Fate General Priorities builds ships."""
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
    assert house.decision.actions[0].rule == "hoarder.act1.tax-when-poor"


def test_fate_acts_with_an_automatically_surpassing_card(arcs):
    """§ Fates: After a card is automatically selected to declare an ambition or surpass, check
    the page corresponding to the bot's Fate, and follow procedures if applicable (Magnate Act I
    Tax with the surpassing Administration card: 2 of its 3 actions)."""
    trace = decide(arcs, """
fate: magnate
hand_counter: 3
lead_suit: administration
lead_number: 2
cards: [{suit: administration, number: 5, pips: 3}, {suit: construction, number: 6, pips: 2}]
options: [{action: tax, resource: relic, target: Blue city}, {action: tax, resource: fuel}]
""")
    assert "bot_turn.surpass" in trace.fired()
    assert "gp.fate" not in trace.fired()
    assert selected(trace)["number"] == 5
    assert pages(trace) == ["fate.magnate.act1", "fate.magnate.act1"]


def test_fate_after_surpass_does_not_change_the_card(arcs):
    """§ Fates: the Fate's lines act only with the automatically selected card's suit (the
    Magnate's Tax needs Administration; the surpassing card is Construction)."""
    trace = decide(arcs, """
fate: magnate
hand_counter: 3
lead_suit: construction
lead_number: 2
cards: [{suit: construction, number: 5, pips: 2}, {suit: administration, number: 6, pips: 3}]
options: [{action: tax, resource: relic}, {action: build, goal: ships}]
""")
    assert not any(a.rule.startswith("magnate.") for a in trace.decision.actions)
    assert selected(trace)["suit"] == "construction"
    assert pages(trace) == ["construction"]


def test_fate_consulted_once_to_choose(arcs):
    """§ Fates: Check the procedures for the bot's Fate once each turn: General Priorities reads it
    once to choose; no Fate line applies, so General Priorities selects and the Fate takes no
    action with the card."""
    trace = decide(arcs, "fate: magnate\n" + HAND + "answers: {can.build.ships: yes}\n")
    assert trace.fired().count("gp.fate") == 1
    assert not any(a.page.startswith("fate.") for a in trace.decision.actions)
