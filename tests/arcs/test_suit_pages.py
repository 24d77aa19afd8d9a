"""SUPERCAT suit pages: Administration, Aggression, Construction, Mobilization, and the Prelude.

Each test leads with a single card of the suit, so General Priorities has one play to pick and
the suit page decides the action.
"""

from __future__ import annotations

from tests.arcs.helpers import actions, decide, last_action, one_card


def page_action(engine, suit: str, extra: str, pips: int = 3):
    trace = decide(engine, one_card(suit, pips) + extra)
    assert trace.steps[-1].page == suit
    return trace, last_action(trace) if trace.decision["actions"] else None


# --- Administration -------------------------------------------------------------------------


def test_admin_tax_to_contend_declared_comes_first(arcs):
    """Administration ✦ Can bot Tax to contend a declared ambition? [1]"""
    _, action = page_action(arcs, "administration",
                            "answers: {can.tax.contend_declared: yes, can.repair.any: yes}")
    assert action["rule"] == "admin.tax-contend-declared"
    assert action["action"] == "tax"
    assert action["details"].startswith("3 action(s)")


def test_admin_repair_change_control_only_with_rival_control(arcs):
    """Administration ✦ Are any loyal buildings controlled by a rival? Can bot Repair to change
    control? [13] — a Type 2 question: without rival control, read on."""
    answers = "answers: {can.repair.change_control: yes, can.repair.any: yes}\n"
    _, yes = page_action(arcs, "administration",
                         "loyal_buildings_rival_controlled: true\n" + answers)
    assert yes["rule"] == "admin.repair-change-control"
    _, no = page_action(arcs, "administration", answers)
    assert no["rule"] == "admin.repair-any.guidance"


def test_admin_tax_undeclared_before_captives(arcs):
    """Administration ✦ Can bot Tax to contend an undeclared ambition or to take captives?
    [23,24]"""
    _, action = page_action(arcs, "administration",
                            "answers: {can.tax.captives: yes, can.tax.contend_undeclared: yes}")
    assert action["rule"] == "admin.tax-contend-undeclared"


def test_admin_influence_prefers_a_lore_card(arcs):
    """Administration ✦ Can bot Influence a card? [27] with § Influence Principles, Priorities:
    Lore card first."""
    _, action = page_action(arcs, "administration", """
options:
  - {action: influence, court_card: court, uncontested: true, target: Mining Interest}
  - {action: influence, court_card: lore, target: Sprinter Drives}
""")
    assert action["rule"] == "admin.influence-card"
    assert action["target"]["target"] == "Sprinter Drives"


def test_admin_tax_for_resources_prefers_new_resources(arcs):
    """Administration ✦ Can bot Tax to gain resources? [47] Prefer: new resources"""
    _, action = page_action(arcs, "administration", """
options:
  - {action: tax, resource: fuel, target: "own city, fuel"}
  - {action: tax, resource: relic, new_resource: true, target: "Blue city, relic"}
""")
    assert action["rule"] == "admin.tax-resources"
    assert action["target"]["target"] == "Blue city, relic"


def test_admin_repair_prefers_task_force_ships(arcs):
    """Administration ✦ Can bot Repair any other ships or buildings? [38] Prefer: ships in task
    force; other ships; starport, if only one on map; cities"""
    _, action = page_action(arcs, "administration", """
options:
  - {action: repair, piece: city, target: city}
  - {action: repair, piece: ship, target: lone ship}
  - {action: repair, piece: ship, task_force: true, target: task force ships}
""")
    assert action["target"]["target"] == "task force ships"


def test_admin_nothing_to_do_stops(arcs):
    """No line of the Administration page applies: the bot cannot act here."""
    trace, _ = page_action(arcs, "administration", "")
    assert trace.decision["result"] == "no_action"
    assert trace.fired()[-1] == "admin.no-action"


# --- Aggression -----------------------------------------------------------------------------


def test_aggr_secure_to_contend_declared_first(arcs):
    """Aggression ✦ Can bot Secure to contend a declared ambition? [2] (derived from the options:
    a Secure making the bot second in declared Keeper)."""
    trace, action = page_action(arcs, "aggression", """
ambitions: [{name: keeper, declared: true, bot: 1, best_rival: 3, second_rival: 2}]
options:
  - {action: secure, ambition: keeper, place_after: 2, target: Relic Fence}
  - {action: battle, goal: trophies, target: Red fleet}
""")
    assert action["rule"] == "aggr.secure-contend-declared"
    assert trace.judgments["can.secure.contend_declared"].origin == "derived"


def test_aggr_new_claims_line_is_ignored_for_flagship(arcs):
    """Aggression ✦ (ignore for Flagship) Does bot have no starport and no claims? Can bot Move to
    get new claims? [10]"""
    answers = "starports: 0\nclaims: 0\nanswers: {can.move.new_claim: yes, can.move.gate: yes}\n"
    _, plain = page_action(arcs, "aggression", answers)
    assert plain["rule"] == "aggr.move-claims-no-starport"
    _, flagship = page_action(arcs, "aggression", "flagship: true\n" + answers)
    assert flagship["rule"] == "aggr.move-gate.guidance"


def test_aggr_trophies_need_an_ambition_marker(arcs):
    """Aggression ✦ Are there any ambition markers available? Can bot favorable combat to take
    trophies? [41]"""
    options = "options: [{action: battle, goal: trophies, target: Blue ships}]\n"
    _, yes = page_action(arcs, "aggression", options)
    assert yes["rule"] == "aggr.combat-trophies"
    trace, _ = page_action(arcs, "aggression", "ambition_markers_available: false\n" + options)
    assert trace.decision["result"] == "no_action"


def test_aggr_unfavorable_battle_is_not_an_option(arcs):
    """§ Combat Principles: only a favorable combat counts."""
    trace, _ = page_action(arcs, "aggression",
                           "options: [{action: battle, goal: trophies, favorable: false}]\n")
    assert trace.decision["result"] == "no_action"


# --- Construction ---------------------------------------------------------------------------


def test_cons_no_starport_builds_one_preferring_bot_control(arcs):
    """Construction ✦ Does bot have no starport? Can bot Build a starport? [9] Prefer system with:
    bot control, most loyal ships."""
    _, action = page_action(arcs, "construction", """
starports: 0
options:
  - {action: build, goal: starport, control: neutral, loyal_ships: 4, target: Cradle 3}
  - {action: build, goal: starport, control: bot, loyal_ships: 1, target: Arrow 3}
  - {action: build, goal: starport, control: bot, loyal_ships: 2, target: Arrow 1}
""")
    assert action["rule"] == "cons.build-starport-none"
    assert action["target"]["target"] == "Arrow 1"


def test_cons_double_city_only_when_winning_a_declared_ambition(arcs):
    """Construction ✦ Can bot Build cities? [16] Prefer: only Build double city if winning a
    declared ambition and uncovering power bonus."""
    double = "options: [{action: build, goal: city, double_city: true, power_bonus: true}]\n"
    trace, _ = page_action(arcs, "construction", double)
    assert "cons.build-cities" not in trace.fired()
    _, winning = page_action(arcs, "construction", double + (
        "ambitions: [{name: tycoon, declared: true, bot: 3, best_rival: 1}]\n"))
    assert winning["rule"] == "cons.build-cities"


def test_cons_ships_prefer_the_task_force(arcs):
    """Construction ✦ Can bot Build any ships? [36] Prefer: ships in task force; fresh ships"""
    _, action = page_action(arcs, "construction", """
options:
  - {action: build, goal: ships, target: home}
  - {action: build, goal: ships, task_force: true, target: front}
""")
    assert action["rule"] == "cons.build-ships"
    assert action["target"]["target"] == "front"


# --- Mobilization ---------------------------------------------------------------------------


def test_mob_new_claim_prefers_new_resources(arcs):
    """Mobilization ✦ Does bot have unbuilt cities and fewer claims than half number of unbuilt
    cities? Can bot Move to get at least one new claim? [18] Prefer: new resources"""
    _, action = page_action(arcs, "mobilization", """
unbuilt_cities: 4
claims: 1
options:
  - {action: move, goal: new_claim, slots: 2, unclaimed: true, target: Arrow 2}
  - {action: move, goal: new_claim, new_resource: true, target: Hexy 1}
""")
    assert action["rule"] == "mob.move-new-claim"
    assert action["target"]["target"] == "Hexy 1"


def test_mob_enough_claims_reads_on_to_influence(arcs):
    """[18] fewer claims than half the unbuilt cities, rounded down: 2 claims, 5 cities → no."""
    _, action = page_action(arcs, "mobilization", """
unbuilt_cities: 5
claims: 2
options:
  - {action: move, goal: new_claim, target: Arrow 2}
  - {action: influence, court_card: court, target: Galactic Bards}
""")
    assert action["rule"] == "mob.influence-card"


def test_mob_task_force_needs_unassigned_ships(arcs):
    """Mobilization ✦ Are there any ships not controlling gates or claims or rival buildings? Can
    bot Move to unassigned ships to task force (use partial move)? [45]"""
    option = "options: [{action: move, goal: task_force}]\n"
    _, yes = page_action(arcs, "mobilization", "ships_unassigned: true\n" + option)
    assert yes["rule"] == "mob.move-task-force"
    trace, _ = page_action(arcs, "mobilization", option)
    assert trace.decision["result"] == "no_action"


# --- Prelude --------------------------------------------------------------------------------


def test_prelude_union_cards_become_bonus_cards(arcs):
    """§ Prelude, Guild cards: Bot will discard all Union cards to gain bonus action cards ...
    increment bot's hand counter."""
    trace, _ = page_action(arcs, "administration", "union_cards: 2\n")
    step = next(s for s in trace.steps if s.rule == "prelude.union")
    assert step.outcome["set"]["hand_counter"]["to"] == 4  # 3, -1 this turn, +2
    assert step.outcome["set"]["bonus_cards"]["to"] == 2


def test_prelude_material_builds_starport_then_cities(arcs):
    """§ Prelude, Resources: Material: spend to Build a starport if none on map, otherwise Build
    cities, then ships."""
    trace, _ = page_action(arcs, "construction", """
material: 1
starports: 0
options: [{action: build, goal: starport}, {action: build, goal: city}]
""")
    assert ("spend_material", "Build a starport (none on the map)") in actions(trace)
    trace, _ = page_action(arcs, "construction", """
material: 1
unbuilt_cities: 3
claims: 2
options: [{action: build, goal: city}]
""")
    assert ("spend_material", "Build cities") in actions(trace)


def test_prelude_tycoon_declared_keeps_material(arcs):
    """§ Prelude, Restrictions: if Tycoon is declared do not spend Fuel or Material."""
    trace, _ = page_action(arcs, "construction", """
material: 2
fuel: 1
unbuilt_cities: 3
claims: 2
ambitions: [{name: tycoon, declared: true, bot: 0, best_rival: 2}]
options: [{action: build, goal: city}, {action: battle, goal: trophies}]
""")
    spent = [a for a, _ in actions(trace)]
    assert "spend_material" not in spent
    assert "spend_fuel" not in spent
    assert "prelude.restrictions" in trace.fired()


def test_prelude_keeper_relic_exception(arcs):
    """§ Prelude, Restrictions: if Keeper is declared do not spend Relic resources, UNLESS
    securing a Relic card."""
    keeper = "relic: 1\nambitions: [{name: keeper, declared: true, bot: 1, best_rival: 3}]\n"
    trace, _ = page_action(arcs, "aggression", keeper + (
        "options: [{action: secure, captives: 1, resource: fuel}]\n"))
    assert "spend_relic" not in [a for a, _ in actions(trace)]
    trace, _ = page_action(arcs, "aggression", keeper + (
        "options: [{action: secure, captives: 1, resource: relic}]\n"))
    assert "spend_relic" in [a for a, _ in actions(trace)]


def test_prelude_weapon_for_a_favorable_combat(arcs):
    """§ Prelude, Resources: Fuel and Weapon: spend for Combat card."""
    trace, _ = page_action(arcs, "aggression", """
weapon: 1
options: [{action: battle, goal: trophies}]
""")
    assert actions(trace)[0] == ("spend_weapon", "enable the Combat card (Battle)")
    assert actions(trace)[-1][0] == "favorable_combat"
