"""`whybot odds` on SUPERCAT's campaign decision points: the exact chances worked out by hand
from the seed (the examples' notes), from `whybot odds --json` over the dice not pre-rolled."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tests.cli.test_cli_odds import by_head, odds_json

CAMPAIGN = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs"


def results(data: dict) -> dict[str, Fraction]:
    """Each outcome's result (`--by result`) → its probability."""
    return {o["decision"]["result"]: Fraction(o["probability"]) for o in data["outcomes"]}


def odds(run, name: str, *args: str) -> dict:
    data = odds_json(run, CAMPAIGN / f"{name}.yaml", "--prerolled", "0", *args)
    assert data["method"] == "exact" and data["total"] == "1"
    return data


def test_a_summit_roll_with_two_favors_calls_two_times_in_three(run):
    """§ Summits L200: 1d6 + 2 favors, call on 5 or more: the die shows 3–6."""
    data = odds(run, "summit/roll_with_favors", "--by", "result")
    assert results(data) == {"summit": Fraction(2, 3), "no_summit": Fraction(1, 3)}
    summit = next(o for o in data["outcomes"] if o["decision"]["result"] == "summit")
    assert summit["dice"] == [[{"roll": "A", "values": [3, 4, 5, 6]}]]


def test_the_steward_always_calls_whatever_the_dice(run):
    data = odds(run, "summit/steward_always_calls")
    assert data["certain"]
    assert by_head(data) == {"summit, call_summit, petition_council": Fraction(1)}


def test_seven_drms_summing_to_minus_one_accept_only_on_a_six(run):
    """§ Negotiation Minigame L255–261: −1 −1 −1 −2 +2 +1 +1 = −1; accept on 5 or more."""
    data = odds(run, "negotiation/attempt_seven_drms")
    assert by_head(data) == {"accepted, accept_trade": Fraction(1, 6),
                             "refused, refuse_trade": Fraction(5, 6)}
    accepted = next(o for o in data["outcomes"] if o["decision"]["result"] == "accepted")
    assert accepted["dice"] == [[{"roll": "A", "values": [6]}]]


def test_a_bot_offer_at_plus_two_is_accepted_two_times_in_three(run):
    data = odds(run, "negotiation/bot_round_offer", "--by", "result")
    assert results(data) == {"accepted": Fraction(2, 3), "refused": Fraction(1, 3)}


def test_a_bot_round_stopped_by_the_favor_limit_always_passes(run):
    """Which of four equal favors it offered first is a random pick; it passes either way."""
    data = odds(run, "negotiation/bot_round_favor_limit", "--by", "result")
    assert results(data) == {"pass": Fraction(1)}


def test_a_rival_with_no_pieces_and_no_agent_becomes_an_outlaw_one_time_in_three(run):
    """§ Govern the Imperial Reach L196: 1d6, an Outlaw on 5 or 6."""
    data = odds(run, "imperial_reach/enforce_and_outlaw_roll")
    assert by_head(data) == {"imperial_reach, enforce_policy, make_outlaw": Fraction(1, 3),
                             "imperial_reach, enforce_policy": Fraction(2, 3)}


def test_with_three_bots_the_minigame_has_four_to_nine_rounds_each_one_time_in_six(run):
    data = odds_json(run, CAMPAIGN / "negotiation" / "start_three_bots.yaml", "--prerolled", "0",
                     "--by", "table")
    rounds = {o["probability"] for o in data["outcomes"]}
    assert len(data["outcomes"]) == 6 and rounds == {"1/6"}
