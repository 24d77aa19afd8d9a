"""Every shipped example decides, durable_rules agrees with the evaluator, dice are as given."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from whybot.facts.snapshot import load_snapshot

EXAMPLES = sorted((ROOT / "facts" / "examples" / "sparta_athens").glob("*.yaml"))
EXPECTED = {
    "battle_losing_unplayable": "card_revealed",
    "deployment_fight_tied_sea": "fight",
    "deployment_raid_largest": "raid",
    "deployment_tied_before_disadvantaged": "fight",
    "influence_symbol_tiebreak": "influence",
    "mobilisation_reactions": "reacted",
    "new_mobilisation_no_force": "no_mobilisation",
    "new_mobilisation_round_one": "mobilised",
    "objective_athens_strategic": "objective",
    "objective_sparta_army": "objective",
    "raid_tied_siege": "siege",
    "siege_out_of_money": "siege_abandoned",
}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("seed", [1, 7])
def test_example_decides_without_disagreements(path: Path, seed: int, sa):
    situation = load_snapshot(path, sa.pack)
    trace = sa.decide(situation, seed=seed)
    assert trace.disagreements == []
    assert all(r["source"].startswith("pre-rolled") for r in trace.dice), trace.dice
    assert sum(len(r["faces"]) for r in trace.dice) == len(situation.dice)
    assert trace.decision["result"] == EXPECTED[path.stem]


def test_examples_have_notes_and_a_decision_point():
    for path in EXAMPLES:
        data = yaml.safe_load(path.read_text())
        assert data.get("notes") and data.get("decision"), path.name
    assert set(EXPECTED) == {p.stem for p in EXAMPLES}


def test_objective_example_targets_thessaly(sa):
    """The objective example's notes: Thessaly (least alteration among the cavalry regions)."""
    situation = load_snapshot(ROOT / "facts/examples/sparta_athens/objective_sparta_army.yaml",
                              sa.pack)
    trace = sa.decide(situation, seed=1)
    assert trace.decision["choices"]["chosen"]["entity"]["name"] == "Thessaly"
