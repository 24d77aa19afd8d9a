"""Issue 12, command line polish: a `--rules` folder is read for its rule files only (by what
each file declares), and `rules lint` refuses an `action:` its pack does not declare."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "knowledge" / "examples" / "house"
HOARDER_SNAPSHOT = ROOT / "facts" / "examples" / "arcs" / "house_hoarder.yaml"


@pytest.fixture()
def house(tmp_path: Path) -> Path:
    """A house-rule folder as a player keeps it: the rule files, and beside them a snapshot
    to try them on and a notes file."""
    folder = tmp_path / "house"
    shutil.copytree(HOUSE, folder)
    shutil.copy(HOARDER_SNAPSHOT, folder / "try_me.yaml")
    (folder / "notes.yaml").write_text("- tried on 3 March: the Hoarder taxes too often\n")
    return folder


def test_the_snapshots_kept_beside_house_rules_are_not_read_as_rules(run, house):
    decided = run("decide", house / "try_me.yaml", "--rules", house, "--seed", "7", "--json")
    assert decided.exit_code == 0, decided.output
    assert "hoarder.act1.tax-when-poor" in decided.stdout
    linted = run("rules", "lint", "--pack", "arcs", "--rules", house, "--json")
    assert linted.exit_code == 0, linted.output
    report = json.loads(linted.stdout)
    assert [e["pack"] for e in report] == ["arcs", "arcs (variant draft-000)",
                                           "arcs (variant draft-001)",
                                           "arcs (variant literal-ties)"]
    assert all(e["errors"] == [] for e in report)
    entry = report[0]
    assert all("skipped" not in e for e in report[1:])  # noted once, not per variant
    assert sorted(Path(f).name for f in entry["skipped"]) == ["notes.yaml", "try_me.yaml"]
    text = run("rules", "lint", "--pack", "arcs", "--rules", house).stdout
    assert "try_me.yaml: not a rule file" in text


def test_a_rule_file_missing_its_page_is_still_read_as_one_and_refused(run, house):
    (house / "typo.yaml").write_text("pack: arcs\nprocedur: bot_turn\nrules: []\n")
    result = run("decide", house / "try_me.yaml", "--rules", house)
    assert result.exit_code == 2
    assert "typo.yaml:1 ($): 'procedure' is a required property" in result.stderr
    linted = run("rules", "lint", "--pack", "arcs", "--rules", house)
    assert linted.exit_code == 2 and "typo.yaml" in linted.stdout


def test_a_pack_folder_holds_rule_files_only(run, tmp_path):
    pack = tmp_path / "toy"
    shutil.copytree(ROOT / "tests" / "engine" / "packs" / "toy", pack)
    (pack / "stray.yaml").write_text("hand: 3\n")
    result = run("rules", "lint", "--pack", pack)
    assert result.exit_code == 2
    assert "stray.yaml:1 ($): 'procedure' is a required property" in result.stdout


def _fate(folder: Path, action: str, declares: str = "") -> None:
    """A one-rule house Fate for arcs taking `action` (and declaring `declares` as its own)."""
    (folder / "fate.yaml").write_text(f"""\
pack: arcs
procedure: fate.miser.act1
salience: 10
{declares}rules:
  - id: miser.act1.hoard
    when: resources < 2
    then: {{select: {{from: play, as: selected}}, action: {action}}}
""")


def test_lint_refuses_an_action_the_pack_does_not_declare_with_did_you_mean(run, tmp_path):
    _fate(tmp_path, "taxx")
    linted = run("rules", "lint", "--pack", "arcs", "--rules", tmp_path)
    assert linted.exit_code == 2
    assert ("fate.yaml:5 (rule miser.act1.hoard): then.action: 'taxx' is not an action the "
            "pack declares (did you mean 'tax'?)") in linted.stdout
    decided = run("decide", HOARDER_SNAPSHOT, "--rules", tmp_path)
    assert decided.exit_code == 2 and "'taxx' is not an action" in decided.stderr


def test_a_house_rule_may_declare_an_action_of_its_own(run, tmp_path):
    _fate(tmp_path, "hoard")
    refused = run("rules", "lint", "--pack", "arcs", "--rules", tmp_path).stdout
    assert "'hoard' is not an action the pack declares (list it under actions:" in refused
    _fate(tmp_path, "hoard", declares="actions: [hoard]\n")
    linted = run("rules", "lint", "--pack", "arcs", "--rules", tmp_path)
    assert linted.exit_code == 0, linted.output


def test_every_shipped_pack_declares_exactly_the_actions_its_rules_take():
    from whybot.facts.packs import pack_for, pack_names

    for name in pack_names():
        pack = pack_for(name)
        taken = {str(r.then.action.name) for r in pack.rules() if r.then.action}
        assert pack.actions == taken, name


def test_a_pack_that_declares_no_actions_is_linted_with_a_warning(run):
    toy = ROOT / "tests" / "engine" / "packs" / "toy"
    linted = run("rules", "lint", "--pack", toy)
    assert linted.exit_code == 0, linted.output
    assert "the pack declares no actions, so no `action:` is checked" in linted.stdout
