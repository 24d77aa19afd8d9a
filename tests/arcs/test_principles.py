"""SUPERCAT's four Principles as derivations from what the options say: Combat (favorable by
goal, outrage), Influence (how many agents, or none), Expansion (claims, the double-city limit),
Movement (origin before path). Each test reads the fields derived for one option, as the trace
lists them, and checks the arithmetic against the seed's sentence."""

from __future__ import annotations

from tests.arcs.helpers import decide

LEAD = """
hand_counter: 3
initiative: true
cards: [{{suit: {suit}, number: 1, pips: {pips}}}]
"""


def derived(engine, option: str, suit: str = "aggression", pips: int = 3, extra: str = "",
            ) -> dict:
    """The fields derived for the single listed option (value only)."""
    trace = decide(engine, LEAD.format(suit=suit, pips=pips) + extra +
                   f"options: [{option}]\n")
    found = [j for j in trace.entity_judgments if j["entity"].startswith("option ")]
    assert len({j["entity"] for j in found}) == 1
    return {j["field"]: j["value"] for j in found}


# --- Combat Principles ----------------------------------------------------------------------


def battle(**fields) -> str:
    base = {"action": "battle", "ships": 3, "fresh_ships": 3, "defenders": 3}
    base.update(fields)
    return "{" + ", ".join(f"{k}: {v}" for k, v in base.items()) + "}"


def test_trophies_need_at_least_one_to_one_fresh_ships(arcs):
    """Trophies: favorable if bot has at least 1:1 ratio of fresh ships."""
    assert derived(arcs, battle(goal="trophies"))["favorable"] is True
    worse = derived(arcs, battle(goal="trophies", defenders=4))
    assert worse["fresh_vs_defenders"] == "worse than 1:1"
    assert worse["favorable"] is False


def test_trophies_against_blight_need_two_dice(arcs):
    """... or can roll 2 dice vs Blight (fresh ships outnumbered)."""
    two = derived(arcs, battle(goal="blight", vs_blight="true", ships=2, fresh_ships=1,
                               defenders=3))
    assert two["combat"] == "trophies" and two["favorable"] is True
    one = derived(arcs, battle(goal="blight", vs_blight="true", ships=1, fresh_ships=1,
                               defenders=3))
    assert one["favorable"] is False


def test_raid_needs_raid_dice_equal_to_twice_the_keys(arcs):
    """Raid: bot can roll raid dice equal to 2x keys AND better than 1:1 fresh ships."""
    ok = derived(arcs, battle(goal="raid", keys=1, fresh_ships=3, defenders=2))
    assert ok["raid_dice_ok"] is True and ok["favorable"] is True
    short = derived(arcs, battle(goal="raid", keys=2, fresh_ships=3, defenders=2))
    assert short["dice"] == 3 and short["raid_dice_ok"] is False
    assert short["favorable"] is False


def test_raid_at_one_to_one_needs_more_than_one_battle_action_after_moving(arcs):
    """... OR has 1:1 ratio AND more than one Battle action available after moving: 3 actions,
    1 Move → 2 Battle actions (favorable); 2 Moves → 1 (not)."""
    near = derived(arcs, battle(goal="raid", keys=1, moves=1))
    assert near["battle_actions"] == 2 and near["favorable"] is True
    far = derived(arcs, battle(goal="raid", keys=1, moves=2))
    assert far["battle_actions"] == 1 and far["favorable"] is False


def test_fuel_and_psionic_the_prelude_would_spend_add_battle_actions_after_moving(arcs):
    """Readings R140 (L1217: will spend Fuel and Psionic resources to maximize available
    actions during a combat): each Fuel pays a Move, each Psionic adds an action. 3 actions,
    2 Moves: 1 Battle action; with 1 Fuel 2 (the 1:1 raid turns favorable); 3 Fuel pay both
    Moves and no more: 3; 1 Psionic: 2; 1 Fuel and 1 Psionic: 3."""
    far = battle(goal="raid", keys=1, moves=2)
    for board, actions in (("", 1), ("fuel: 1\n", 2), ("fuel: 3\n", 3), ("psionic: 1\n", 2),
                           ("fuel: 1\npsionic: 1\n", 3)):
        fields = derived(arcs, far, extra=board)
        assert fields["battle_actions"] == actions, board
        assert fields["favorable"] is (actions > 1), board


def test_the_card_spends_no_action_on_what_the_prelude_fuel_and_psionic_took(arcs):
    """Readings R140 with L106 (the Prelude spends resources "for their effect now", then the
    suit page takes the card's actions): a Move paid by Fuel, or an action Psionic took, is not
    one of the card's actions. 3 actions, 2 Moves then a Battle: the card spends 3; with 1 Fuel
    2, with 3 Fuel 1 (only the Battle), with 1 Psionic 2, with 1 Fuel and 1 Psionic 1 — always
    leaving the Battle actions after moving less the one just taken."""
    far = battle(goal="trophies", fresh_ships=3, defenders=3, moves=2)
    for board, cost in (("", 3), ("fuel: 1\n", 2), ("fuel: 3\n", 1), ("psionic: 1\n", 2),
                        ("fuel: 1\npsionic: 1\n", 1)):
        fields = derived(arcs, far, extra=board)
        assert fields["cost"] == cost, board
        assert 3 - cost == fields["battle_actions"] - 1, board


def test_a_fuel_assisted_battle_leaves_the_card_an_action_for_after_its_result(arcs):
    """combat_raid_fuel.yaml: 2 actions, the raid's Move paid by Fuel — the card stops for the
    Battle's result with 1 action left; with the Move on the card (no Fuel, the raid not needing
    a second action: better than 1:1) the Battle is its last action."""
    raid = battle(goal="raid", keys=1, ships=2, fresh_ships=2, defenders=2, moves=1,
                  ambition="keeper", target="vault")
    trace = decide(arcs, LEAD.format(suit="aggression", pips=2) + "fuel: 1\n" +
                   "ambitions: [{name: keeper, declared: true, bot: 1, best_rival: 2}]\n" +
                   f"options: [{raid}]\n")
    assert trace.decision.result == "battle"
    assert "resume_actions: 1," in trace.decision.steps[-1].snapshot
    better = battle(goal="raid", keys=1, ships=2, fresh_ships=2, defenders=1, moves=1,
                    ambition="keeper", target="vault")
    trace = decide(arcs, LEAD.format(suit="aggression", pips=2) +
                   "ambitions: [{name: keeper, declared: true, bot: 1, best_rival: 2}]\n" +
                   f"options: [{better}]\n")
    assert [a.action for a in trace.decision.actions] == ["battle"]
    assert trace.decision.result == "decided"


def test_resources_the_restrictions_keep_buy_no_battle_action(arcs):
    """R140 with the Restrictions (L1042–1043): Tycoon declared keeps Fuel, Empath Psionic; and
    Psionic goes first to a Tax or Secure contending a declared ambition (L1056)."""
    far = battle(goal="raid", keys=1, moves=2)
    declared = "ambitions: [{{name: {0}, declared: true, bot: 0, best_rival: 0}}]\n"
    assert derived(arcs, far, extra="fuel: 1\n" + declared.format("tycoon"))[
        "battle_actions"] == 1
    assert derived(arcs, far, extra="psionic: 1\n" + declared.format("empath"))[
        "battle_actions"] == 1
    trace = decide(arcs, LEAD.format(suit="aggression", pips=3) + "psionic: 1\n" + (
        "ambitions: [{name: tycoon, declared: true, bot: 1, best_rival: 2}]\n"
        f"options: [{far}, {{action: tax, ambition: tycoon, gain: 1, target: Hexy}}]\n"))
    fields = {j["field"]: j["value"] for j in trace.entity_judgments
              if j["entity"].startswith("option ") and j["field"] == "battle_actions"}
    assert fields == {"battle_actions": 1}


def test_control_needs_a_die_per_fresh_defending_ship(arcs):
    """Control: favorable if bot can roll at least 1 die per fresh defending ship."""
    assert derived(arcs, battle(goal="rival_city", ships=2, fresh_ships=1,
                                defenders=2))["favorable"] is True
    assert derived(arcs, battle(goal="rival_city", ships=1, fresh_ships=1,
                                defenders=2))["favorable"] is False


def test_elite_pilots_add_a_die(arcs):
    """Difficulty, Elite Pilots: bot collects 1 extra die during Battle (normal mode, power not
    more than the player's)."""
    extra = "difficulty: normal\npower: 3\nplayer_power: 3\n"
    assert derived(arcs, battle(goal="raid", keys=2, defenders=2), extra=extra)["dice"] == 4
    ahead = "difficulty: normal\npower: 5\nplayer_power: 3\n"
    assert derived(arcs, battle(goal="raid", keys=2, defenders=2), extra=ahead)["dice"] == 3
    harder = "difficulty: harder\npower: 5\nplayer_power: 3\n"
    assert derived(arcs, battle(goal="raid", keys=2, defenders=2), extra=harder)["dice"] == 4


def test_outrage_only_if_the_bot_could_ransack_and_keeps_contending(arcs):
    """A combat which risks outrages is only favorable if bot could ransack the court AND if
    outrage would not cause bot to stop contending a declared ambition."""
    risky = battle(goal="trophies", outrage_risk="true")
    assert derived(arcs, risky)["favorable"] is False
    assert derived(arcs, risky[:-1] + ", can_ransack: true}")["favorable"] is True
    assert derived(arcs, risky[:-1] + ", can_ransack: true, outrage_stops_contending: true}"
                   )["favorable"] is False


def test_dice_plan_skirmish_until_better_than_one_to_one(arcs):
    """If bot has multiple actions, first roll all skirmish dice until ratio of fresh ships is
    better than 1:1, or only 1 action left. Then roll assault dice up to 2x defending fresh
    ships."""
    even = derived(arcs, battle(goal="trophies"))
    assert even["dice_plan"].startswith("all skirmish dice")
    better = derived(arcs, battle(goal="trophies", defenders=1))
    assert better["dice_plan"].startswith("assault dice") and better["assault_dice"] == 2
    last = derived(arcs, battle(goal="trophies"), pips=1)
    assert last["dice_plan"].startswith("assault dice")


def test_raid_dice_on_the_last_action(arcs):
    """Raid: the bot will first spend actions to roll dice like a trophies Battle, up to the last
    action available, when it will roll raid dice."""
    assert derived(arcs, battle(goal="raid", keys=1, defenders=2),
                   pips=1)["dice_plan"].startswith("raid dice")


# --- Influence Principles -------------------------------------------------------------------


def influence(**fields) -> str:
    base = {"action": "influence", "court_card": "court"}
    base.update(fields)
    return "{" + ", ".join(f"{k}: {v}" for k, v in base.items()) + "}"


def test_uncontested_takes_two_agents_if_possible(arcs):
    """If possible, influence uncontested cards with 2 agents. Otherwise, with 1 agent."""
    two = derived(arcs, influence(), suit="mobilization", pips=2)
    assert two["uncontested"] is True and two["place_agents"] == 2 and two["cost"] == 2
    one_action = derived(arcs, influence(), suit="mobilization", pips=1)
    assert one_action["place_agents"] == 1
    one_agent = derived(arcs, influence(), suit="mobilization", pips=2,
                        extra="agents_supply: 1\n")
    assert one_agent["place_agents"] == 1


def test_contested_one_more_than_the_most_rival_agents(arcs):
    """If possible, influence a contested card with one more agent than the most rival agents:
    the bot has 1 there, a rival 2 → 2 placed (3 against 2)."""
    card = derived(arcs, influence(bot_agents=1, rival_agents=2), suit="mobilization")
    assert card["contested"] is True and card["one_more"] == 2
    assert card["place_agents"] == 2 and card["more_agents"] is True


def test_contested_match_only_with_agents_to_spare(arcs):
    """Otherwise ... if the bot could influence with agents up to the most rival agents, and still
    have agents in its supply left over, then influence the card to match rival agents.
    Otherwise, do not influence the card."""
    spare = derived(arcs, influence(rival_agents=2), suit="mobilization", pips=2,
                    extra="agents_supply: 3\n")
    assert spare["one_more"] == 3 and spare["place_agents"] == 2
    assert "more_agents" not in spare  # a tie: not more than the rival
    none = derived(arcs, influence(rival_agents=2), suit="mobilization", pips=2,
                   extra="agents_supply: 2\n")
    assert none["place_agents"] == 0


def test_a_card_the_bot_already_leads_takes_one_agent(arcs):
    """Readings R3: more agents than every rival already — 1 agent."""
    assert derived(arcs, influence(bot_agents=2, rival_agents=1),
                   suit="mobilization")["place_agents"] == 1


# --- Expansion Principles -------------------------------------------------------------------


def test_double_city_limit(arcs):
    """Limit on Building New Cities: a double city only if winning a declared ambition (not tied)
    and uncovering a power bonus."""
    option = "{action: build, goal: city, double_city: true, power_bonus: true}"
    tied = "ambitions: [{name: tycoon, declared: true, bot: 2, best_rival: 2}]\n"
    won = "ambitions: [{name: tycoon, declared: true, bot: 3, best_rival: 2}]\n"
    assert derived(arcs, option, suit="construction", extra=tied)["city_ok"] is False
    assert derived(arcs, option, suit="construction", extra=won)["city_ok"] is True
    no_bonus = option.replace("power_bonus: true", "power_bonus: false")
    assert derived(arcs, no_bonus, suit="construction", extra=won)["city_ok"] is False
    assert derived(arcs, option, suit="construction", extra="flagship: true\n")["city_ok"]


def test_claims_follow_the_moves_and_builds_of_the_card(arcs):
    """Getting New Claims: fewer claims than half the unbuilt cities, rounded down; a Move gains
    its planet's open slots, so a second Move for claims is not taken once there are enough."""
    trace = decide(arcs, LEAD.format(suit="mobilization", pips=2) + """
unbuilt_cities: 5
claims: 0
options:
  - {action: move, goal: new_claim, slots: 2, target: Arrow 2}
  - {action: move, goal: new_claim, slots: 1, target: Hexy 1}
""")
    assert [a.target["target"] for a in trace.decision.actions] == ["Arrow 2"]
    assert trace.judgments["half_cities_left"].value == 2
    assert "from step" in trace.judgments["open_claims"].by[-1]["rule"]


# --- Movement Principles --------------------------------------------------------------------


def test_keep_the_origin_before_the_shortest_path(arcs):
    """Retain control of the origin when possible (R9: before the fewest actions)."""
    trace = decide(arcs, LEAD.format(suit="mobilization", pips=2) + """
options:
  - {action: move, goal: rival_city, moves: 1, keeps_origin: false, target: near}
  - {action: move, goal: rival_city, moves: 2, target: far}
""")
    assert trace.decision.actions[0].target["target"] == "far"


def test_abandon_the_origin_when_no_move_keeps_it_then_the_shortest(arcs):
    """If it's not possible to retain control of any origin, abandon control of origin; then
    the shortest path."""
    trace = decide(arcs, LEAD.format(suit="mobilization", pips=2) + """
options:
  - {action: move, goal: rival_city, moves: 2, keeps_origin: false, target: far}
  - {action: move, goal: rival_city, moves: 1, keeps_origin: false, target: near}
""")
    assert trace.decision.actions[0].target["target"] == "near"
    assert trace.decision.actions[0].target["origin_ok"] is True
