"""SUPERCAT § Negotiation Minigame (Optional) (lines 228–277): a trade attempt with every DRM,
the Fates that refuse outright, who must pass; the bot's own round — what it wants, the offer
grown to +2 within the 4-1 trade and the 3-favor limit, or a pass."""

from __future__ import annotations

import pytest
import yaml

from tests.arcs.campaign.helpers import acted, judged, matched, run, said, targets
from tests.conftest import ROOT

EXAMPLES = ROOT / "facts" / "examples" / "arcs" / "negotiation"


def example(name: str, **changes) -> str:
    """An example snapshot as text, with some of its facts changed (None drops one)."""
    data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    for key in ("pack", "name", "notes", "expect"):
        data.pop(key, None)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return yaml.safe_dump(data, sort_keys=False)


def drms(trace) -> dict[str, int]:
    return {name.rpartition(".")[2]: judged(trace, name) for name in trace.judgments
            if name.startswith("negotiation.drm.")}


def test_the_seven_drms_each_have_their_value_and_sum(arcs):
    trace = run(arcs, example("attempt_seven_drms"))
    assert drms(trace) == {"failures": -1, "grievances": -1, "rival_contends": -1,
                           "contending": -2, "above_even": 2, "target_contends": 1,
                           "objective": 1}
    assert judged(trace, "negotiation.drm") == -1


def _ambitions(trace, name: str) -> list[str]:
    """The ambitions of the standings behind a judgment (one support per standing matched)."""
    return [fact["ambition"] for by in trace.judgments[name].by for fact in by["facts"]
            if fact.get("kind") == "standing"]


def test_each_standing_behind_a_drm_is_named_by_its_ambition(arcs):
    """A standing is labelled by party and ambition, so the bot's two contended declared
    ambitions (Tycoon second, Warlord second) are two supports that say which (readings R110,
    R111), and the trace names each standing's fields by both."""
    trace = run(arcs, example("attempt_seven_drms"))
    assert _ambitions(trace, "negotiation.drm.contending") == ["tycoon", "warlord"]
    assert _ambitions(trace, "negotiation.drm.rival_contends") == ["tycoon"]
    assert _ambitions(trace, "negotiation.drm.target_contends") == ["empath"]


def test_grievances_count_only_with_the_optional_rule(arcs):
    trace = run(arcs, example("attempt_seven_drms", grievances_rule=False, dice=[5]))
    assert judged(trace, "negotiation.drm") == 0
    assert trace.decision.result == "accepted"


def test_minus_x_is_the_most_power_among_the_declared_ambitions_it_contends(arcs):
    """L258 (readings R111): contending Warlord (2 power) and Keeper (3): −3, once."""
    data = yaml.safe_load(example("attempt_seven_drms"))
    data["ambitions"].append({"name": "keeper", "declared": True})
    data["standings"] += [{"party": "bot", "ambition": "keeper", "count": 2, "power": 3},
                          {"party": "Blue", "ambition": "keeper", "count": 1}]
    trace = run(arcs, yaml.safe_dump(data))
    assert drms(trace)["contending"] == -3


@pytest.mark.parametrize(("failures", "passes"), [(1, False), (2, True)])
def test_a_player_must_pass_after_three_consecutive_failures(arcs, failures, passes):
    """L240: a failure with 2 before it is the third in a row."""
    trace = run(arcs, example("attempt_seven_drms", failures=failures, dice=[1]))
    assert acted(trace) == [("refuse_trade", "attempt.refuses")]
    assert ("third consecutive failure" in said(trace)) is passes
    assert ("may attempt another exchange" in said(trace)) is not passes


def test_a_magnate_in_act_one_refuses_all_but_resources_or_favors_without_a_roll(arcs):
    """Magnate › Act I: the bot will only accept resources or favors (readings R115)."""
    trace = run(arcs, example("attempt_seven_drms", fate="magnate", act=1, dice=None))
    assert acted(trace) == [("refuse_trade", "attempt.magnate-refuses")]
    assert trace.dice == []


def test_a_bot_holding_a_monopoly_refuses_a_trade_giving_that_resource(arcs):
    """Magnate › Act II, Monopoly: never consents to the matching resource being given."""
    trace = run(arcs, example("attempt_seven_drms", dice=None,
                              monopolies=[{"resource": "fuel", "holder": "bot"}]))
    assert acted(trace) == [("refuse_trade", "attempt.monopoly-refuses")]


def test_a_trade_must_move_between_the_offerer_and_the_bot(arcs):
    data = yaml.safe_load(example("attempt_seven_drms"))
    data["deals"].append({"name": "Yellow gives Blue 1 Relic", "giver": "Yellow",
                          "receiver": "Blue", "asset": "resource"})
    assert run(arcs, yaml.safe_dump(data)).decision.result == "list_deals"
    assert run(arcs, example("attempt_seven_drms", deals=[])).decision.result == "list_deals"


def test_another_bot_offering_passes_after_its_attempt(arcs):
    data = yaml.safe_load(example("attempt_seven_drms", offerer="Yellow", grievances=None))
    for deal in data["deals"]:
        deal["giver"] = "Yellow" if deal["giver"] == "Blue" else deal["giver"]
        deal["receiver"] = "Yellow" if deal["receiver"] == "Blue" else deal["receiver"]
    trace = run(arcs, yaml.safe_dump(data))
    assert "the offering bot passes" in said(trace)


def test_the_minigame_rounds_are_one_d6_plus_one_per_bot(arcs):
    trace = run(arcs, "step: negotiation\nnegotiation: start\nbots: 2\n", dice=[6])
    assert "8 Negotiation rounds" in said(trace)
    assert "settle Grievances" not in said(trace)  # the optional rule is not in play


# --- the bot's round -----------------------------------------------------------------------


def test_the_offer_adds_first_what_raises_the_drm_most(arcs):
    trace = run(arcs, example("bot_round_offer"))
    assert targets(trace, "offer") == ["the bot gives Yellow 1 Material",
                                       "the bot gives Yellow 1 Weapon"]
    assert targets(trace, "ask") == ["Yellow gives the bot its Guild card"]


def test_the_three_favor_limit_stops_the_offer_and_the_bot_passes(arcs):
    trace = run(arcs, example("bot_round_favor_limit"))
    assert trace.decision.result == "pass"
    assert len(targets(trace, "offer")) == 1


def test_four_for_one_within_three_favors_reaches_plus_two(arcs):
    """L274–275: with no favor of the bot's held, a Weapon and 3 favors — 4 for 1, +3 above
    an even trade, −1 (the bot would contend): DRM +2; a fourth favor stays unoffered."""
    data = yaml.safe_load(example("bot_round_favor_limit", favors=None, dice=[3]))
    data["deals"].append({"name": "the bot gives Yellow 1 Weapon", "giver": "bot",
                          "receiver": "Yellow", "asset": "resource", "resource": "weapon"})
    trace = run(arcs, yaml.safe_dump(data))
    offered = targets(trace, "offer")
    assert offered[0] == "the bot gives Yellow 1 Weapon" and len(offered) == 4
    assert matched(trace, "attempt.accepts", "negotiation.drm") == 2
    assert trace.decision.result == "accepted"


def test_a_want_no_offer_can_meet_is_dropped_for_the_next_rival_in_turn_order(arcs):
    """L265, L277: White comes first in turn order but holds 3 of the bot's favors already and
    the bot has only favors for it; Yellow, next, gets the offer (readings R113, R114)."""
    data = yaml.safe_load(example("bot_round_offer", dice=[6]))
    data["rivals"].insert(0, {"name": "White", "role": "bot", "order": 1})
    data["rivals"][1]["order"] = 3
    data["favors"] = [{"holder": "White", "owner": "bot", "count": 3}]
    data["deals"] += [
        {"name": "White gives the bot a card", "giver": "White", "receiver": "bot",
         "asset": "card", "objective": True},
        {"name": "the bot gives White a favor", "giver": "bot", "receiver": "White",
         "asset": "favor"}]
    trace = run(arcs, yaml.safe_dump(data))
    assert targets(trace, "ask") == ["White gives the bot a card",
                                     "Yellow gives the bot its Guild card"]
    assert [a for a, _ in acted(trace)][:2] == ["ask", "drop_want"]
    assert trace.decision.result == "accepted"


def test_a_magnate_asks_only_for_resources_or_favors_and_plays_two_rounds(arcs):
    """Magnate › Act I (readings R113): Yellow's Guild card is not a resource; Blue is a
    player: nothing to ask — the bot passes, and says its second round comes."""
    trace = run(arcs, example("bot_round_offer", fate="magnate", act=1, dice=None))
    assert trace.decision.result == "pass"
    assert targets(trace, "ask") == []
    assert "2 negotiation rounds" in said(trace)


@pytest.mark.parametrize(("fate", "exports"), [("magnate", True), ("none", False)])
def test_at_the_minigame_end_only_the_magnate_exports(arcs, fate, exports):
    """Magnate › Act I, Export to the Galactic Core (readings R116): 3 or more resources, none
    kept for a declared ambition it contends."""
    trace = run(arcs, f"step: negotiation\nnegotiation: end\nfate: {fate}\nact: 1\n"
                "material: 1\nweapon: 2\n")
    assert (acted(trace) == [("export_to_core", "negotiation.end.export")]) is exports
    assert ("asks nothing more" in said(trace)) is not exports
