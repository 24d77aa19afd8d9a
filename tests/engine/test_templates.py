"""Page templates (issue 23): a page says only its rules; the pack's template gives the rest.

The shipped Fate and suit pages carry no budget header any more (they take the `fate` and
`suit` templates of knowledge/arcs/pack.yaml); a house Fate written without one spends the
Fate's share of the actions, marks each target used, and never acts on one target twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from whybot.engine.decide import Engine
from whybot.engine.errors import RuleFileError
from whybot.engine.load.loader import load_pack
from whybot.engine.load.page_templates import TEMPLATE_KEYS, read_templates, with_template
from whybot.engine.load.sources import Document, read_document
from whybot.facts.snapshot import situation_from

ROOT = Path(__file__).resolve().parents[2]
KNOWLEDGE = ROOT / "knowledge"
MISER = """\
pack: arcs
procedure: fate.miser.act1
title: Miser (house Fate) — Act I
source: house rules § Miser
rules:
  - id: miser.act1.tax
    when: can.tax.any
    then:
      select: {where: suit == 'administration'}
      action: tax
      goal: "hoard: any resource"
      target: {where: "not used and action == 'tax'"}
    says: "A Miser Taxes for any resource before anything else."
"""
SNAPSHOT = {
    "pack": "arcs", "fate": "miser", "hand_counter": 3, "initiative": True,
    "cards": [{"suit": "administration", "number": 2, "pips": 4},
              {"suit": "construction", "number": 1, "pips": 2}],
    "options": [{"action": "tax", "resource": "fuel", "target": "Blue city on Hexy 2"},
                {"action": "tax", "resource": "material", "target": "Yellow city on Arrow 1"}],
}


def _decide(folder: Path) -> dict:
    engine = Engine(load_pack(KNOWLEDGE, "arcs", [folder]))
    situation = situation_from(Document(data=dict(SNAPSHOT), file="miser.yaml"), engine.pack)
    return engine.decide(situation, seed=1).decision


def test_a_house_fate_without_a_header_spends_the_fates_share_once_per_target(tmp_path):
    (tmp_path / "miser.yaml").write_text(MISER, encoding="utf-8")
    decision = _decide(tmp_path)
    taxed = [(a["rule"], a["target"]["target"]) for a in decision["actions"]]
    # 4 actions: the Fate's half (2) Taxes both cities, one each; the Administration page then
    # has 2 actions and no city left to Tax (§ How to follow the procedures: a target is used)
    assert taxed == [("miser.act1.tax", "Blue city on Hexy 2"),
                     ("miser.act1.tax", "Yellow city on Arrow 1")]
    assert "Spend the 2 remaining action(s) on the administration page." in decision["say"]


def test_the_template_decides_as_the_copied_header_did(tmp_path):
    copied = tmp_path / "copied"
    bare = tmp_path / "bare"
    copied.mkdir()
    bare.mkdir()
    pack = yaml.safe_load((KNOWLEDGE / "arcs" / "pack.yaml").read_text(encoding="utf-8"))
    header = {k: v for k, v in pack["templates"]["fate"].items() if k in TEMPLATE_KEYS}
    data = yaml.safe_load(MISER)
    (copied / "miser.yaml").write_text(yaml.safe_dump({**data, **header, "template": "none"},
                                                      sort_keys=False),
                                       encoding="utf-8")
    (bare / "miser.yaml").write_text(MISER, encoding="utf-8")
    assert _decide(copied) == _decide(bare)


def test_a_page_key_wins_and_its_defaults_lay_over_the_templates():
    templates = read_templates(read_document(KNOWLEDGE / "arcs" / "pack.yaml", RuleFileError))
    page = Document({"pack": "arcs", "procedure": "fate.x.act1", "salience": 20,
                     "defaults": {"target": {"from": "guild_card"}}, "rules": []}, "x.yaml")
    data = with_template(page, templates).data
    assert data["salience"] == 20
    assert data["defaults"] == {"select": {"from": "play", "as": "selected"},
                                "target": {"from": "guild_card"}}
    assert "fate_left" in data["repeat_while"]
    setup = Document({"pack": "arcs", "procedure": "fate.x.setup", "rules": []}, "x.yaml")
    assert with_template(setup, templates).data == setup.data  # no template matches it


def test_an_unknown_template_is_one_error_with_did_you_mean(tmp_path):
    (tmp_path / "miser.yaml").write_text(MISER.replace("rules:", "template: fates\nrules:"),
                                         encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_pack(KNOWLEDGE, "arcs", [tmp_path])
    assert "unknown template 'fates'" in caught.value.message
    assert "fate" in (caught.value.hint or "")
    assert caught.value.line == 5


def test_a_named_preference_reads_as_written_out_and_a_typo_is_one_error(tmp_path):
    written = MISER.replace("      select: {where: suit == 'administration'}\n",
                            "      select:\n        where: suit in ['administration', "
                            "'faithful_zeal']\n        prefer: [{use: faithful_zeal_actions}]\n")
    pack = yaml.safe_load((KNOWLEDGE / "arcs" / "pack.yaml").read_text(encoding="utf-8"))
    out = written.replace("[{use: faithful_zeal_actions}]",
                          yaml.safe_dump([pack["preferences"]["faithful_zeal_actions"]],
                                         default_flow_style=True, width=1000).strip())
    for name, text in (("named", written), ("out", out)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "miser.yaml").write_text(text, encoding="utf-8")
    rule = {folder: load_pack(KNOWLEDGE, "arcs", [tmp_path / folder]).rule("miser.act1.tax")
            for folder in ("named", "out")}
    assert rule["named"].then == rule["out"].then
    (tmp_path / "typo").mkdir()
    (tmp_path / "typo" / "miser.yaml").write_text(
        written.replace("faithful_zeal_actions", "faithful_zeel_actions"), encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_pack(KNOWLEDGE, "arcs", [tmp_path / "typo"])
    assert "unknown preference 'faithful_zeel_actions'" in caught.value.message
    assert "faithful_zeal_actions" in (caught.value.hint or "")


def test_a_packs_own_files_take_its_folders_name_and_a_house_file_says_it(tmp_path):
    pages = (KNOWLEDGE / "arcs" / "pages").rglob("*.yaml")
    assert all(not line.startswith("pack:") for path in pages
               for line in path.read_text(encoding="utf-8").splitlines())
    (tmp_path / "miser.yaml").write_text(MISER.replace("pack: arcs\n", ""), encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_pack(KNOWLEDGE, "arcs", [tmp_path])
    assert "a house-rule file names the pack it lays over" in caught.value.message
    assert caught.value.hint == "pack: arcs"
