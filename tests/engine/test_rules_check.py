"""`rules check` (engine/check/) on the `planted` test pack, which holds one of each fault: a
rule on a value the schema forbids, a rule under an identical higher one, a page where nothing
applies, two equal-priority rules with different outcomes; `planted_clean` with an overlay that
disables the only rule of a page. Every witness is decided again here, from its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import OVERLAYS, TOY_PACKS
from whybot.engine.check import check
from whybot.engine.check.domains import Domains
from whybot.engine.check.proofs import impossible
from whybot.engine.decide import Engine
from whybot.engine.language.parser import parse
from whybot.engine.load.loader import load_pack
from whybot.facts.snapshot import parse_snapshot


def read(text, pack):
    return parse_snapshot(text, "witness.yaml", pack)


def checked(name: str, overlays: list[Path] | None = None, shipped: bool = False):
    engine = Engine(load_pack(TOY_PACKS, name, overlays or []))
    base = Engine(load_pack(TOY_PACKS, name, [])) if shipped else None
    return engine, check(engine.pack, engine, read, shipped=base)


@pytest.fixture(scope="module")
def planted():
    return checked("planted")


def found(report, kind):
    return {f.subject: f for f in report.findings if f.kind == kind}


def test_a_rule_on_a_value_the_schema_forbids_never_applies_with_the_parts_named(planted):
    finding = found(planted[1], "never applies")["turn.hoard"]
    assert finding.proof == ["resources == 1000: impossible, as the fact schema allows "
                             "resources 0..40"]
    assert finding.witness is None


def test_a_rule_under_an_identical_higher_one_never_fires_and_names_it(planted):
    finding = found(planted[1], "never fires")["turn.rest-again"]
    assert "'turn.rest'" in finding.proof[0]
    assert "same condition" in finding.proof[0]


def test_a_rule_implied_by_a_higher_one_never_fires_by_interval_reasoning(planted):
    finding = found(planted[1], "never fires")["turn.trade-more"]
    assert "'turn.trade'" in finding.proof[0]
    assert "the fact schema allows no situation where only it does" in finding.proof[0]


def test_a_page_where_nothing_applies_has_a_witness_the_engine_confirms(planted):
    engine, report = planted
    gap = found(report, "gap")["turn"]
    situation = read(gap.witness.text(), engine.pack)
    trace = engine.decide(situation, seed=1)
    assert trace.steps[-1].notes == ["no rule on this page applies"]
    assert trace.decision["actions"] == []


def test_a_gap_on_a_page_reached_by_goto_meets_the_goto_s_condition(planted):
    engine, report = planted
    gap = found(report, "gap")["build"]
    situation = read(gap.witness.text(), engine.pack)
    assert any(t["colour"] == "red" for t in situation.entities["token"])
    trace = engine.decide(situation, seed=1)
    assert [step.page for step in trace.steps] == ["turn", "build"]


def test_equal_priority_rules_with_different_outcomes_conflict_on_a_witness(planted):
    engine, report = planted
    conflict = found(report, "conflict")["turn.trade / turn.raid"]
    situation = read(conflict.witness.text(), engine.pack)
    assert situation.board["resources"] >= 10
    assert situation.answers["threatened"] is True


def test_the_planted_pack_has_exactly_its_faults(planted):
    assert sorted(f.key for f in planted[1].findings) == [
        "conflict turn.trade / turn.raid", "gap build", "gap turn",
        "never applies turn.hoard", "never fires turn.rest-again",
        "never fires turn.trade-more"]


def test_a_clean_pack_checks_clean_and_says_how_hard_it_looked():
    _, report = checked("planted_clean")
    assert report.findings == []
    assert [str(s) for s in report.searched] == ["gap on page 'build': none found in 200 tries"]


def test_an_overlay_that_disables_the_only_rule_of_a_page_is_found_with_a_witness():
    engine, report = checked("planted_clean", [OVERLAYS / "disable_only"], shipped=True)
    overlay = found(report, "overlay")
    assert "page 'build' is left with no rule" in overlay["build.big"].message
    change = overlay["build"]
    assert "decision points it can change: turn" in change.message
    assert "as shipped: build.big; with the overlay: none" in change.message
    assert "build" in found(report, "gap")
    trace = engine.decide(read(change.witness.text(), engine.pack), seed=1)
    assert trace.decision["actions"] == []


def test_an_excuse_marks_its_finding_and_a_stale_one_is_reported(planted):
    _, report = planted
    why = {"reason": "r", "cite": "§ c"}
    report.excuse({"gap turn": why, "gap nowhere": why, "conflict turn.rest / turn.trade": why,
                   "conflict turn.rest / turn.gone": why, "shadow turn.rest": why},
                  {"turn", "build", "turn.rest", "turn.trade"})
    assert [f.key for f in report.findings if f.excused] == ["gap turn"]
    assert report.unknown_excuses == ["gap nowhere", "conflict turn.rest / turn.gone",
                                      "shadow turn.rest"]
    assert report.counts()["gap"] == {"found": 2, "excused": 1}


@pytest.mark.parametrize(("condition", "proved"), [
    ("resources > 40", True),
    ("resources >= 40", False),
    ("resources > 5 and resources < 3", True),
    ("resources > 5 and resources < 7 and resources != 6", True),
    ("resources > 5 and resources < 8 and resources != 6", False),
    ("mood == 'sulky'", True),
    ("mood in ['calm', 'angry'] and mood != 'calm'", False),
    ("exists token (size == 4)", True),
    ("exists token (size == 4) or ready", False),
    ("count(token) < 0", True),
    ("resources + 1 > 100", False),  # arithmetic is not modelled: taken as satisfiable
])
def test_interval_reasoning_proves_only_what_cannot_hold(planted, condition, proved):
    pack = planted[0].pack
    tree = parse(condition, pack.kinds)
    assert (impossible(tree, Domains(pack)) is not None) == proved
