"""How a trace names an entity: its kind's `label`, one field or several in order."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import TOY_PACKS
from whybot.engine import RuleFileError, load_pack
from whybot.engine.derive.derivation import entity_support


def _toy_labelled(tmp_path: Path, label: str) -> Path:
    shutil.copytree(TOY_PACKS / "toy", tmp_path / "toy")
    pack_file = tmp_path / "toy" / "pack.yaml"
    text = pack_file.read_text(encoding="utf-8")
    pack_file.write_text(text.replace("      from: tokens\n",
                                      f"      from: tokens\n      label: {label}\n", 1),
                         encoding="utf-8")
    return tmp_path


def test_a_label_of_several_fields_names_an_entity_by_all_of_them(tmp_path):
    pack = load_pack(_toy_labelled(tmp_path, "[colour, size]"), "toy")
    spec = pack.facts.entities["token"]
    assert spec.naming_fields == ("colour", "size")
    assert spec.name_of({"colour": "red", "size": 2}) == "red 2"
    assert spec.name_of({"colour": "red"}) == "red"
    assert spec.name_of({}) is None
    assert entity_support({"colour": "red", "size": 2, "other": 1}, pack, "token") == \
        {"kind": "token", "colour": "red", "size": 2}


def test_without_a_label_the_first_field_names_an_entity():
    spec = load_pack(TOY_PACKS, "toy").facts.entities["token"]
    assert spec.naming_fields == ("colour",)
    assert spec.name_of({"colour": "blue", "size": 3}) == "blue"


@pytest.mark.parametrize(("label", "expected"), [
    ("colur", r"toy/pack.yaml:\d+ \(\$.facts.entities.token.label\): token has no field "
              r"'colur' to label it by \(did you mean 'colour'\?\)"),
    ("[colour, sise]", r"\(\$.facts.entities.token.label\[1\]\): token has no field 'sise'"),
    ("[]", r"toy/pack.yaml:\d+ \(\$.facts.entities.token.label\)"),
])
def test_a_label_naming_no_field_of_its_kind_is_refused(tmp_path, label, expected):
    with pytest.raises(RuleFileError, match=expected):
        load_pack(_toy_labelled(tmp_path, label), "toy")


def test_a_game_file_keeps_entities_only_by_a_one_field_label(tmp_path):
    """`whybot play` keeps an entity's fields under its name: a label of several fields names
    it in a trace but cannot key what a game file keeps."""
    from whybot.facts.playbook import load_playbook

    root = _toy_labelled(tmp_path, "[colour, size]")
    (root / "toy" / "play.yaml").write_text(
        "pack: toy\nkeep:\n  fields:\n    token: {scope: game, fields: [size]}\n",
        encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"play.yaml:4 \(\$.keep.fields.token\): token has "
                                            r"no one-field label to keep its fields by"):
        load_playbook(load_pack(root, "toy"))
