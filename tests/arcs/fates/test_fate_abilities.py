"""A card ability is not the plain action a Fate's line asks for (readings R63): the Fates' own
"Can bot Tax …" and "… Secure …" lines take a Tax or a Secure action, never Claims of Nobility's
Claim Fief (Tax) or Dealmakers' Bargain (Secure) — the seed names an ability where it means one
(L555, L823, L925, L283)."""

from __future__ import annotations

import pytest

from tests.arcs.fates.helpers import as_ability, decide_data, derive, example, rules

_FIEF = {"warden": "claim_fief", "cluster_cities": 2}

# (Fate folder, example, the Tax option's target, the Fate rule that takes it as a plain Tax)
TAX_LINES = [
    ("admiral", "admiral_act2_weapon", "Blue city on Arrow 6 (Weapon)", "admiral.act2.tax-weapon"),
    ("admiral", "admiral_act2_claim_fief_no_weapon_tax", "Claim Fief on Arrow 6 (Weapon)",
     "admiral.act2.tax-weapon"),
    ("admiral", "admiral_act2_claim_fief_regent_captives",
     "Claim Fief on Moon 2 (Red's city: 2 of Red's agents captive)",
     "admiral.act2.tax-regent-captives"),
    ("believer", "believer_act2_claim_fief_ideal", "Claim Fief on Moon 3 (Relic)",
     "believer.act2.tax-ideal"),
    ("magnate", "act1_claim_fief_not_tax_for_resource", "Claim Fief on Hexy 1 (Fuel)",
     "magnate.act1.tax-resource"),
    ("magnate", "act2_claim_fief_not_monopoly", "Claim Fief on Hexy 5 (Fuel)",
     "magnate.act2.tax-monopoly"),
    ("peacekeeper", "act2_tax_weapon", "Red city on Moon 4", "peacekeeper.act2.tax-weapon"),
    ("pathfinder", "act2_identified_tax", "Blue city on Arrow 2",
     "pathfinder.act2.tax-clue-resource"),
    ("founder", "act2_tax_for_commonwealth", "Red's city on Hexy 4 (Material)",
     "founder.act2.tax-cw"),
    ("peacekeeper", "act2_claim_fief_not_tax_weapon", "Claim Fief on Moon 4 (Weapon)",
     "peacekeeper.act2.tax-weapon"),
    ("pathfinder", "act2_identified_claim_fief", "Claim Fief on Arrow 2 (Psionic)",
     "pathfinder.act2.tax-clue-resource"),
    ("founder", "act2_claim_fief_not_tax_for_commonwealth", "Claim Fief on Hexy 4 (Material)",
     "founder.act2.tax-cw"),
]


def _with(data: dict, target: str, ability: bool) -> dict:
    """The snapshot with the option on `target` listed as a Claim Fief, or as a plain Tax."""
    return as_ability(data, target, _FIEF, ability)


def _taken(trace) -> list[tuple[str, str]]:
    return [(a.rule, (a.target or {}).get("target")) for a in trace.decision.actions]


@pytest.mark.parametrize(("fate", "name", "target", "rule"), TAX_LINES,
                         ids=[f"{f}/{n}" for f, n, _, _ in TAX_LINES])
def test_a_fates_tax_line_takes_the_tax_action_not_claim_fief(arcs, fate, name, target, rule):
    """The Fate's "Tax" line (Admiral L549, L555; Believer L598; Magnate L387, L410; Peacekeeper
    L909; Pathfinder L626; Founder L359) takes the option as a plain Tax; listed as Claims of
    Nobility's Claim Fief (Tax) — the same gain — no line takes it (readings R63)."""
    data = example(fate, name)
    assert (rule, target) in _taken(decide_data(arcs, _with(data, target, ability=False)))
    ability = decide_data(arcs, _with(data, target, ability=True))
    assert rule not in rules(ability)
    assert target not in [t for _, t in _taken(ability)]


def test_set_doctrine_reads_the_tax_and_secure_actions(arcs):
    """Set Doctrine (L605): "If bot can Secure … If bot can Tax or favorable combat to contend an
    ambition" — a Claim Fief or a Bargain that would contend is neither (readings R53, R63)."""
    board = ("fate: believer\nact: 2\nambitions:\n"
             "  - {name: tycoon, declared: true, bot: 1, best_rival: 2, second_rival: 1}\n")
    plain = ("options:\n  - {action: tax, ambition: tycoon, target: A}\n"
             "  - {action: secure, ambition: tycoon, target: B}\n")
    values = derive(arcs, board + plain).values
    assert values["believer.tax_or_combat_contends"] and values["believer.secure_contends"]
    ability = ("options:\n  - {action: tax, warden: claim_fief, ambition: tycoon, target: A}\n"
               "  - {action: secure, goal: bargain, ambition: tycoon, target: B}\n")
    values = derive(arcs, board + ability).values
    assert not values.get("believer.tax_or_combat_contends")
    assert not values.get("believer.secure_contends")


def test_psionic_prelude_taxes_with_the_tax_action(arcs):
    """Psionic (L1056) "Tax/Secure to contend a declared ambition": with a plain Tax and a Claim
    Fief that both contend, the Prelude's Psionic Tax is the plain one (readings R63)."""
    data = example("warden", "act2_psionic_plain_tax")
    assert _taken(decide_data(arcs, data)) == [("prelude.psionic.contend", "Blue city on Arrow 1")]
    plain = _with(data, "Claim Fief on Hex 2", ability=False)  # two plain Taxes: [1] takes one
    assert "admin.tax-contend-declared" in rules(decide_data(arcs, plain))


def test_a_bargain_target_is_not_a_card_the_steward_secures(arcs):
    """Steward (L295–296) "Can bot Secure or Influence Council Intrigue?" after Bargain (Secure)
    (L283): Council Intrigue listed as a card a rival could Secure by Bargain is not Secured;
    listed as a plain Secure it is, with the Fate's second action (readings R22, R63)."""
    data = example("steward", "act1_bargain_not_secure_intrigue")
    assert rules(decide_data(arcs, data)) == ["steward.act1.bargain", "aggr.secure-any"]
    data["options"] = [{k: v for k, v in o.items() if k != "goal"}
                       if o["target"] == "Bargain: Council Intrigue" else o
                       for o in data["options"]]
    assert rules(decide_data(arcs, data)) == [
        "steward.act1.bargain", "steward.act1.decided.secure-intrigue", "aggr.secure-any"]


@pytest.mark.parametrize("judgment", ["can.secure.council", "can.secure.vox_council",
                                      "can.secure.vox_council_attached"])
def test_a_bargain_on_the_imperial_council_is_no_secure_of_it(arcs, judgment):
    """General Priorities [1.5] (L989) and the Fates' "Secure … the Imperial Council" lines ask
    for the Secure action: the Imperial Council as Bargain's target does not answer them."""
    option = "options:\n  - {action: secure, court_card: imperial_council%s, target: IC}\n"
    assert derive(arcs, "fate: steward\n" + option % "").values.get(judgment)
    assert not derive(arcs, "fate: steward\n" + option % ", goal: bargain").values.get(judgment)


def test_the_caretakers_other_actions_include_a_tax_ability(arcs):
    """Caretaker (L468) "Prelude or other actions which would cause bot to be winning a declared
    ambition" asks for any action by its effect, not for "Tax": a Claim Fief that would make the
    bot win answers it as a plain Tax does (readings R44, R63)."""
    board = ("fate: caretaker\nact: 1\nambitions:\n"
             "  - {name: tycoon, declared: true, bot: 2, best_rival: 2, second_rival: 1}\n")
    for ability in (False, True):
        extra = ", warden: claim_fief" if ability else ""
        option = f"options:\n  - {{action: tax, ambition: tycoon{extra}, target: A}}\n"
        values = derive(arcs, board + option).values
        assert values["can.tax.win_declared"]
        # General Priorities' "Tax to contend" (L987) asks for the Tax action only
        assert bool(values.get("can.tax.contend_declared")) is not ability


def test_a_guild_card_a_rival_took_by_bargain_is_not_the_bots(arcs):
    """Advocate (L437–447) counts the bot's Guild cards with those it Secured this card; a Guild
    card Bargain (Secure) gave a rival is not one of them (readings R30, R63)."""
    option = "options:\n  - {action: secure, court_card: guild, used: true%s, target: G}\n"
    assert derive(arcs, "fate: advocate\nact: 2\n" + option % "").values[
        "advocate.bot_guilds"] == 1
    assert derive(arcs, "fate: advocate\nact: 2\n" + option % ", goal: bargain").values[
        "advocate.bot_guilds"] == 0


def test_the_construction_page_builds_with_the_build_action_not_prepare(arcs):
    """Construction [12,13] (L1251) "Build or Repair to change control" after the Fate's Prepare:
    a Prepare (Build) at the planet is not a Build — the page Repairs; listed as a plain Build,
    the page Builds it (readings R63)."""
    data = example("planet_breaker", "act2_construction_plain_build")
    assert rules(decide_data(arcs, data)) == ["planet_breaker.act2.prepare",
                                              "cons.repair-change-control"]
    data["options"] = [{k: v for k, v in o.items() if k not in ("planet_breaker", "fresh_here")}
                       if o["target"] == "Prepare at Moon 4" else o for o in data["options"]]
    assert rules(decide_data(arcs, data)) == ["planet_breaker.act2.prepare",
                                              "cons.build-change-control"]


def test_abduct_is_no_favorable_combat_for_trophies(arcs):
    """Court Enforcers’ Abduct (Battle) (L555) is an ability used with a Battle: Aggression's
    "favorable combat for trophies" takes the Battle action, not Abduct (readings R63)."""
    data = example("admiral", "admiral_act1_falls_through")
    assert rules(decide_data(arcs, data))[-1] == "aggr.combat-trophies"
    data["options"] = [{**o, "abduct": True} if o["action"] == "battle" else o
                       for o in data["options"]]
    assert "aggr.combat-trophies" not in rules(decide_data(arcs, data))
