"""`whybot rules check`: the planted faults found with proofs and witness files (which `whybot
why` decides as they are written), a clean pack exits 0, bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import OVERLAYS, TOY_PACKS, refused

ROOT = Path(__file__).resolve().parents[2]
PLANTED = TOY_PACKS / "planted"
CLEAN = TOY_PACKS / "planted_clean"


def test_the_planted_faults_are_listed_and_the_exit_code_says_so(run):
    result = run("rules", "check", "--pack", PLANTED)
    assert result.exit_code == 1
    text = " ".join(result.stdout.split())
    for words in ("never applies: turn.hoard", "resources == 1000: impossible, as the fact "
                  "schema allows resources 0..40", "never fires: turn.rest-again",
                  "gap: turn", "gap: build", "conflict: turn.trade / turn.raid",
                  "1 never applies, 2 never fires, 0 never reached, 2 gap, 1 conflict"):
        assert words in text


def test_witness_files_are_snapshots_whybot_decides(run, tmp_path):
    folder = tmp_path / "witnesses"
    run("rules", "check", "--pack", PLANTED, "--witnesses", folder)
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["conflict-turn.trade.yaml", "gap-build.yaml", "gap-turn.yaml"]
    why = run("why", folder / "gap-turn.yaml", "--pack", PLANTED)
    assert why.exit_code == 0
    assert "no rule on this page applies" in why.stdout
    conflict = run("decide", folder / "conflict-turn.trade.yaml", "--pack", PLANTED,
                   "--json")
    assert json.loads(conflict.stdout)["decision"]["actions"][0]["action"] == "trade"


def test_json_shows_each_witness_inline_with_its_page(run):
    report = json.loads(run("rules", "check", "--pack", PLANTED, "--json").stdout)
    gap = next(f for f in report["findings"] if f["kind"] == "gap" and f["subject"] == "turn")
    assert gap["witness"]["page"] == "turn"
    assert gap["witness"]["snapshot"]["pack"] == "planted"
    assert report["counts"]["conflict"] == {"found": 1, "excused": 0}


def test_a_clean_pack_exits_0_and_says_none_found_not_none_exists(run):
    result = run("rules", "check", "--pack", CLEAN)
    assert result.exit_code == 0, result.output
    assert "gap on page 'build': none found in 200 tries" in result.stdout


def test_an_overlay_disabling_the_only_rule_of_a_page_is_shown(run, tmp_path):
    result = run("rules", "check", "--pack", CLEAN, "--rules", OVERLAYS / "disable_only",
                 "--witnesses", tmp_path)
    assert result.exit_code == 1
    text = " ".join(result.stdout.split())
    assert "page 'build' is left with no rule" in text
    assert "decision points it can change: turn" in text
    witness = yaml.safe_load((tmp_path / "overlay-build.yaml").read_text())
    assert any(token["colour"] == "red" for token in witness["tokens"])


def test_an_excused_finding_does_not_fail_the_check(run, tmp_path):
    pack = tmp_path / "planted"
    pack.mkdir()
    for path in PLANTED.rglob("*.yaml"):
        target = pack / path.relative_to(PLANTED)
        target.parent.mkdir(exist_ok=True)
        target.write_text(path.read_text())
    (pack / "pages" / "turn.yaml").write_text(
        (PLANTED / "pages" / "turn.yaml").read_text().split("  - id: turn.hoard")[0]
        + "  - id: turn.rest\n    when: ready\n    then: {action: rest}\n")
    (pack / "pages" / "build.yaml").unlink()
    with (pack / "pack.yaml").open("a") as file:
        file.write("check:\n  excused:\n    gap turn:\n      reason: the bot waits when "
                   "not ready\n      cite: § turn\n")
    result = run("rules", "check", "--pack", pack)
    assert result.exit_code == 0, result.output
    assert "excused: the bot waits when not ready (§ turn)" in result.stdout


@pytest.mark.parametrize(("args", "words"), [
    (("--pack", "arcz"), ("no knowledge pack named 'arcz'", "did you mean 'arcs'?")),
    (("--pack", "arcs", "--variant", "draft-00"), ("no variant 'draft-00'",
                                                   "did you mean 'draft-001'?")),
    (("--pack", "arcs", "--rules", "/nonexistent"), ("--rules", "does not exist")),
])
def test_bad_input_is_one_line_and_exit_2(run, args, words):
    refused(run("rules", "check", *args), *words)


def test_a_rules_folder_that_is_a_file_or_broken_is_one_line(run, tmp_path):
    refused(run("rules", "check", "--pack", CLEAN, "--rules", PLANTED / "pack.yaml"),
            "--rules", "is a file")
    (tmp_path / "x.yaml").write_text("pack: planted_clean\nprocedure: [\n")
    refused(run("rules", "check", "--pack", CLEAN, "--rules", tmp_path), "x.yaml:")
    refused(run("rules", "check", "--pack", CLEAN, "--witnesses", PLANTED / "pack.yaml"),
            "--witnesses", "is a file")


@pytest.mark.parametrize(("pack", "variant"), [
    ("arcs", None), ("arcs", "draft-000"), ("arcs", "draft-001"), ("arcs", "literal-ties"),
    ("sparta_athens", None), ("yellow_scarves", None)])
def test_the_shipped_packs_check_clean_or_excused(run, pack, variant):
    args = ("--variant", variant) if variant else ()
    result = run("rules", "check", "--pack", pack, *args, "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0, [f["subject"] for f in report["findings"]
                                   if not f["excused"]]
    assert report["unknown_excuses"] == []
    assert all(f["excused"]["cite"] for f in report["findings"])


def test_a_house_rule_over_a_derivation_shows_what_it_judges_and_where_that_leads(run, tmp_path):
    folder = ROOT / "knowledge" / "arcs" / "variants" / "literal-ties"
    result = run("rules", "check", "--pack", "arcs", "--rules", folder, "--json",
                 "--witnesses", tmp_path)
    overlay = {f["subject"]: f for f in json.loads(result.stdout)["findings"]
               if f["kind"] == "overlay"}
    assert "replaces the shipped rule 'ambitions.tied-first'" in \
        overlay["literal-ties.tied-first"]["message"]
    judged = next(f for f in overlay.values() if f["witness"])
    assert "decision points it can change: bot_turn" in judged["message"]
    assert (tmp_path / Path(judged["witness"]["file"]).name).is_file()
