"""Advocate › Act II, Prelude: Only use the Prelude action of a Guild card that discards itself
if bot has 2 or more Guild cards of that suit, and only if bot would still have more Guild cards
than each other rival afterwards."""

from __future__ import annotations

import pytest

from tests.arcs.helpers import actions, decide

BASE = """
fate: advocate
act: 2
hand_counter: 3
initiative: true
starports: 1
ships_available: 5
cards: [{suit: construction, number: 1, pips: 1}]
options: [{action: build, goal: ships}]
rivals: [{name: Blue}]
"""


def used(trace) -> list[str]:
    return [action for action, _ in actions(trace)]


AHEAD = """
  - {name: Gunrunners, suit: weapon}
  - {name: Fuel Cartel, suit: fuel}
  - {name: Farseers, suit: psionic, holder: Blue}
"""


@pytest.mark.parametrize(("others", "uses"), [
    (AHEAD, True),  # 2 Weapon cards; 3 against Blue's 1 → 2 > 1 afterwards
    (AHEAD.replace("Gunrunners, suit: weapon", "Relic Fence, suit: relic"), False),  # 1 Weapon
    (AHEAD + "  - {name: Mining Interest, suit: material, holder: Blue}\n", False),  # 2 vs 2
], ids=["two-of-its-suit-and-ahead", "one-of-its-suit", "not-ahead-afterwards"])
def test_a_weapon_guild_card_is_used_only_with_two_of_its_suit_and_still_ahead(arcs, others,
                                                                               uses):
    trace = decide(arcs, BASE + "weapon_guild_cards: 1\nguilds:\n"
                   "  - {name: Arms Dealers, suit: weapon, prelude: weapon}" + others)
    assert ("discard_weapon_guild" in used(trace)) is uses


def test_union_cards_are_kept_unless_each_has_a_second_of_its_suit(arcs):
    """The bot discards all its Union cards together (§ Prelude › Guild cards): the Advocate
    only when every one has a second card of its suit and it stays ahead (readings R33)."""
    guilds = """
union_cards: 2
guilds:
  - {name: Admin Union, suit: material, prelude: union}
  - {name: Mining Interest, suit: material}
  - {name: Spacing Union, suit: fuel, prelude: union}
  - {name: Fuel Cartel, suit: fuel}
  - {name: Farseers, suit: psionic}
"""
    assert "discard_union" in used(decide(arcs, BASE + guilds))
    short = guilds.replace("  - {name: Fuel Cartel, suit: fuel}\n", "")
    assert "discard_union" not in used(decide(arcs, BASE + short))
    act1 = (BASE + short).replace("act: 2", "act: 1")
    assert "discard_union" in used(decide(arcs, act1))


def test_act1_favorable_raid_to_steal_a_guild_card_that_discards_itself(arcs):
    """Advocate › Act I ✦ Can bot favorable combat to steal a Guild card with a Prelude action
    that discards itself? A Battle aimed at a Guild card is a raid (Combat Principles › Raid):
    3 raid dice ≥ 2 × 1 key, 3 fresh ships against 1; a combat card is selected."""
    trace = decide(arcs, """
fate: advocate
act: 1
hand_counter: 3
initiative: true
starports: 1
cards: [{suit: aggression, number: 1, pips: 2}, {suit: construction, number: 1, pips: 2}]
options:
  - {action: battle, court_card: guild, discards_itself: true, keys: 1, ships: 3, fresh_ships: 3,
     defenders: 1, target: Blue's Weapon Guild card}
""")
    assert trace.decision.actions[0].rule == "advocate.act1.combat-discarding"
    assert trace.decision.result == "battle"
    assert trace.decision.choices["selected"].entity["suit"] == "aggression"
