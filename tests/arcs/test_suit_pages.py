"""SUPERCAT suit pages: Administration, Aggression, Construction, Mobilization, and the Prelude.

Each test leads with a single card of the suit, so General Priorities has one play to pick and
the suit page decides the actions. A one-pip card takes one action unless the test says more.
"""

from __future__ import annotations

import pytest

from tests.arcs.helpers import actions, decide, one_card


def page_actions(engine, suit: str, extra: str, pips: int = 1):
    """The card's actions on `suit`'s page (the Prelude's left out)."""
    trace = decide(engine, one_card(suit, pips) + extra)
    assert suit in [s.page for s in trace.steps]
    return trace, [a for a in trace.decision.actions if a.page == suit]


def rules_of(acts) -> list[str]:
    return [a.rule for a in acts]


# --- Administration -------------------------------------------------------------------------


def test_admin_tax_to_contend_declared_comes_first(arcs):
    """Administration ✦ Can bot Tax to contend a declared ambition? [1] — before Repair [38]."""
    _, acts = page_actions(arcs, "administration",
                           "answers: {can.tax.contend_declared: yes, can.repair.any: yes}")
    assert rules_of(acts) == ["admin.tax-contend-declared"]
    assert acts[0].target is None  # an answer, no option: the player picks the city


def test_admin_repair_change_control_only_with_rival_control(arcs):
    """Administration ✦ Are any loyal buildings controlled by a rival? Can bot Repair to change
    control? [13] — a Type 2 question: without rival control, read on."""
    options = "options: [{action: repair, goal: change_control, piece: city, target: home}]\n"
    _, yes = page_actions(arcs, "administration", "rival_controlled: 1\n" + options)
    assert rules_of(yes) == ["admin.repair-change-control"]
    _, no = page_actions(arcs, "administration", options)
    assert rules_of(no) == ["admin.repair-any"]


def test_admin_tax_undeclared_before_captives(arcs):
    """Administration ✦ Can bot Tax to contend an undeclared ambition or to take captives?
    [23,24]"""
    _, acts = page_actions(arcs, "administration", """
ambitions: [{name: tycoon, bot: 1, best_rival: 2, second_rival: 1}]
options:
  - {action: tax, captives: 1, target: Red city}
  - {action: tax, ambition: tycoon, target: Blue city}
""")
    assert rules_of(acts) == ["admin.tax-contend-undeclared"]
    assert acts[0].target["target"] == "Blue city"


def test_admin_influence_prefers_a_lore_card(arcs):
    """Administration ✦ Can bot Influence a card? [27] with § Influence Principles, Priorities:
    Lore card first."""
    _, acts = page_actions(arcs, "administration", """
options:
  - {action: influence, court_card: court, target: Mining Interest}
  - {action: influence, court_card: lore, target: Sprinter Drives}
""")
    assert rules_of(acts) == ["admin.influence-card"]
    assert acts[0].target["target"] == "Sprinter Drives"


def test_admin_tax_for_resources_prefers_new_resources(arcs):
    """Administration ✦ Can bot Tax to gain resources? [47] Prefer: new resources"""
    _, acts = page_actions(arcs, "administration", """
options:
  - {action: tax, resource: fuel, target: "own city, fuel"}
  - {action: tax, resource: relic, new_resource: true, target: "Blue city, relic"}
""")
    assert rules_of(acts) == ["admin.tax-resources"]
    assert acts[0].target["target"] == "Blue city, relic"


def test_admin_repair_prefers_task_force_ships(arcs):
    """Administration ✦ Can bot Repair any other ships or buildings? [38] Prefer: ships in task
    force; other ships; starport, if only one on map; cities"""
    _, acts = page_actions(arcs, "administration", """
options:
  - {action: repair, piece: city, target: city}
  - {action: repair, piece: ship, target: lone ship}
  - {action: repair, piece: ship, task_force: true, target: task force ships}
""")
    assert acts[0].target["target"] == "task force ships"


def test_admin_nothing_to_do(arcs):
    """No line of the Administration page applies: the card's action is not spent."""
    trace, acts = page_actions(arcs, "administration", "")
    assert acts == []
    assert "admin.no-action" in trace.fired()
    assert trace.decision.result == "no_action"


# --- Aggression -----------------------------------------------------------------------------


def test_aggr_secure_to_contend_declared_first(arcs):
    """Aggression ✦ Can bot Secure to contend a declared ambition? [2] (derived from the options:
    a Secure making the bot second in declared Keeper)."""
    trace, acts = page_actions(arcs, "aggression", """
ambitions: [{name: keeper, declared: true, bot: 1, best_rival: 3, second_rival: 2}]
options:
  - {action: secure, ambition: keeper, gain: 1, target: Relic Fence}
  - {action: battle, goal: trophies, ships: 3, fresh_ships: 3, defenders: 1, target: Red fleet}
""")
    assert rules_of(acts) == ["aggr.secure-contend-declared"]
    assert trace.judgments["can.secure.contend_declared"].origin == "derived"
    assert acts[0].target["place_after"] == 2


def test_aggr_new_claims_line_is_ignored_for_flagship(arcs):
    """Aggression ✦ (ignore for Flagship) Does bot have no starport and no claims? Can bot Move to
    get new claims? [10]"""
    answers = "starports: 0\nclaims: 0\nanswers: {can.move.new_claim: yes, can.move.gate: yes}\n"
    _, plain = page_actions(arcs, "aggression", answers)
    assert rules_of(plain) == ["aggr.move-claims-no-starport"]
    _, flagship = page_actions(arcs, "aggression", "flagship: true\n" + answers)
    assert rules_of(flagship) == ["aggr.move-gate"]


def test_aggr_trophies_need_an_ambition_marker(arcs):
    """Aggression ✦ Are there any ambition markers available? Can bot favorable combat to take
    trophies? [41]"""
    options = ("options: [{action: battle, goal: trophies, ships: 2, fresh_ships: 2, "
               "defenders: 2, target: Blue ships}]\n")
    _, yes = page_actions(arcs, "aggression", options)
    assert rules_of(yes) == ["aggr.combat-trophies"]
    trace, no = page_actions(arcs, "aggression", "ambition_markers_available: false\n" + options)
    assert no == [] and trace.decision.result == "no_action"


def test_aggr_an_unfavorable_battle_is_not_taken(arcs):
    """§ Combat Principles, Trophies: at least 1:1 fresh ships — 1 against 2 is not favorable."""
    trace, acts = page_actions(arcs, "aggression", """
options: [{action: battle, goal: trophies, ships: 1, fresh_ships: 1, defenders: 2}]
""")
    assert acts == []
    assert trace.judgments["can.combat.trophies"].value is False


def test_aggr_a_given_favorable_overrides_the_principles(arcs):
    """A derived field given on the option is the player's answer (marked given)."""
    _, acts = page_actions(arcs, "aggression", """
options: [{action: battle, goal: trophies, ships: 1, fresh_ships: 1, defenders: 2, favorable: true}]
""")
    assert rules_of(acts) == ["aggr.combat-trophies"]


# --- Construction ---------------------------------------------------------------------------


def test_cons_no_starport_builds_one_preferring_bot_control(arcs):
    """Construction ✦ Does bot have no starport? Can bot Build a starport? [9] Prefer system with:
    bot control, most loyal ships."""
    _, acts = page_actions(arcs, "construction", """
starports: 0
options:
  - {action: build, goal: starport, control: neutral, loyal_ships: 4, target: Cradle 3}
  - {action: build, goal: starport, control: bot, loyal_ships: 1, target: Arrow 3}
  - {action: build, goal: starport, control: bot, loyal_ships: 2, target: Arrow 1}
""")
    assert rules_of(acts) == ["cons.build-starport-none"]
    assert acts[0].target["target"] == "Arrow 1"


def test_cons_double_city_only_when_winning_a_declared_ambition(arcs):
    """Construction ✦ Can bot Build cities? [16] Prefer: only Build double city if winning a
    declared ambition and uncovering power bonus (§ Expansion Principles: a hard limit)."""
    double = "options: [{action: build, goal: city, double_city: true, power_bonus: true}]\n"
    _, acts = page_actions(arcs, "construction", double)
    assert acts == []
    _, winning = page_actions(arcs, "construction", double + (
        "ambitions: [{name: tycoon, declared: true, bot: 3, best_rival: 1}]\n"))
    assert rules_of(winning) == ["cons.build-cities"]


def test_cons_ships_prefer_the_task_force(arcs):
    """Construction ✦ Can bot Build any ships? [36] Prefer: ships in task force; fresh ships"""
    _, acts = page_actions(arcs, "construction", """
options:
  - {action: build, goal: ships, target: home}
  - {action: build, goal: ships, task_force: true, target: front}
""")
    assert rules_of(acts) == ["cons.build-ships"]
    assert acts[0].target["target"] == "front"


# --- Mobilization ---------------------------------------------------------------------------


def test_mob_new_claim_prefers_new_resources(arcs):
    """Mobilization ✦ Does bot have unbuilt cities and fewer claims than half number of unbuilt
    cities? Can bot Move to get at least one new claim? [18] Prefer: new resources"""
    _, acts = page_actions(arcs, "mobilization", """
unbuilt_cities: 4
claims: 1
options:
  - {action: move, goal: new_claim, slots: 2, unclaimed: true, target: Arrow 2}
  - {action: move, goal: new_claim, new_resource: true, target: Hexy 1}
""")
    assert rules_of(acts) == ["mob.move-new-claim"]
    assert acts[0].target["target"] == "Hexy 1"


def test_mob_enough_claims_reads_on_to_influence(arcs):
    """[18] fewer claims than half the unbuilt cities, rounded down: 2 claims, 5 cities → no."""
    _, acts = page_actions(arcs, "mobilization", """
unbuilt_cities: 5
claims: 2
options:
  - {action: move, goal: new_claim, target: Arrow 2}
  - {action: influence, court_card: court, target: Galactic Bards}
""")
    assert rules_of(acts) == ["mob.influence-card"]


def test_mob_task_force_needs_unassigned_ships(arcs):
    """Mobilization ✦ Are there any ships not controlling gates or claims or rival buildings? Can
    bot Move to unassigned ships to task force (use partial move)? [45]"""
    option = "options: [{action: move, goal: task_force}]\n"
    _, yes = page_actions(arcs, "mobilization", "ships_unassigned: true\n" + option)
    assert rules_of(yes) == ["mob.move-task-force"]
    trace, no = page_actions(arcs, "mobilization", option)
    assert no == [] and trace.decision.result == "no_action"


# --- Prelude --------------------------------------------------------------------------------


def test_prelude_union_cards_become_bonus_cards(arcs):
    """§ Prelude, Guild cards: Bot will discard all Union cards to gain bonus action cards ...
    increment bot's hand counter."""
    trace, _ = page_actions(arcs, "administration", "union_cards: 2\n")
    step = next(s for s in trace.steps if s.rule == "prelude.union")
    assert step.outcome["set"]["hand_counter"]["to"] == 4  # 3, -1 this turn, +2
    assert step.outcome["set"]["bonus_cards"]["to"] == 2


UNIONS = """union_cards: 3
guild_cards:
  - {name: Fuel Union, suit: fuel, union: true}
  - {name: Psionic Union, suit: psionic, union: true}
  - {name: Relic Union, suit: relic, union: true}
ambitions:
"""


@pytest.mark.parametrize(("declared", "discarded"), [
    ([], 3),  # no restricting ambition: all three
    (["tycoon"], 2),  # Tycoon keeps Fuel (and Material) Guild cards
    (["empath"], 2),  # Empath keeps Psionic
    (["keeper"], 2),  # Keeper keeps Relic (its exception, securing a Relic card, is no Union card)
    (["tycoon", "empath", "keeper"], 0),
    (["warlord", "tyrant"], 3),  # no resource suit matches them
])
def test_prelude_keeps_union_cards_matching_a_declared_ambition(arcs, declared, discarded):
    """§ Prelude › Restrictions (L1040–1044): Bot will not spend resources or Guild cards matching
    a declared ambition; › Guild cards (L1066): Bot will discard all Union cards — the others
    (readings R147)."""
    listed = "".join(f"  - {{name: {a}, declared: true}}\n" for a in declared) or "  []\n"
    trace, _ = page_actions(arcs, "administration", UNIONS + listed)
    steps = [s for s in trace.steps if s.rule == "prelude.union"]
    if not discarded:
        assert not steps
        return
    assert steps[0].outcome["set"]["hand_counter"]["to"] == 2 + discarded  # 3, -1 this turn
    assert steps[0].outcome["set"]["bonus_cards"]["to"] == discarded
    assert steps[0].outcome["set"]["union_cards"]["to"] == 3 - discarded


def test_prelude_union_count_without_suits_stops_only_under_a_restriction(arcs):
    """A Union card's suit decides only when Tycoon, Empath or Keeper is declared: then a count
    without the suits stops with list_cards (readings R147, R90); otherwise all are discarded."""
    tycoon = "union_cards: 2\nambitions: [{name: tycoon, declared: true}]\n"
    trace = decide(arcs, one_card("administration", 1) + tycoon)
    assert trace.decision.result == "list_cards"
    assert "discard_union" not in [a for a, _ in actions(trace)]
    listed = tycoon + ("guild_cards: [{name: A, suit: weapon, union: true},"
                       " {name: B, suit: material, union: true}]\n")
    trace = decide(arcs, one_card("administration", 1) + listed)
    step = next(s for s in trace.steps if s.rule == "prelude.union")
    assert step.outcome["set"]["union_cards"]["to"] == 1  # Material kept, Weapon discarded
    warlord = "union_cards: 2\nambitions: [{name: warlord, declared: true}]\n"
    trace = decide(arcs, one_card("administration", 1) + warlord)
    step = next(s for s in trace.steps if s.rule == "prelude.union")
    assert step.outcome["set"]["bonus_cards"]["to"] == 2


def test_prelude_material_builds_the_starport_and_the_card_sees_it_built(arcs):
    """§ Prelude, Resources: Material: spend to Build a starport if none on map, otherwise Build
    cities, then ships — the card's action then reads the board the Prelude left."""
    trace, acts = page_actions(arcs, "construction", """
material: 1
starports: 0
unbuilt_cities: 2
claims: 1
options: [{action: build, goal: starport, target: Arrow}, {action: build, goal: city, target: Hexy}]
""")
    spent = [a for a in trace.decision.actions if a.action == "spend_material"]
    assert [a.fields["goal"] for a in spent] == ["Build a starport (none on the map)"]
    assert rules_of(acts) == ["cons.build-cities"]  # [9] no longer applies


def test_prelude_material_one_build_each(arcs):
    """Two Material: a starport, then a city (one Prelude Build per Material)."""
    trace, _ = page_actions(arcs, "construction", """
material: 2
starports: 0
unbuilt_cities: 3
claims: 2
options: [{action: build, goal: starport}, {action: build, goal: city}]
""")
    assert [g for a, g in actions(trace) if a == "spend_material"] == [
        "Build a starport (none on the map)", "Build a city"]


def test_prelude_tycoon_declared_keeps_material(arcs):
    """§ Prelude, Restrictions: if Tycoon is declared do not spend Fuel or Material."""
    trace, _ = page_actions(arcs, "construction", """
material: 2
unbuilt_cities: 3
claims: 2
ambitions: [{name: tycoon, declared: true, bot: 0, best_rival: 2}]
options: [{action: build, goal: city}]
""")
    assert "spend_material" not in [a for a, _ in actions(trace)]
    assert "prelude.restrictions" in trace.fired()


def test_prelude_keeper_relic_exception(arcs):
    """§ Prelude, Restrictions: if Keeper is declared do not spend Relic resources, UNLESS
    securing a Relic card."""
    keeper = "relic: 1\nambitions: [{name: keeper, declared: true, bot: 1, best_rival: 3}]\n"
    trace, _ = page_actions(arcs, "aggression", keeper + (
        "options: [{action: secure, captives: 1, resource: fuel}]\n"))
    assert "spend_relic" not in [a for a, _ in actions(trace)]
    trace, _ = page_actions(arcs, "aggression", keeper + (
        "options: [{action: secure, captives: 1, resource: relic}]\n"))
    assert "spend_relic" in [a for a, _ in actions(trace)]


def test_prelude_spends_no_weapon_when_the_card_takes_no_battle(arcs):
    """§ Prelude, Resources: Fuel and Weapon: spend for Combat card — the card was selected for a
    Tax (General Priorities [1]), so the Weapon and Fuel stay, though a battle is favorable."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
weapon: 1
fuel: 1
cards: [{suit: administration, number: 1, pips: 2}]
ambitions: [{name: tycoon, declared: true, bot: 1, best_rival: 2}]
options:
  - {action: tax, ambition: tycoon, target: Blue city}
  - {action: battle, goal: trophies, ships: 3, fresh_ships: 3, defenders: 1}
""")
    spent = [a for a, _ in actions(trace)]
    assert "spend_weapon" not in spent and "spend_fuel" not in spent
    assert "gp.tax-contend-declared" in trace.fired()


def test_prelude_weapon_for_a_card_selected_for_combat_stops_for_the_battle(arcs):
    """A card selected for a favorable combat (General Priorities [2]) is a Combat card: the Weapon
    is spent for a Battle in the Prelude, and the card waits for the Battle's result."""
    trace = decide(arcs, """
hand_counter: 3
initiative: true
weapon: 1
cards: [{suit: aggression, number: 1, pips: 2}]
ambitions: [{name: warlord, declared: true, bot: 1, best_rival: 2}]
options:
  - {action: battle, ambition: warlord, goal: trophies, ships: 3, fresh_ships: 3, defenders: 1}
""")
    assert "gp.combat-contend-declared" in trace.fired()
    assert [a for a, _ in actions(trace)] == ["spend_weapon"]
    assert trace.decision.result == "battle"
