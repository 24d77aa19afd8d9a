"""Every shipped SUPERCAT example decides, and the durable_rules walk agrees with the evaluator."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.arcs.conftest import HOUSE
from tests.conftest import KNOWLEDGE, ROOT, engine_for
from whybot.engine import SnapshotError
from whybot.engine.variants import variant_folder
from whybot.facts.snapshot import load_snapshot

FOLDER = ROOT / "facts" / "examples" / "arcs"
EXAMPLES = sorted(FOLDER.rglob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES,
                         ids=[str(p.relative_to(FOLDER).with_suffix("")) for p in EXAMPLES])
@pytest.mark.parametrize("house", [False, True], ids=["base", "house"])
def test_example_decides_without_disagreements(path: Path, house: bool, arcs, arcs_house):
    engine = arcs_house if house else arcs
    variant = yaml.safe_load(path.read_text(encoding="utf-8")).get("variant")
    if variant:  # a variant's example: decided with its variant, under the house rules too
        engine = engine_for(KNOWLEDGE, "arcs", (variant_folder(KNOWLEDGE / "arcs", variant),
                                                *((HOUSE,) if house else ())))
    if path.stem.startswith("house_") and not house:
        with pytest.raises(SnapshotError, match="is not one of"):  # a Fate with no pages
            load_snapshot(path, engine.pack)
        return
    trace = engine.decide(load_snapshot(path, engine.pack), seed=7)
    assert trace.disagreements == []
    assert trace.decision["result"] in {"decided", "pass", "event", "no_action", "battle",
                                        "setup", "list_slots", "chapter", "draw_cards",
                                        "list_cards", "minigame", "summit",
                                        "no_summit", "imperial_reach", "grievances",
                                        "negotiation", "accepted", "refused", "next_round",
                                        "chapter_end", "portal_found", "clue_check", "clue_x",
                                        "list_planets", "tiles_setup", "turn_tiles"}


def test_demo_ends_on_administration_with_a_tax(arcs):
    """The demo (make demo): the bot pivots to Administration and Taxes to contend Tycoon."""
    path = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
    for seed in (1, 7):
        trace = arcs.decide(load_snapshot(path, arcs.pack), seed=seed)
        assert trace.decision["actions"][-1]["page"] == "administration"
        assert trace.decision["actions"][-1]["action"] == "tax"
        assert trace.decision["actions"][-1]["rule"] == "admin.tax-contend-declared"


def test_there_are_about_twenty_examples():
    assert len(EXAMPLES) >= 20
