"""Variants: a pack's `variants/<name>/` folders are overlays read only when asked for, found by
name, and `diff_rules` tells what one changes (on the `chance` test pack's `lucky` variant)."""

from __future__ import annotations

import pytest

from tests.conftest import TOY_PACKS
from whybot.engine.errors import RuleFileError
from whybot.engine.load.loader import load_pack, rule_files
from whybot.engine.load.variants import diff_rules, shipped_variants, variant_folder

CHANCE = TOY_PACKS / "chance"


def test_a_packs_own_rule_files_leave_its_variants_out():
    files = rule_files(CHANCE)
    assert CHANCE / "pages" / "bag.yaml" in files
    assert not [f for f in files if "variants" in f.relative_to(CHANCE).parts]
    assert rule_files(CHANCE / "variants" / "lucky") == [CHANCE / "variants" / "lucky" /
                                                          "bag.yaml"]


def test_a_variant_is_found_by_name_or_as_a_folder(tmp_path):
    assert shipped_variants(CHANCE) == ["lucky"]
    assert variant_folder(CHANCE, "lucky") == CHANCE / "variants" / "lucky"
    own = tmp_path / "mine"
    own.mkdir()
    assert variant_folder(CHANCE, str(own)) == own
    with pytest.raises(RuleFileError, match="no variant 'lucy' of pack 'chance'") as error:
        variant_folder(CHANCE, "lucy")
    assert "lucky" in (error.value.hint or "")


def test_the_diff_lists_what_the_variant_replaces_adds_and_disables():
    base = load_pack(TOY_PACKS, "chance")
    lucky = load_pack(TOY_PACKS, "chance", [CHANCE / "variants" / "lucky"])
    changes = [(c.change, c.id) for c in diff_rules(base, lucky)]
    assert changes == [("replaced", "bag.blue"), ("added", "bag.red-again"),
                       ("disabled", "bag.red")]
    disabled = diff_rules(base, lucky)[2]
    assert disabled.reason.startswith("a red cube gives a second chance instead")
    assert disabled.as_dict()["b"] is None and disabled.as_dict()["a"]["cite"] == "chance § bag"
    back = [(c.change, c.id) for c in diff_rules(lucky, base)]
    assert back == [("replaced", "bag.blue"), ("added", "bag.red"),
                    ("removed", "bag.red-again")]
    assert diff_rules(base, base) == []
