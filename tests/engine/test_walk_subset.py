"""A decision derives only what its walk can read (`derive/walk_subset.py`): the pages the
snapshot's fixed observations reach, the derivations behind what they mention. A walk led
elsewhere is decided again with every derivation; and every shipped example decides exactly as
it does with every derivation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, TOY_PACKS, engine_for
from whybot.engine import Engine, Reading
from whybot.engine.errors import WhybotError
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation
from whybot.facts.snapshot import parse_snapshot


@pytest.fixture(scope="module")
def reach():
    return engine_for(TOY_PACKS, "reach")


def _situation(engine: Engine, text: str):
    return parse_snapshot("pack: reach\n" + text, "inline.yaml", engine.pack)


def _subset(engine: Engine, text: str) -> tuple[frozenset[str], frozenset[str] | None]:
    situation = _situation(engine, text)
    pages = engine.walk_subset.pages_for(engine.inputs(situation))
    return pages, engine.walk_subset.subset(pages, situation.answers)


@pytest.mark.parametrize(("mode", "pages", "rules"), [
    ("north", {"start", "north"}, {"j.windy"}),
    ("south", {"start", "south"}, {"j.stormy", "j.windy", "j.wet"}),
    # `goto: "{mode}"`: named by an observation no rule sets; the page reads a kind whole
    ("sky", {"start", "sky"}, {"j.cloudy", "j.heavy"}),
])
def test_the_pages_a_mode_reaches_and_the_derivations_behind_them(reach, mode, pages, rules):
    assert _subset(reach, f"mode: {mode}\n") == (pages, rules)


def test_a_judgment_the_snapshot_answers_is_derived_too_its_overriding_rules_are_shown(reach):
    situation = _situation(reach, "mode: north\nanswers: {dry: false}\n")
    pages = reach.walk_subset.pages_for(reach.inputs(situation))
    assert reach.walk_subset.subset(pages, situation.answers) == {"j.windy", "j.dry"}


def test_a_walk_led_outside_its_pages_is_decided_again_with_every_derivation(reach, monkeypatch):
    situation = _situation(reach, "mode: south\nwind: 5\nrain: 5\n")
    wrong = (frozenset({"start", "north"}), frozenset({"j.windy"}))  # as if south were not
    # reachable: only what the north page reads is derived, so `stormy` is left at no
    trace, led_to = reach._walk(situation, 1, True, None, None, True, wrong[1])
    assert led_to == {"start", "south"} and trace.decision.result == "fish"
    full = Reading()
    with monkeypatch.context() as every:
        every.setattr(Engine, "reachable", lambda self, situation: None)
        expected = reach.decide(situation, seed=1, reading=full)
    walks: list[frozenset[str] | None] = []
    walk = Engine._walk

    def counted(self, *args):
        walks.append(args[-1])
        return walk(self, *args)

    monkeypatch.setattr(Engine, "reachable", lambda self, situation: wrong)
    monkeypatch.setattr(Engine, "_walk", counted)
    reading = Reading()
    trace = reach.decide(situation, seed=1, reading=reading)
    assert walks == [wrong[1], None]
    assert trace.decision.result == "shelter"
    assert trace.judgments["stormy"].value is True
    assert trace.as_dict() == expected.as_dict()
    assert reading.events == full.events  # what the first walk read is forgotten


def test_a_walk_within_its_pages_derives_only_the_subset(reach, monkeypatch):
    derived: list[frozenset[str] | None] = []
    derive = Engine.derive

    def noted(self, *args):
        derived.append(args[-1])
        return derive(self, *args)

    monkeypatch.setattr(Engine, "derive", noted)
    trace = reach.decide(_situation(reach, "mode: south\nwind: 5\nrain: 5\n"), seed=1)
    assert trace.decision.result == "shelter"
    assert derived == [frozenset({"j.stormy", "j.windy", "j.wet"})]
    assert set(trace.judgments) == {"stormy"}


def _examples(exhaustive: bool) -> list[Path]:
    paths = sorted((ROOT / "facts" / "examples").rglob("*.yaml"))
    return paths if exhaustive else paths[::2]


def _trace(engine: Engine, situation, record: bool) -> str:
    trace = engine.decide(situation, seed=1, reading=Reading(), record=record)
    return json.dumps(trace.as_dict(), default=str)


@pytest.mark.parametrize("record", [True, False])
def test_every_shipped_example_decides_as_with_every_derivation(exhaustive, record,
                                                                monkeypatch):
    """The trace as `why --json` shows it (and as a batch row's decision has it)."""
    subsets: dict[str, int] = {}
    decided = 0
    for path in _examples(exhaustive):
        try:
            engine, situation = load_situation(path, None, overlay_key(None))
            reached = engine.reachable(situation)
            with monkeypatch.context() as full:
                full.setattr(Engine, "reachable", lambda self, situation: None)
                expected = _trace(engine, situation, record)
        except WhybotError:
            continue  # a map, or an example that needs house rules
        assert _trace(engine, situation, record) == expected, path
        if reached is not None:
            subsets[engine.pack.name] = subsets.get(engine.pack.name, 0) + 1
        decided += 1
    assert decided > 100
    assert subsets.get("arcs", 0) > 50 and subsets.get("sparta_athens", 0) > 20


def test_what_only_derivations_outside_the_subset_conclude_takes_no_default(reach):
    situation = _situation(reach, "mode: north\nwind: 5\nclouds: [{name: high, size: 9}]\n")
    board = reach.inputs(situation)
    full = reach.derive(board, situation.entities, {})
    part = reach.derive(board, situation.entities, {}, None, True, frozenset({"j.windy"}))
    assert full.values["wet"] is False and full.entities["cloud"][0]["heavy"] is True
    assert part.values == {"windy": True}
    assert "heavy" not in part.entities["cloud"][0]
