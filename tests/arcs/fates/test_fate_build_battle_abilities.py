"""A card ability is not the plain Build or Battle a Fate's own line asks for (readings R63): the
Admiral's starport, Empire control and Outlaw trophies lines, the Believer's city and Ideal lines
and every other Fate "Build …" or "favorable battle …" line take a Build or a Battle action, never
Call Bodies (Build), Prepare (Build), Spawn (Build), Court Enforcers' Abduct (Battle) or Break
World (Battle) — the seed names an ability where it means one (L555, L823, L841, L848, L861)."""

from __future__ import annotations

import re

import pytest

from tests.arcs.fates.helpers import as_ability, decide_data, derive, example
from tests.conftest import KNOWLEDGE

CALL_BODIES = {"hegemon": "call_bodies"}  # Song of the Banner's Call Bodies (Build), L823
ABDUCT = {"abduct": True}  # Court Enforcers' Abduct (Battle), L555

# (Fate folder, example, the option's target, the Fate rule that takes it as a plain action,
#  the fields that list it as an ability)
LINES = [
    ("admiral", "admiral_act1_starports", "starport at the claim on Moon 2",
     "admiral.act1.new-starport", CALL_BODIES),  # L541
    ("admiral", "admiral_act1_starports", "a ship at the Arrow 5 starport (no loyal ship there)",
     "admiral.act1.build-guard-starport", CALL_BODIES),  # L535
    ("admiral", "admiral_act1_imperial_combat", "Red ships at Hexy 3",
     "admiral.act1.combat-imperial", ABDUCT),  # L524
    ("admiral", "admiral_act2_faithful_build_empire",
     "city at Hexy 3 (Empire control of the planet)", "admiral.act2.build-empire",
     CALL_BODIES),  # L557
    ("admiral", "admiral_act2_abduct_not_outlaw_combat",
     "Abduct at Hexy 6 (the Outlaw Green's fleet)", "admiral.act2.combat-outlaw", ABDUCT),  # L563
    ("believer", "believer_act1_city_suit", "city on Moon 4 (Psionic)",
     "believer.act1.build-city-suit", CALL_BODIES),  # L592
    ("believer", "believer_act2_abduct_not_ideal_battle",
     "Abduct at Arrow 4 (2 of Red's agents from the Prison Wardens)",
     "believer.act2.combat-ideal", ABDUCT),  # L598
]


def _taken(trace) -> list[tuple[str, str | None]]:
    """The rules that acted, with their targets, and the rule that chose the card (a Battle line
    chooses the card, then the card stops for the Prelude's Battle)."""
    acted = [(a.rule, (a.target or {}).get("target")) for a in trace.decision.actions]
    return [*acted, (getattr(trace.decision.choices.get("selected"), "by", None), None)]


@pytest.mark.parametrize(("fate", "name", "target", "rule", "marker"), LINES,
                         ids=[f"{f}/{r}" for f, _, _, r, _ in LINES])
def test_a_fates_build_or_battle_line_takes_the_plain_action(arcs, fate, name, target, rule,
                                                             marker):
    """The Fate's line takes the option as a plain Build or Battle; listed as a card ability
    used with that action (the same effect), the line does not take it (readings R63)."""
    data = example(fate, name)
    plain = _taken(decide_data(arcs, as_ability(data, target, marker, ability=False)))
    assert (rule, target) in plain or (rule, None) in plain
    ability = as_ability(data, target, marker, ability=True)
    assert rule not in [r for r, _ in _taken(decide_data(arcs, ability))]



def test_the_admirals_new_starport_is_a_plain_build_beside_an_ability(arcs):
    """Admiral L541 "Build one new starport": its `when` reads the base can.build.starport (a plain
    Build, R63); with a starport also listed as a Build ability, listed first, the line still
    builds the plain one."""
    data = example("admiral", "admiral_act1_starports")
    data["options"].insert(1, {"action": "build", "goal": "starport", **CALL_BODIES,
                               "target": "Call Bodies: a starport at Hexy 2"})
    assert ("admiral.act1.new-starport", "starport at the claim on Moon 2") \
        in _taken(decide_data(arcs, data))


_CARD = "cards:\n  - {suit: aggression, number: 4, pips: 2}\n"  # an action for the Battle
_FAVORABLE = ", ships: 3, fresh_ships: 3, defenders: 1"  # a Battle's fresh ships, 3 to 1

# (Fate, act, judgment, a plain option that answers it, facts the line also reads)
FATE_FIELD_LINES = [
    ("hegemon", 2, "can.hegemon.eliminate",  # L819
     "action: battle, hegemon: eliminate" + _FAVORABLE, ""),
    ("pacifist", 2, "can.pacifist.build_witness",  # L883
     "action: build, pacifist: witness_control", "objective_completed: false\n"),
    ("pathfinder", 2, "can.pathfinder.build_portal",  # L620
     "action: build, pathfinder: control_portal", ""),
    ("peacekeeper", 2, "can.peacekeeper.build_weapon_planet",  # L911
     "action: build, peacekeeper: weapon_planet", ""),
    ("peacekeeper", 2, "can.peacekeeper.combat_weapon_planet",  # L913
     "action: battle, peacekeeper: weapon_planet" + _FAVORABLE, ""),
    ("planet_breaker", 2, "can.planet_breaker.build_fragment",  # L837
     "action: build, planet_breaker: fragment_control", ""),
    ("planet_breaker", 2, "can.planet_breaker.build_planet",  # L852
     "action: build, planet_breaker: control_planet", ""),
    ("warden", 2, "can.warden.build_seat", "action: build, warden: seat_control", ""),  # L935
    ("warden", 2, "can.warden.combat_seat",  # L935
     "action: battle, warden: seat_control" + _FAVORABLE, ""),
    ("caretaker", 1, "can.build.golem", "action: build, golem: true", ""),  # L472
    ("founder", 1, "can.founder.build_control", "action: build, more_systems: true", ""),  # L344
    ("admiral", 2, "can.build.regent_city", "action: build, regent_city: true", ""),  # L559
]


@pytest.mark.parametrize(("fate", "act", "judgment", "option", "extra"), FATE_FIELD_LINES,
                         ids=[j for _, _, j, _, _ in FATE_FIELD_LINES])
def test_a_fate_field_line_asks_for_the_plain_action(arcs, fate, act, judgment, option, extra):
    """The Fates' other Build and Battle lines read their own fields (a Seat, a Witness token,
    the Portal, …): the same option marked as a Build or Battle ability does not answer them."""
    board = f"fate: {fate}\nact: {act}\n{extra}{_CARD}"
    marker = "hegemon: call_bodies" if "build" in option else "abduct: true"
    assert derive(arcs, board + f"options:\n  - {{{option}, target: A}}\n").values.get(judgment)
    marked = derive(arcs, board + f"options:\n  - {{{option}, {marker}, target: A}}\n")
    assert not marked.values.get(judgment)


# an ability named on a line: Abduct, Call Bodies, Prepare, Break World, Spawn
_NAMES_ABILITY = re.compile(r"abduct|call_bodies|'prepare'|break_world|'spawn'")
_PLAIN = re.compile(r"not used and action == '(build|battle)'(?! and not ability)")


def test_every_fate_build_or_battle_line_reads_not_ability():
    """Every Fate rule that asks whether a Build or Battle can still be taken, and every target
    it takes, reads `not ability` unless it names the ability (readings R63)."""
    found = []
    for path in sorted((KNOWLEDGE / "arcs" / "fates").rglob("*.yaml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _PLAIN.search(line) and not _NAMES_ABILITY.search(line):
                found.append(f"{path.parent.name}/{path.name}:{number}")
    assert found == []
