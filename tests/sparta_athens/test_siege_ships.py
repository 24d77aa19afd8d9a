"""§ SIEGE (seed lines 179-183) and Shipbuilding (line 96)."""

from __future__ import annotations

import pytest

from tests.sparta_athens.helpers import HIT, MISS, actions, decide, details, result, rolled


def siege(engine, dice, **board):
    board.setdefault("active_siege", True)
    return decide(engine, "siege_upkeep", dice=dice, **board)


def test_no_active_siege(sa):
    """Line 181: only with an active siege."""
    assert result(siege(sa, [], active_siege=False, talents=5)) == "no_siege"


def test_no_dice_no_payment(sa):
    """Line 181: if no dice will be rolled, the bot will not pay to siege."""
    trace = siege(sa, [], siege_dice=0, talents=5)
    assert result(trace) == "no_payment" and trace.dice == []


@pytest.mark.parametrize("bot", ["sparta", "athens"])
def test_pays_two_and_rolls(sa, bot):
    """Line 181: paying two talents every round; exactly 2 is enough."""
    trace = siege(sa, [HIT, MISS], bot=bot, siege_dice=2, talents=2)
    assert actions(trace) == ["prosecute_siege"]
    assert "0 left" in details(trace) and "1 success" in details(trace)
    assert rolled(trace) == [2]


@pytest.mark.parametrize(("die", "outcome"), [(HIT, "siege_abandoned"), (MISS, "siege_kept")])
def test_out_of_money_abandons_on_a_success(sa, die, outcome):
    """Line 183: out of money (1 talent), 2 influence left (more than one): one die."""
    trace = siege(sa, [die], talents=1, siege_influence=2)
    assert result(trace) == outcome


def test_out_of_money_last_influence_kept(sa):
    """Line 183: only a siege with more than one remaining influence is abandoned."""
    trace = siege(sa, [], talents=0, siege_influence=1)
    assert result(trace) == "siege_kept" and trace.dice == []


def ships(engine, dice, **board):
    return decide(engine, "shipbuilding", dice=dice, **board)


@pytest.mark.parametrize("bot", ["sparta", "athens"])
def test_no_shipbuilding_once_sea_advantaged(sa, bot):
    """Line 96: until advantaged in sea battle strength."""
    assert result(ships(sa, [], bot=bot, sea="advantaged")) == "no_shipbuilding"


def test_one_shipbuilding_when_not_eligible_twice(sa):
    """Line 96: always spends on one shipbuilding (tied is not advantaged)."""
    trace = ships(sa, [], sea="tied")
    assert "Spend once" in details(trace) and trace.dice == []


@pytest.mark.parametrize(("die", "text"), [(HIT, "Spend twice"), (MISS, "Spend once")])
def test_twice_on_a_one_die_success(sa, die, text):
    """Line 96: if eligible, twice on a one-die success."""
    trace = ships(sa, [die], sea="disadvantaged", can_shipbuild_twice=True)
    assert text in details(trace)
