"""The arcs pack's variants draft-000 and draft-001 (the earlier drafts of SUPERCAT's campaign
pages), and literal-ties (R11 read the other way, readings R148): what each changes (`whybot rules
diff`), and a decision each changes."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from tests.arcs.helpers import decide
from tests.conftest import KNOWLEDGE, ROOT, engine_for
from whybot.cli.app import app
from whybot.engine.load.variants import variant_folder
from whybot.facts.snapshot import load_snapshot

EXAMPLES = ROOT / "facts" / "examples" / "arcs" / "variants"
ARCS = KNOWLEDGE / "arcs"


def cli(*args: str) -> dict:
    result = CliRunner().invoke(app, [*map(str, args), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def drafts():
    return {name: engine_for(KNOWLEDGE, "arcs", (variant_folder(ARCS, name),))
            for name in ("draft-000", "draft-001")}


# What each draft changes, rule by rule: (change, the base rule, the variant's rule).
DRAFT_000 = {
    ("replaced", "bot_turn.play-event", "draft-000.play-event"),
    ("replaced", "round_end.event-aside", "draft-000.event-aside"),
    # row 2: only a favor returned settles a Grievance (L38)
    ("replaced", "grievances.settle", "draft-000.settle"),
    ("replaced", "grievances.settle-nothing", "draft-000.settle-nothing"),
    ("added", "draft-000.agent-settles-nothing", "draft-000.agent-settles-nothing"),
    ("replaced", "grievances.settle-by-bot", "draft-000.settle-by-bot"),
    ("replaced", "negotiation.settle", "draft-000.negotiation-settle"),
    # row 4: with several players, free negotiation after the rounds (L44)
    ("added", "draft-000.free-negotiation", "draft-000.free-negotiation"),
    # row 5: −1 for each grievance, any colour (L57)
    ("replaced", "negotiation.drm.grievances", "draft-000.drm.grievances"),
    ("replaced", "attempt.drm.grievances", "draft-000.attempt.drm.grievances"),
    # rows 6, 7: −1 when the target contends (L58), +1 when the offerer does (L61); the bot's
    # offer no longer puts first what makes the target contend
    ("replaced", "negotiation.drm.target-contends", "draft-000.drm.target-contends"),
    ("replaced", "negotiation.drm.rival-contends", "draft-000.drm.offerer-contends"),
    ("replaced", "attempt.drm.target-contends", "draft-000.attempt.drm.target-contends"),
    ("replaced", "attempt.drm.rival-contends", "draft-000.attempt.drm.offerer-contends"),
    ("replaced", "offer.add", "draft-000.offer.add"),
}
DRAFT_001 = {
    ("replaced", "play.fate", "draft-001.fate"),
    ("added", "draft-001.fate-not-read", "draft-001.fate-not-read"),
    ("replaced", "bot_turn.play-event", "draft-001.play-event"),
    ("replaced", "round_end.event-aside", "draft-001.event-aside"),
    # row 1: the Summit roll without the Fate (L10)
    ("replaced", "summit.fate", "draft-001.summit-no-fate"),
    # row 3: the minigame ends after one turn each (L42)
    ("replaced", "negotiation.rounds", "draft-001.rounds"),
    ("replaced", "negotiation.order", "draft-001.order"),
    # rows 6, 7: −1 when the target contends (L57), +1 when the offerer does (L60)
    ("replaced", "negotiation.drm.target-contends", "draft-001.drm.target-contends"),
    ("replaced", "negotiation.drm.rival-contends", "draft-001.drm.offerer-contends"),
    ("replaced", "attempt.drm.target-contends", "draft-001.attempt.drm.target-contends"),
    ("replaced", "attempt.drm.rival-contends", "draft-001.attempt.drm.offerer-contends"),
    # row 8: a resource, trophy or captive to contend first, the objective second (L66–67)
    ("replaced", "negotiation.deal.want.contend", "draft-001.want.contend"),
    ("replaced", "negotiation.deal.want.objective", "draft-001.want.objective"),
    ("replaced", "offer.want", "draft-001.offer.want"),
    ("replaced", "offer.nothing", "draft-001.offer.nothing"),
    # row 9: resources and favors to +2, no 4-1 or 3-favor limit, never a resource of a
    # declared ambition the bot contends (L69)
    ("added", "draft-001.deal.kept-back", "draft-001.deal.kept-back"),
    ("replaced", "negotiation.deal.offerable.asset", "draft-001.offerable.resource"),
    ("replaced", "negotiation.deal.offerable.favor", "draft-001.offerable.favor"),
    ("replaced", "offer.add", "draft-001.offer.add"),
    ("replaced", "offer.drop-want", "draft-001.offer.drop-want"),
    ("replaced", "bot_round.pass", "draft-001.bot-round.pass"),
}


def changes(*variants: str) -> list[tuple[str, str, str | None]]:
    data = cli("rules", "diff", "--pack", "arcs", *(f"--variant={v}" for v in variants))
    return [(c["change"], c["id"], (c["b"] or {}).get("id")) for c in data["changes"]]


def test_the_drafts_changes_by_rule():
    """Draft 000: the Event card aside when played (L4), and its Summits, Grievances and
    Negotiation lines; draft 001: the same, and the Fate page read only for a card General
    Priorities chose (L77, L79). Each rule once."""
    for name, expected in (("draft-000", DRAFT_000), ("draft-001", DRAFT_001)):
        listed = changes(name)
        assert len(listed) == len(set(listed))
        assert set(listed) == expected
    data = cli("rules", "diff", "--pack", "arcs", "--variant", "draft-001")
    assert data["changes"][0]["b"]["cite"] == \
        "001_f8cfacdae70b06ce.txt § Fates (lines 77, 79 — readings R135)"


def test_draft_000_sets_the_event_aside_as_it_is_played(arcs, drafts):
    path = EXAMPLES / "draft_000_event_aside_when_played.yaml"
    base = arcs.decide(load_snapshot(path, arcs.pack), seed=1)
    draft = drafts["draft-000"].decide(load_snapshot(path, drafts["draft-000"].pack), seed=1)
    assert [a["rule"] for a in base.decision["actions"]] == ["bot_turn.play-event"]
    assert [a["rule"] for a in draft.decision["actions"]] == ["draft-000.play-event"]
    assert "set it aside at once" in draft.decision["actions"][0]["details"]
    assert "when the round ends it is set aside" in base.decision["actions"][0]["details"]


def test_draft_000_at_the_rounds_end_the_event_is_already_aside(drafts):
    trace = decide(drafts["draft-000"], "step: round_end\nevent_played_this_round: true\n"
                                        "player_cards: 2\nhand_counter: 1\n")
    assert "draft-000.event-aside" in trace.fired()
    assert trace.decision["say"][0].startswith("The Event card played this round was set "
                                               "aside when it was played")


def test_draft_001_reads_no_fate_page_after_a_surpass(arcs, drafts):
    path = EXAMPLES / "draft_001_fate_not_read_after_surpass.yaml"
    base = arcs.decide(load_snapshot(path, arcs.pack), seed=1)
    draft = drafts["draft-001"].decide(load_snapshot(path, drafts["draft-001"].pack), seed=1)
    assert [a["rule"] for a in base.decision["actions"]] == [
        "steward.act1.in-session.influence-council", "admin.tax-contend-declared"]
    assert [a["rule"] for a in draft.decision["actions"]] == [
        "admin.tax-contend-declared", "admin.influence-card"]


def test_draft_001_still_reads_the_fate_page_for_general_priorities(arcs, drafts):
    """L77: the first line of General Priorities checks the Fate — the same card and actions as
    SUPERCAT v0.9 when no card surpasses (the Steward, Red led Construction 6)."""
    board = """
fate: steward
hand_counter: 4
lead_suit: construction
lead_number: 6
cards: [{suit: administration, number: 5, pips: 3}, {suit: mobilization, number: 1, pips: 4}]
options:
  - {action: influence, court_card: imperial_council, target: "the Imperial Council"}
dice: [6]
"""
    base, draft = decide(arcs, board), decide(drafts["draft-001"], board)
    assert [a["rule"] for a in draft.decision["actions"]] == \
        [a["rule"] for a in base.decision["actions"]]
    assert draft.decision["actions"][0]["rule"] == "steward.act1.in-session.influence-council"
    assert "draft-001.fate" in draft.fired()


def test_the_option_wins_over_the_snapshots_variant():
    path = EXAMPLES / "draft_000_event_aside_when_played.yaml"
    assert cli("decide", path)["decision"]["actions"][0]["rule"] == "draft-000.play-event"
    assert cli("decide", path, "--variant", "draft-001"
               )["decision"]["actions"][0]["rule"] == "draft-001.play-event"


def test_a_batch_decides_each_snapshot_with_its_own_variant():
    result = CliRunner().invoke(app, ["batch", str(EXAMPLES)], catch_exceptions=False)
    rows = {Path(row["snapshot"]).stem: row for row in map(json.loads, result.stdout.splitlines())}
    assert rows["draft_000_event_aside_when_played"]["actions"][0]["rule"] == \
        "draft-000.play-event"
    assert rows["draft_001_fate_not_read_after_surpass"]["actions"][0]["rule"] == \
        "admin.tax-contend-declared"


# Each campaign example of a variant, and what SUPERCAT v0.9 (no variant) decides on the same
# board: the result and the rules behind its actions; for the rows that change only what the
# bot tells the table (the minigame's length, free negotiation), a line the variant's decision
# says (its `expect: says:`) and the base's does not.
# The variant's own decision is its `expect:` block (tests/test_examples.py); here the base must
# decide otherwise.
BASE_DECIDES = {
    "draft_001_summit_steward_rolls": ("summit", ["summit.fate", "call_to_order.petition"], None),
    "draft_000_agent_settles_nothing": ("grievances", ["grievances.settle"], None),
    "draft_001_minigame_one_turn_each": (
        "negotiation", [], "but it ends once each player and bot has had a turn"),
    "draft_000_players_negotiate_freely": (
        "negotiation", [], "the players may freely negotiate as per the rules"),
    "draft_000_grievances_any_colour": ("accepted", ["attempt.accepts"], None),
    "draft_001_target_contends_lowers": ("accepted", ["attempt.accepts"], None),
    "draft_000_offerer_contends_raises": ("refused", ["attempt.refuses"], None),
    "draft_000_bot_round_passes": (
        "refused", ["offer.want", "offer.add", "offer.add", "attempt.refuses"], None),
    "draft_001_wants_to_contend_first": (
        "pass", ["offer.want", "offer.add", "offer.add", "offer.drop-want",
                 "offer.want", "offer.add", "offer.add", "offer.drop-want", "bot_round.pass"],
        None),
    "draft_001_no_favor_limit": (
        "pass", ["offer.want", "offer.add", "offer.drop-want", "bot_round.pass"], None),
    "draft_001_keeps_contended_resource": (
        "accepted", ["offer.want", "offer.add", "offer.add", "offer.add", "attempt.accepts"],
        None),
}


@pytest.mark.parametrize("stem", sorted(BASE_DECIDES))
def test_without_the_variant_the_campaign_example_decides_otherwise(arcs, stem):
    path = EXAMPLES / f"{stem}.yaml"
    expect = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
    base = arcs.decide(load_snapshot(path, arcs.pack), seed=expect["seed"]).decision
    result, rules, line = BASE_DECIDES[stem]
    assert (base["result"], [a["rule"] for a in base["actions"]]) == (result, rules)
    if line is None:
        assert (result, rules) != (expect["result"], [a["rule"] for a in expect["actions"]])
    else:
        assert any(line in said for said in expect["says"])
        assert not any(line in said for said in base["say"])


@pytest.mark.parametrize(("stem", "other"), [("draft_001_target_contends_lowers", "draft-000"),
                                             ("draft_000_offerer_contends_raises", "draft-001")])
def test_both_drafts_reverse_the_contend_drms(drafts, stem, other):
    """Rows 6 and 7 are the same in both drafts (000 L58, L61; 001 L57, L60): each example
    decides the same under the other draft."""
    path = EXAMPLES / f"{stem}.yaml"
    expect = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
    trace = drafts[other].decide(load_snapshot(path, drafts[other].pack), seed=expect["seed"])
    assert trace.decision["result"] == expect["result"]
    assert [a["rule"] for a in trace.decision["actions"]] == \
        [a["rule"] for a in expect["actions"]]


CAMPAIGN = [ROOT / "facts" / "examples" / "arcs" / name
            for name in ("summit", "negotiation", "grievances")]
# `batch --diff DRAFT` over the campaign examples and the draft's own (copied without their
# `variant:`, so the base side is SUPERCAT v0.9): the snapshots whose decision changes, and
# those where only the walk does (a rule that says something else, the same actions).
BATCH_DIFF = {
    "draft-000": (
        {"draft_000_agent_settles_nothing", "draft_000_bot_round_passes",
         "draft_000_grievances_any_colour", "draft_000_offerer_contends_raises",
         "bot_round_favor_limit", "bot_round_offer"},
        {"draft_000_players_negotiate_freely": "draft-000.free-negotiation",
         "draft_000_event_aside_when_played": "draft-000.play-event"}),
    "draft-001": (
        {"draft_001_fate_not_read_after_surpass", "draft_001_keeps_contended_resource",
         "draft_001_no_favor_limit", "draft_001_summit_steward_rolls",
         "draft_001_target_contends_lowers", "draft_001_wants_to_contend_first",
         "steward_always_calls", "bot_round_favor_limit", "bot_round_offer"},
        {"draft_001_minigame_one_turn_each": "draft-001.rounds",
         "start_three_bots": "draft-001.rounds"}),
}


@pytest.mark.parametrize("variant", sorted(BATCH_DIFF))
def test_a_batch_diff_lists_the_campaign_examples_the_draft_changes(tmp_path, variant):
    prefix = variant.replace("-", "_")
    for path in EXAMPLES.glob(f"{prefix}_*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data.pop("variant") == variant
        (tmp_path / path.name).write_text(yaml.safe_dump(data, allow_unicode=True),
                                          encoding="utf-8")
    result = CliRunner().invoke(app, ["batch", str(tmp_path), *map(str, CAMPAIGN), "--pack",
                                      "arcs", "--diff", variant, "--seed", "1"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = {Path(row["snapshot"]).stem: row for row in map(json.loads,
                                                           result.stdout.splitlines())}
    changed, walks = BATCH_DIFF[variant]
    assert all(row["ok"] for row in rows.values())
    assert {stem for stem, row in rows.items() if row["changed"]} == changed
    assert {stem: rows[stem]["rule"] for stem in walks} == walks
    assert not any(rows[stem]["changed"] for stem in walks)


def test_every_reading_a_variant_cites_is_in_the_packs_guide():
    """The variants' rules cite the readings (R134–R139, R141–R146) the pack's guide gives for
    them."""
    guide = (ARCS / "pack.yaml").read_text(encoding="utf-8")
    defined = set(re.findall(r"^# (R\d+) ", guide, flags=re.M))
    cited = {found for path in (ARCS / "variants").rglob("*.yaml")
             for found in re.findall(r"\bR\d+\b", path.read_text(encoding="utf-8"))}
    assert cited >= {f"R{n}" for n in (*range(137, 140), *range(141, 147))}
    assert cited <= defined


# The exact odds of a result on each example's board with no die pre-rolled: (result, under
# SUPERCAT v0.9, under the example's draft) — worked out in the examples' notes.
ODDS = {
    "draft_001_summit_steward_rolls": ("summit", Fraction(1), Fraction(1, 3)),
    "draft_000_grievances_any_colour": ("accepted", Fraction(1, 2), Fraction(1, 6)),
    "draft_001_target_contends_lowers": ("accepted", Fraction(1, 2), Fraction(1, 6)),
    "draft_000_offerer_contends_raises": ("accepted", Fraction(1, 3), Fraction(2, 3)),
}


@pytest.mark.parametrize("stem", sorted(ODDS))
def test_the_draft_changes_the_exact_odds(tmp_path, stem):
    data = yaml.safe_load((EXAMPLES / f"{stem}.yaml").read_text(encoding="utf-8"))
    del data["dice"]
    result, base, draft = ODDS[stem]

    def odds(board: dict, *args: str) -> Fraction:
        path = tmp_path / "board.yaml"
        path.write_text(yaml.safe_dump(board, allow_unicode=True), encoding="utf-8")
        outcomes = cli("odds", path, *args)["outcomes"]
        return sum((Fraction(o["probability"]) for o in outcomes
                    if o["decision"]["result"] == result), Fraction(0))

    assert odds(data) == draft
    assert odds({k: v for k, v in data.items() if k != "variant"}) == base


def test_draft_001_offers_more_than_four_for_one(arcs, drafts):
    """001 L69 has no 4-1 limit (readings R145): Yellow holds 3 grievances in the bot's colour
    (−3), so the bot needs 6 actions for 1 to reach +2 — draft 001 offers its 6 favors; SUPERCAT
    v0.9 stops at the 3-favor limit (L275) and passes. (Seed 1: Yellow accepts.)"""
    favors = "".join(f'  - {{name: "favor {n}", giver: bot, receiver: Yellow, asset: favor}}\n'
                     for n in range(1, 7))
    board = f"""
step: negotiation
negotiation: bot_round
fate: none
grievances_rule: true
rivals:
  - {{name: Yellow, role: bot, order: 1}}
favors: []
grievances:
  - {{holder: Yellow, source: bot, count: 3}}
deals:
  - {{name: "Yellow's Guild card", giver: Yellow, receiver: bot, asset: card, objective: true}}
{favors}"""
    draft = decide(drafts["draft-001"], board)
    assert [a["action"] for a in draft.decision["actions"]] == \
        ["ask"] + ["offer"] * 6 + ["accept_trade"]
    assert "The bot offers Yellow 6 Negotiation action(s) for 1: the DRM is 2." in \
        draft.decision["say"]
    base = decide(arcs, board)
    assert [a["action"] for a in base.decision["actions"]] == \
        ["ask", "offer", "offer", "offer", "drop_want", "pass"]


# --- literal-ties: R11's other reading (003 L960–962 with L148) ------------------------------

LITERAL_TIES = {
    ("replaced", "ambitions.tied-first", "literal-ties.tied-first"),
    ("replaced", "founder.cw-tied-first", "literal-ties.cw-tied-first"),
}


@pytest.fixture(scope="module")
def literal_ties():
    return engine_for(KNOWLEDGE, "arcs", (variant_folder(ARCS, "literal-ties"),))


def test_literal_ties_changes_only_the_tie_for_first(literal_ties):
    """The variant replaces the two rules where R11 lives (a count above 0 to be tied for first:
    the bot's, the Commonwealth's) and nothing else; each cites its seed lines."""
    listed = changes("literal-ties")
    assert len(listed) == len(set(listed)) and set(listed) == LITERAL_TIES
    data = cli("rules", "diff", "--pack", "arcs", "--variant", "literal-ties")
    for change in data["changes"]:
        assert "readings R148" in change["b"]["cite"]
        assert re.search(r"lines? 960–962", change["b"]["cite"])


def test_at_chapter_start_the_pack_alone_does_not_declare_and_literal_ties_does(arcs,
                                                                                literal_ties):
    """The same table (the example's, without its `variant:`): R11 — a count of 0 is no
    standing — sends the bot to General Priorities, which Taxes to contend the undeclared
    Tycoon with the Administration 1; the literal reading leads the Construction 2 and declares
    Tycoon (tied 0–0, not yet declared: L960–962), then Builds ships."""
    path = EXAMPLES / "literal_ties_declares_at_chapter_start.yaml"
    base = arcs.decide(load_snapshot(path, arcs.pack), seed=1).decision
    assert base["choices"]["selected"]["entity"]["suit"] == "administration"
    assert base["choices"]["selected"]["entity"]["number"] == 1
    assert [a["rule"] for a in base["actions"]] == ["admin.tax-contend-undeclared"]
    assert not any("declare" in said for said in base["say"])
    literal = literal_ties.decide(load_snapshot(path, literal_ties.pack), seed=1)
    assert literal.decision["choices"]["selected"]["entity"]["number"] == 2
    assert "Lead the card and declare tycoon." in literal.decision["say"]
    assert [a["rule"] for a in literal.decision["actions"]] == ["cons.build-ships"]


def test_literal_ties_at_0_0_still_needs_a_marker_and_a_matching_card(literal_ties):
    """L961: no ambition marker, no declaration, 0–0 or not; a tie with a count above 0 is a tie
    in both readings, and winning still needs more than every rival."""
    board = """
hand_counter: 6
initiative: true
ambition_markers_available: false
cards: [{suit: construction, number: 2, pips: 3}, {suit: administration, number: 1, pips: 4}]
ambitions: [{name: tycoon, bot: 0, best_rival: 0}]
options: [{action: build, goal: ships, target: ships}]
"""
    trace = decide(literal_ties, board)
    assert "Lead the card and declare tycoon." not in trace.decision["say"]
