"""SUPERCAT's Act II Fates (L815–940): Hegemon, Planet Breaker, Blight Speaker, Pacifist,
Peacekeeper, Warden — what each example's notes say General Priorities alone would do, and the
special rules each Fate adds."""

from __future__ import annotations

import pytest

from tests.arcs.fates.helpers import chosen, decide_data, example, rules

# (Fate folder, example, the card General Priorities plays without the Fate)
WITHOUT_THE_FATE = [
    ("hegemon", "act2_eliminate", "construction"),
    ("planet_breaker", "act2_fragments", "aggression"),
    ("planet_breaker", "act2_break_world", "construction"),
    ("blight_speaker", "act2_spawn", "mobilization"),
    ("pacifist", "act2_witness_to_psionic", "administration"),
    ("peacekeeper", "act2_tax_weapon", "construction"),
    ("peacekeeper", "act2_weapon_planet_steal", "construction"),
    ("warden", "act2_claim_fief", "construction"),
    ("pathfinder", "act2_move_flagship", "administration"),
    ("pathfinder", "act2_portal_found_build", "aggression"),
]


@pytest.mark.parametrize(("fate", "name", "suit"), WITHOUT_THE_FATE,
                         ids=[f"{f}/{n}" for f, n, _ in WITHOUT_THE_FATE])
def test_the_fate_changes_the_card_general_priorities_would_play(arcs, fate, name, suit):
    """§ Fates (L182): the Fate page is read before General Priorities; the example's card is
    not the one General Priorities alone would select (with fate: none, all else equal)."""
    with_fate = decide_data(arcs, example(fate, name))
    plain = decide_data(arcs, example(fate, name, fate="none"))
    assert chosen(plain)["suit"] == suit
    assert chosen(with_fate)["suit"] != suit


@pytest.mark.parametrize("fate", ["hegemon", "planet_breaker", "blight_speaker", "pacifist",
                                  "peacekeeper", "warden"])
def test_no_act_one_section(arcs, fate):
    """§ Fates (L179): refer to the section for the current Act only — these Fates have none for
    Act I, so their lines never act there."""
    name = {"hegemon": "act2_eliminate", "planet_breaker": "act2_fragments",
            "blight_speaker": "act2_spawn", "pacifist": "act2_witness_to_psionic",
            "peacekeeper": "act2_tax_weapon", "warden": "act2_claim_fief"}[fate]
    trace = decide_data(arcs, example(fate, name, act=1))
    assert not any(r.startswith(f"{fate}.") for r in rules(trace))


def test_planting_banners_only_for_the_hegemon(arcs):
    """Hegemon, Planting Banners (L827–828): the Banner is placed when the Flagship is at an
    eligible planet; another bot ignores the observation."""
    data = example("hegemon", "act2_banners")
    assert rules(decide_data(arcs, data))[0] == "hegemon.play.plant-banner"
    other = decide_data(arcs, {**data, "fate": "none"})
    assert "place_banner" not in [a.action for a in other.decision.actions]
    no_planet = decide_data(arcs, {**data, "banner_planet": False})
    assert "place_banner" not in [a.action for a in no_planet.decision.actions]


def test_spore_ships_spend_material_on_spawn_unless_tycoon_is_declared(arcs):
    """Spore Ships (L871) under the Prelude Restrictions (L1042, readings R60)."""
    spawn = decide_data(arcs, example("blight_speaker", "act2_spawn"))
    assert rules(spawn)[0] == "blight_speaker.prelude.spawn"
    kept = decide_data(arcs, example("blight_speaker", "act2_tycoon_keeps_material"))
    assert "spend_material" not in [a.action for a in kept.decision.actions]


def test_sycophants_said_in_every_planet_breaker_prelude(arcs):
    """Sycophants (L854–855): the bot will not use the Prelude ability to place ships."""
    trace = decide_data(arcs, example("planet_breaker", "act2_no_line"))
    assert "planet_breaker.prelude.sycophants" in trace.fired()


def test_pacifist_special_rules_only_until_the_objective(arcs):
    """Pacifist special rules (L896): only while the objective is not completed; they set aside
    the captive Tax, the trophies Battle and the contested card (readings R66)."""
    data = example("pacifist", "act2_witness_to_psionic")
    held = decide_data(arcs, data)
    assert sum(1 for s in held.decision.say if s.startswith("Set aside")) == 3
    done = decide_data(arcs, {**data, "objective_completed": True})
    assert not any(s.startswith("Set aside") for s in done.decision.say)
    assert "mob.influence-card" in rules(done)


def test_pacifist_raid_without_trophies_is_not_avoided(arcs):
    """L899: in some cases may raid (no chance of taking trophies)."""
    trace = decide_data(arcs, example("pacifist", "act2_witness_control_raid"))
    assert rules(trace)[-1] == "aggr.combat-contend-declared"


def test_feudal_law_for_every_bot(arcs):
    """Feudal Law (L939–940): all bots consider it — a Battle that risks provoking outrage is
    favorable only if the bot could ransack the court (a bot without a Fate too)."""
    battle = {"action": "battle", "goal": "trophies", "ships": 3, "fresh_ships": 3,
              "defenders": 1, "trophies": 2, "outrage_risk": True, "target": "Red on Hex 5"}
    data = {"fate": "none", "hand_counter": 3, "initiative": True,
            "cards": [{"suit": "aggression", "number": 1, "pips": 1}], "options": [battle]}
    assert "battle" not in [a.action for a in decide_data(arcs, data).decision.actions]
    ransack = {**battle, "can_ransack": True}
    trace = decide_data(arcs, {**data, "options": [ransack]})
    assert [a.action for a in trace.decision.actions] == ["battle"]


def test_claim_fief_is_not_a_plain_tax(arcs):
    """A Fate's Tax ability is not taken by Administration's [47] Tax to gain resources."""
    data = example("warden", "act2_claim_fief", city_without_seat=False)
    data["options"] = [o for o in data["options"] if o.get("warden") == "claim_fief"]
    data["cards"] = [{"suit": "administration", "number": 5, "pips": 2}]
    trace = decide_data(arcs, data)
    assert "tax" not in [a.action for a in trace.decision.actions]


def _plain(data: dict, target: str) -> dict:
    """The snapshot with one Claim Fief listed as a plain Tax of the same planet instead."""
    options = [{k: v for k, v in o.items() if k not in ("warden", "cluster_cities")}
               if o["target"] == target else o for o in data["options"]]
    return {**data, "options": options}


def test_a_tax_ability_does_not_answer_general_priorities_tax_to_contend(arcs):
    """“Can bot Secure or Tax to contend declared ambition?” (L987) asks for the Tax action: a
    Claim Fief (Tax) that would contend selects no Administration card; the same gain from a
    plain Tax does (readings R63)."""
    data = example("warden", "act2_claim_fief_not_a_tax_to_contend")
    ability = decide_data(arcs, data)
    assert chosen(ability)["suit"] == "construction"
    assert rules(ability) == ["cons.build-cities"]
    plain = decide_data(arcs, _plain(data, "Claim Fief on Hex 2"))
    assert chosen(plain)["suit"] == "administration"
    assert rules(plain)[0] == "admin.tax-contend-declared"


def test_a_tax_ability_is_not_administrations_tax_to_contend_undeclared(arcs):
    """Administration [23] (L1079) after the Fate's Claim Fief: a second Claim Fief that would
    contend an undeclared ambition is not taken; a plain Tax with that gain is (readings R63)."""
    data = example("warden", "act2_admin_plain_tax_undeclared")
    assert rules(decide_data(arcs, data)) == ["warden.act2.claim-fief", "admin.tax-resources"]
    plain = decide_data(arcs, _plain(data, "Claim Fief on Hex 2"))
    assert rules(plain) == ["warden.act2.claim-fief", "admin.tax-contend-undeclared"]
