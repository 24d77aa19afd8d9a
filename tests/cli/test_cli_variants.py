"""`--variant NAME` on decide, why, odds and batch, a snapshot's `variant:`, and `whybot rules
diff` — on the `chance` test pack and its `lucky` variant (a blue cube counts as found)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHANCE = ROOT / "tests" / "engine" / "packs" / "chance"


def snapshot(tmp_path: Path, text: str, name: str = "bag.yaml") -> Path:
    path = tmp_path / name
    path.write_text("pack: chance\nmode: bag\n" + text, encoding="utf-8")
    return path


def test_the_variant_changes_the_decision_and_the_header_says_so(run, tmp_path):
    blue = snapshot(tmp_path, "dice: [3]\n")  # face 3 of 1 yellow, 2 blue, 3 red: a blue cube
    plain = run("decide", blue, "--pack", CHANCE, "--json")
    lucky = run("decide", blue, "--pack", CHANCE, "--variant", "lucky", "--json")
    assert json.loads(plain.stdout)["decision"]["result"] == "blue"
    assert json.loads(lucky.stdout)["decision"]["result"] == "found"
    text = run("why", blue, "--pack", CHANCE, "--variant", "lucky")
    assert "(pack chance, variant lucky)" in text.stdout


def test_a_snapshot_names_its_variant_and_the_option_wins(run, tmp_path):
    asks = snapshot(tmp_path, "variant: lucky\ndice: [3]\n")
    result = run("decide", asks, "--pack", CHANCE, "--json")
    assert json.loads(result.stdout)["decision"]["result"] == "found"
    assert json.loads(run("why", asks, "--pack", CHANCE, "--json").stdout)["variant"] == "lucky"


def test_an_unknown_variant_is_one_line_naming_the_field(run, tmp_path):
    typo = snapshot(tmp_path, "variant: lucy\n")
    result = run("decide", typo, "--pack", CHANCE)
    assert result.exit_code == 2
    assert "bag.yaml:3 ($.variant): no variant 'lucy' of pack 'chance'" in result.stderr
    assert "did you mean 'lucky'" in result.stderr
    assert "Traceback" not in result.output
    option = run("decide", snapshot(tmp_path, ""), "--pack", CHANCE, "--variant", "lucy")
    assert option.exit_code == 2 and "no variant 'lucy'" in option.stderr


def test_the_odds_follow_the_variant(run, tmp_path):
    result = run("odds", snapshot(tmp_path, ""), "--pack", CHANCE, "--variant", "lucky",
                 "--json")
    data = json.loads(result.stdout)
    assert data["variant"] == "lucky"
    assert {o["decision"]["result"]: o["probability"] for o in data["outcomes"]} == \
        {"found": "1/2", "second_chance": "1/2"}


def test_rules_diff_lists_the_variants_changes(run):
    result = run("rules", "diff", "--pack", CHANCE, "--variant", "lucky", "--json")
    data = json.loads(result.stdout)
    assert (data["a"], data["b"]) == ("base", "lucky")
    assert [(c["change"], c["id"]) for c in data["changes"]] == \
        [("replaced", "bag.blue"), ("added", "bag.red-again"), ("disabled", "bag.red")]
    assert data["changes"][0]["b"]["cite"] == "chance, the lucky variant § bag (line 2)"
    back = run("rules", "diff", "--pack", CHANCE, "--variant", "lucky", "--variant", "base")
    assert "lucky → base: 3 rule(s) differ" in back.stdout
    none = run("rules", "diff", "--pack", CHANCE)
    assert none.exit_code == 2 and "give --variant NAME once" in none.stderr


def test_batch_lays_the_variant_over_every_snapshot(run, tmp_path):
    folder = tmp_path / "bags"
    folder.mkdir()
    for face in (1, 3, 5):
        snapshot(folder, f"dice: [{face}, 2]\n", f"face{face}.yaml")
    result = run("batch", folder, "--pack", CHANCE, "--variant", "lucky")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["result"] for row in rows] == ["found", "found", "second_chance"]
    alone = run("batch", folder, "--variant", "lucky")
    assert alone.exit_code == 2 and "--variant in a batch needs --pack" in alone.stderr


def test_lint_checks_each_shipped_variant(run):
    result = run("rules", "lint", "--pack", CHANCE)
    assert result.exit_code == 0, result.output
    assert "(variant lucky):" in result.stdout


def test_in_a_batch_a_snapshot_naming_another_shipped_variant_is_an_error_row(run):
    """`--variant` wins in `decide`; a batch lays one variant over every snapshot, so a snapshot
    asking for another is refused in its row (naming its `variant:` line), never given both."""
    draft_000 = ROOT / "facts" / "examples" / "arcs" / "variants" / \
        "draft_000_event_aside_when_played.yaml"
    result = run("batch", draft_000, "--pack", "arcs", "--variant", "draft-001")
    row, = [json.loads(line) for line in result.stdout.splitlines()]
    assert not row["ok"]
    assert "draft_000_event_aside_when_played.yaml:3 ($.variant): this run lays variant " \
           "'draft-001' over every snapshot, not 'draft-000'" in row["error"]
    decided = run("decide", draft_000, "--variant", "draft-001")
    assert decided.exit_code == 0 and "(pack arcs, variant draft-001)" in decided.stdout
