"""`whybot batch --diff`: which decisions a house rule changes, the first rule whose outcome
differs, both decisions, and the summary by page and rule (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import refused
from whybot.cli.batch import run as batching
from whybot.cli.batch.diffsummary import ODDS_ONLY, DiffSummary

ROOT = Path(__file__).resolve().parents[2]
ARCS = ROOT / "facts" / "examples" / "arcs"
HOUSE = ROOT / "knowledge" / "examples" / "house"
CORPUS = [ARCS / f"{name}.yaml" for name in (
    "demo", "actions_two", "prelude_union", "chapter_start", "pass", "actions_three",
    "magnate_act1")]

# knowledge/examples/tax_first: a bot holding no resource Taxes for any resource before the
# Administration page's first line, and Tax takes no captives. demo, actions_two and
# chapter_start hold no resource and reach Administration; prelude_union takes captives there.
# The others never read the page (pass, actions_three) or hold resources (magnate_act1).
TAX_FIRST = ROOT / "knowledge" / "examples" / "tax_first"
DISABLED = f"disabled: house: Tax takes no captives ({TAX_FIRST / 'administration.yaml'})"

# The first Administration line again under another id, doing the same: no decision changes,
# though the walks differ.
SAME = """\
pack: arcs
procedure: administration
rules:
  - id: house.tax-contend-declared
    replaces: admin.tax-contend-declared
    when: can.tax.contend_declared
    then:
      action: tax
      goal: contend a declared ambition
      target:
        from: option
        optional: true
        where: "not used and action == 'tax' and contends and for_declared"
"""


def overlay(tmp_path: Path, text: str, name: str = "house") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "admin.yaml").write_text(text, encoding="utf-8")
    return folder


def diff_rows(run, *args) -> list[dict]:
    result = run("batch", *args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_diff_names_exactly_the_decisions_a_house_rule_changes_and_the_first_rule(run):
    rows = diff_rows(run, *CORPUS, "--seed", "7", "--diff", TAX_FIRST)
    by_name = {Path(row["snapshot"]).stem: row for row in rows}
    assert [Path(row["snapshot"]).stem for row in rows] == [p.stem for p in CORPUS]
    changed = {name: (row["page"], row["rule"], row["base"]["rule_outcome"],
                      row["overlay"]["rule_outcome"])
               for name, row in by_name.items() if row["changed"]}
    added = ("administration", "house.tax-when-broke", "not in these rules", "fired")
    assert changed == {
        "demo": added, "actions_two": added, "chapter_start": added,
        "prelude_union": ("administration", "admin.tax-captives", "fired", DISABLED),
    }
    for name in ("pass", "actions_three", "magnate_act1"):
        assert by_name[name]["changed"] is False
        assert by_name[name]["rule"] is None and by_name[name]["step"] is None
    demo = by_name["demo"]
    assert [(a["action"], a["goal"], a["rule"]) for a in demo["base"]["actions"]] == [
        ("tax", "contend a declared ambition", "admin.tax-contend-declared")]
    assert [(a["action"], a["goal"], a["rule"]) for a in demo["overlay"]["actions"]] == [
        ("tax", "house: any resource, while the bot holds none", "house.tax-when-broke")]
    union = by_name["prelude_union"]
    assert [a["goal"] for a in union["base"]["actions"]][-1] == "take captives"
    assert [a["goal"] for a in union["overlay"]["actions"]][-1] == "gain resources"
    assert demo["base"]["card"] == demo["overlay"]["card"]  # the same card, another line


def test_the_summary_counts_the_changes_by_page_and_rule(run, tmp_path):
    out = tmp_path / "diff.jsonl"
    result = run("batch", *CORPUS, "--seed", "7", "--diff", TAX_FIRST,
                 "--out", out, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert {k: summary[k] for k in ("snapshots", "changed", "unchanged", "rerouted",
                                    "errors")} == {
        "snapshots": 7, "changed": 4, "unchanged": 3, "rerouted": 0, "errors": 0}
    assert summary["pages"] == {"administration": 4}
    assert [(r["rule"], r["changed"], r["base"], r["overlay"]) for r in summary["rules"]] == [
        ("house.tax-when-broke", 3, "not in these rules", "fired"),
        ("admin.tax-captives", 1, "fired", DISABLED)]
    table = run("batch", *CORPUS, "--seed", "7", "--diff", TAX_FIRST).stderr
    assert "changed decisions by the first rule whose outcome differs" in table
    assert "house.tax-when-broke │       3 │ not in these rules → fired" in table


def test_a_rule_replaced_by_one_doing_the_same_changes_no_decision(run, tmp_path):
    rows = diff_rows(run, *CORPUS, "--seed", "7", "--diff", overlay(tmp_path, SAME))
    assert not any(row["changed"] for row in rows)
    rerouted = {Path(row["snapshot"]).stem: (row["rule"], row["base"]["rule_outcome"],
                                              row["overlay"]["rule_outcome"])
                for row in rows if row["rule"]}
    assert rerouted == {name: ("house.tax-contend-declared", "not in these rules", "fired")
                        for name in ("demo", "actions_two")}
    demo = next(row for row in rows if row["rule"])
    assert demo["base"]["actions"][0]["rule"] == "admin.tax-contend-declared"
    summary = run("batch", *CORPUS, "--seed", "7", "--diff", tmp_path / "house", "--json")
    assert json.loads(summary.stderr)["rerouted"] == 2


def test_a_snapshot_only_the_overlay_can_decide_is_a_changed_decision(run):
    row, = diff_rows(run, ARCS / "house_hoarder.yaml", "--seed", "7", "--diff", HOUSE)
    assert row["ok"] and row["changed"] and row["rule"] is None
    assert "'hoarder' is not one of" in row["base"]["error"]
    assert [a["rule"] for a in row["overlay"]["actions"]] == ["hoarder.act1.tax-when-poor"]


def test_a_snapshot_neither_side_can_decide_is_an_error_row(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pack: arcs\nhand_counter: many\n")
    row, = diff_rows(run, bad, "--diff", HOUSE)
    assert row["ok"] is False and "hand_counter" in row["error"]


def test_diff_rows_are_the_same_bytes_with_forked_workers(run):
    one, two = (run("batch", *CORPUS, ARCS / "house_hoarder.yaml", "--seed", "7", "--diff",
                    TAX_FIRST, "--rules", HOUSE, *jobs) for jobs in ((), ("--jobs", "2")))
    assert one.exit_code == two.exit_code == 0, two.output
    assert one.stdout == two.stdout and one.stdout.count("\n") == 8


def test_diff_refuses_a_name_that_is_not_a_folder_in_one_line(run):
    refused(run("batch", ARCS / "demo.yaml", "--diff", "no_such_variant"),
            "--diff: 'no_such_variant' is not a folder of house rules")


def test_diff_refuses_a_variant_its_pack_does_not_ship_in_one_line(run):
    refused(run("batch", ARCS / "demo.yaml", "--pack", "arcs", "--diff", "draft-01"),
            "no variant 'draft-01' of pack 'arcs' (did you mean 'draft-001'?)")


# actions_two Taxes a city picked at random from two (1d2: Blue on Hexy 2, Yellow on Arrow 1);
# seed 1 picks Blue. This house rule keeps Blue only: the same decision at seed 1, other odds.
BLUE_ONLY = SAME.replace("contends and for_declared", "contends and for_declared and "
                         "target != 'Yellow city on Arrow 1'")


def test_diff_with_odds_gives_each_sides_odds_and_other_odds_are_a_change(run, tmp_path):
    house = overlay(tmp_path, BLUE_ONLY)
    args = (ARCS / "actions_two.yaml", ARCS / "pass.yaml", "--seed", "1", "--diff", house)
    plain, _ = diff_rows(run, *args)
    assert not plain["changed"] and plain["rule"] == "house.tax-contend-declared"
    assert "odds" not in plain["base"]
    rows = diff_rows(run, *args, "--odds")
    assert [row["changed"] for row in rows] == [True, False]
    two = rows[0]
    assert [a["target"] for a in two["base"]["actions"]] == \
        [a["target"] for a in two["overlay"]["actions"]]  # the same decision at this seed
    odds = {side: [(o["probability"], o["decision"]["actions"][0]["target"]["target"])
                   for o in two[side]["odds"]["outcomes"]] for side in ("base", "overlay")}
    assert odds == {"base": [("1/2", "Blue city on Hexy 2"), ("1/2", "Yellow city on Arrow 1")],
                    "overlay": [("1", "Blue city on Hexy 2")]}
    assert [o["probability"] for side in ("base", "overlay")
            for o in rows[1][side]["odds"]["outcomes"]] == ["1", "1"]
    summary = json.loads(run("batch", *args, "--odds", "--json").stderr)
    assert (summary["changed"], summary["rerouted"], summary["pages"]) == \
        (1, 0, {"administration": 1})


def test_a_change_of_odds_alone_is_counted_under_its_own_heading():
    summary = DiffSummary()
    side = {"result": "decided", "actions": [], "odds": {"outcomes": []}}
    summary.add({"snapshot": "s", "ok": True, "changed": True, "page": None, "rule": None,
                 "base": side, "overlay": side})
    assert summary.as_dict()["pages"] == {ODDS_ONLY: 1}


@pytest.mark.parametrize(("text", "words"), [
    (SAME.replace("    when:", "    whenn:"), ("house/admin.yaml:4", "$.rules[0]", "whenn")),
    (SAME.replace("pack: arcs", "pack: arcss"),
     ("house/admin.yaml:1", "$.pack", "no pack named 'arcss'", "did you mean 'arcs'?")),
    (SAME.replace("pack: arcs", "pack: sparta_athens"),
     ("holds no house-rule file for pack 'arcs'",)),
])
def test_a_broken_overlay_is_one_line_before_any_row(run, tmp_path, text, words):
    house = overlay(tmp_path, text)
    out = tmp_path / "diff.jsonl"
    args = ["--pack", "arcs"] if "sparta" in text else []
    refused(run("batch", *CORPUS[:3], *args, "--diff", house, "--out", out), *words)
    assert list(tmp_path.iterdir()) == [house]  # nothing decided, nothing written


def test_a_disabled_rule_names_its_file_from_the_folder_as_given(run, monkeypatch):
    monkeypatch.chdir(HOUSE)
    row, = diff_rows(run, ARCS / "prelude_union.yaml", "--seed", "7", "--diff", "../tax_first/")
    assert row["overlay"]["rule_outcome"] == \
        "disabled: house: Tax takes no captives (../tax_first/administration.yaml)"


def test_resume_continues_a_diff_with_odds_without_redoing_rows(run, tmp_path):
    full = tmp_path / "full.jsonl"
    args = (*CORPUS, "--seed", "7", "--diff", TAX_FIRST, "--odds")
    assert run("batch", *args, "--out", full).exit_code == 0
    rows = full.read_bytes().splitlines(keepends=True)
    out = tmp_path / "resumed.jsonl"
    out.with_name("resumed.jsonl.partial").write_bytes(b"".join([*rows[:3], rows[3][:40]]))
    card = batching.Request(paths=CORPUS, seed=7, odds=True, diff=str(TAX_FIRST)).run_card()
    out.with_name("resumed.jsonl.partial.run").write_text(json.dumps(card))
    result = run("batch", *args, "--out", out, "--resume", "--json")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == full.read_bytes()
    assert json.loads(result.stdout)["changed"] == 4
