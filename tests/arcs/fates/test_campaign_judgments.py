"""The Fates' lines that choose no card (Summits, Govern the Imperial Reach, Imperial Quorum,
Negotiation, Export, Edicts, Monopoly, Parade Fleets, Advocate's Demand) are judgments named for
the Fate, for the campaign's pages (issue 11) to read: each is derived as the seed line says."""

from __future__ import annotations

import pytest

from tests.arcs.fates.helpers import derive, named


@pytest.mark.parametrize(("board", "expected"), [
    ("first_regent: false\nimperial_council: decided\n", True),
    ("first_regent: true\nimperial_council: decided\n", False),
    ("first_regent: false\nimperial_council: in_session\n", False),
])
def test_steward_always_calls_a_summit_and_petitions_the_council(arcs, board, expected):
    """Steward › All Acts, Summits: If bot is not First Regent and the Imperial Council is
    “Decided”, then always call a Summit. During the “Call to Order” phase, Petition the
    Council."""
    values = derive(arcs, "fate: steward\n" + board).values
    assert values["steward.summit.always_call"] is expected
    assert values["steward.summit.petition_council"] is expected


def test_steward_act2_changes_a_policy_that_is_neither_peace_nor_escalation(arcs):
    """Steward › Act II, Govern the Imperial Reach: Prefer Policy of Peace or Policy of
    Escalation (readings R20)."""
    first_regent = "fate: steward\nact: 2\nfirst_regent: true\n"
    assert derive(arcs, first_regent + "policy: other\n").values["steward.policy.change"]
    assert not derive(arcs, first_regent + "policy: peace\n").values["steward.policy.change"]
    assert derive(arcs, first_regent + "policy: peace\n").values["steward.policy.prefer"]
    assert not derive(arcs, "fate: steward\nact: 1\nfirst_regent: true\npolicy: other\n"
                      ).values["steward.policy.prefer"]


def test_imperial_quorum_binds_any_bot_while_a_steward_is_in_act2(arcs):
    """Steward › Act II, Imperial Quorum: When the Regent with the most starports is a bot, it
    will always take the Imperial action, except if the policy is Policy of Peace and the bot
    would gain less power than any other rival (readings R21)."""
    magnate = "fate: magnate\nimperial_quorum: true\nregent_most_starports: true\n"
    assert derive(arcs, magnate).values["steward.quorum.imperial_action"]
    assert not derive(arcs, magnate + "policy: peace\npeace_gains_least: true\n"
                      ).values["steward.quorum.imperial_action"]
    assert derive(arcs, magnate + "policy: escalation\npeace_gains_least: true\n"
                  ).values["steward.quorum.imperial_action"]
    assert not derive(arcs, "fate: magnate\nregent_most_starports: true\n"
                      ).values["steward.quorum.imperial_action"]
    assert derive(arcs, "fate: steward\nact: 2\nregent_most_cities: true\n"
                  ).values["steward.quorum.check_fate"]


def test_magnate_act1_negotiation_and_export_to_the_galactic_core(arcs):
    """Magnate › Act I: 2 negotiation rounds, accepts only resources or favors; Export: 3 or more
    resources, unless contending a declared ambition matching them (readings R24)."""
    rich = "fate: magnate\nmaterial: 2\nfuel: 1\nrelic: 1\n"
    values = derive(arcs, rich).values
    assert values["magnate.negotiation.two_rounds"]
    assert values["magnate.negotiation.accepts_only_resources_or_favors"]
    assert values["magnate.export_to_core"]
    contending = rich + "ambitions: [{name: tycoon, declared: true, bot: 3, best_rival: 4}]\n"
    values = derive(arcs, contending).values
    assert values["magnate.export.kept"] == 3  # Material 2 + Fuel 1 match Tycoon (second)
    assert not values["magnate.export_to_core"]
    behind = rich + ("ambitions: [{name: tycoon, declared: true, bot: 1, best_rival: 4, "
                     "second_rival: 3}]\n")
    assert derive(arcs, behind).values["magnate.export_to_core"]  # third: not contending
    assert not derive(arcs, "fate: magnate\nact: 2\n" + rich[len("fate: magnate\n"):]
                      ).values["magnate.export_to_core"]


def test_magnate_act2_edicts_and_any_bot_holding_a_monopoly(arcs):
    """Magnate › Act II, Imperial Council Decided: more than half of a type in play → resolve
    Edicts; Monopoly: bots holding a Monopoly never consent to that resource being given."""
    values = derive(arcs, "fate: magnate\nact: 2\nmonopolies: [{resource: fuel, holder: bot, "
                          "in_play: 5, bot_holds: 3}]\n")
    assert values.values["magnate.resolve_edicts"]
    assert named(values, "monopoly", "resource", "fuel")["never_consent"] is True
    other = derive(arcs, "fate: steward\nmonopolies: [{resource: relic, holder: bot}, "
                         "{resource: fuel, holder: rival}]\n")
    assert named(other, "monopoly", "resource", "relic")["never_consent"] is True
    assert named(other, "monopoly", "resource", "fuel")["never_consent"] is False


def test_founder_act1_parade_fleets_and_summits(arcs):
    """Founder › Act I, Parade Fleets: place ships where bot would gain control; if a Regent,
    become an Outlaw. Summits: if a Regent, always call; Call to Order: Leave the Empire."""
    regent = derive(arcs, "fate: founder\nregent: true\n").values
    outlaw = derive(arcs, "fate: founder\nregent: false\n").values
    assert regent["founder.parade_fleets.gain_control"] and outlaw[
        "founder.parade_fleets.gain_control"]
    assert regent["founder.parade_fleets.outlaw"] and not outlaw["founder.parade_fleets.outlaw"]
    assert regent["founder.summit.leave_empire"] and not outlaw["founder.summit.always_call"]
    assert regent["events_critical"] and not outlaw["events_critical"]


def test_advocates_demand_targets_the_most_powerful_eligible_rival_then_more_keys(arcs):
    """Advocate › Act II, Advocate's Demand: among rivals with Guild cards of suits the bot does
    not have, the rival with the most power; if multiple options, the card with more keys."""
    found = derive(arcs, """
fate: advocate
act: 2
rivals: [{name: Blue, power: 6}, {name: Red, power: 9}, {name: Green, power: 9}]
guilds:
  - {name: Arms Dealers, suit: weapon}
  - {name: Skirmishers, suit: weapon, holder: Blue, keys: 3}
  - {name: Relic Fence, suit: relic, holder: Blue, keys: 3}
  - {name: Farseers, suit: psionic, holder: Red, keys: 1}
  - {name: Fuel Cartel, suit: fuel, holder: Green, keys: 2}
""")
    targets = [g["name"] for g in found.entities["guild"] if g["demand_target"]]
    assert targets == ["Fuel Cartel"]
    assert not named(found, "guild", "name", "Skirmishers")["demand_eligible"]  # Weapon: held
    assert found.values["advocate.demand_power"] == 9


def test_any_bot_refuses_a_player_advocates_demand(arcs):
    """Advocate's Demand: If the player is the Advocate, the bot will always refuse and give 1
    favor to the player."""
    assert derive(arcs, "fate: magnate\nadvocate_player: true\n").values[
        "advocate.refuse_demand"]
    assert not derive(arcs, "fate: magnate\n").values["advocate.refuse_demand"]
