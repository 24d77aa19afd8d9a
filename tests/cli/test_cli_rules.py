"""`whybot rules list|show|lint|schema`, `whybot facts schema`, and the entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"


def test_lint_is_clean_on_the_shipped_pack(run):
    result = run("rules", "lint")
    assert result.exit_code == 0, result.output
    assert "no errors" in result.stdout


def test_lint_of_a_duplicate_rule_id_exits_2_naming_both_files(run, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "mine.yaml").write_text(
        "pack: arcs\nprocedure: bot_turn\nrules:\n"
        "  - id: bot_turn.draw\n    priority: 2\n    when: true\n    then: {stop: pass}\n")
    result = run("rules", "lint", "--pack", "arcs", "--rules", house)
    assert result.exit_code == 2
    assert "mine.yaml:4" in result.stdout
    assert "bot_turn.yaml" in result.stdout
    assert "already defined" in result.stdout


def test_lint_of_a_broken_file_names_its_line(run, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "broken.yaml").write_text("pack: arcs\nprocedure: x\nrules:\n  - id: [oops\n")
    result = run("rules", "lint", "--pack", "arcs", "--rules", house)
    assert result.exit_code == 2
    assert "broken.yaml:" in result.stdout


def test_lint_warns_of_rules_that_can_never_fire(run, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "odd.yaml").write_text("""\
pack: arcs
procedure: house.odd
rules:
  - id: odd.first
    priority: 1
    when: hand_counter > 3
    then: {say: "first", continue: true}
  - id: odd.tie
    priority: 1
    when: initiative
    then: {stop: pass}
  - id: odd.copy
    priority: 2
    when: initiative
    then: {stop: pass}
  - id: odd.narrower
    priority: 3
    when: initiative and hand_counter > 1
    then: {stop: pass}
  - id: odd.always
    priority: 4
    when: true
    then: {stop: pass}
  - id: odd.after-always
    priority: 5
    when: seize_counter > 0
    then: {stop: pass}
""")
    result = run("rules", "lint", "--pack", "arcs", "--rules", house)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'odd.copy' can never fire: it has the same condition as 'odd.tie'" in out
    assert "'odd.narrower' can never fire" in out
    assert "'odd.after-always' can never fire: it comes after the unconditional rule" in out
    assert "odd.always' can never fire" not in out


def test_rules_list_shows_every_page_and_rule(run):
    result = run("rules", "list", "--pack", "arcs", "--json")
    assert result.exit_code == 0
    listed = json.loads(result.stdout)
    ids = [r["id"] for r in listed]
    assert "bot_turn.draw" in ids and len(ids) == len(set(ids))
    text = run("rules", "list", "--pack", "arcs").stdout
    assert "bot_turn — Bot turn (START HERE)" in text


def test_rules_show_gives_file_line_condition_outcome_and_citation(run):
    result = run("rules", "show", "bot_turn.draw", "--pack", "arcs")
    assert result.exit_code == 0
    assert "bot_turn.yaml:" in result.stdout
    assert "hand_counter > bonus_cards" in result.stdout
    assert "cite" in result.stdout


def test_rules_show_of_an_unknown_id_suggests_the_closest(run):
    result = run("rules", "show", "bot_turn.drew", "--pack", "arcs")
    assert result.exit_code == 2
    assert "did you mean 'bot_turn.draw'?" in result.stderr


def test_rules_schema_is_a_json_schema_that_accepts_the_shipped_files(run):
    schema = json.loads(run("rules", "schema").stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    page = ROOT / "knowledge" / "arcs" / "pages" / "bot_turn.yaml"
    jsonschema.validate(yaml.safe_load(page.read_text(encoding="utf-8")), schema)


def test_facts_schema_is_a_json_schema_that_accepts_the_demo(run):
    result = run("facts", "schema", "--pack", "arcs")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(yaml.safe_load(DEMO.read_text(encoding="utf-8")), schema)


def test_packs_lists_arcs(run):
    assert "arcs" in run("packs").stdout


def test_python_dash_m_whybot_cli_prints_one_line_errors_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pack: arcs\nhand_counter: -1\n")
    done = subprocess.run([sys.executable, "-m", "whybot.cli", "decide", str(bad)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "bad.yaml:2" in done.stderr and "Traceback" not in done.stderr


def test_graph_draws_pages_and_resolves_templated_links(run):
    result = run("rules", "graph", "--pack", "arcs")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "flowchart TD"
    assert "  p_bot_turn_play -.->|play.suit| p_administration" in lines
    assert "  p_general_priorities -.->|gp.fate| p_fate_magnate_act1" in lines
    assert not any("p_bot_turn_play -.->|play.suit| p_prelude" in line for line in lines)


def test_lint_refuses_a_link_to_a_page_nobody_wrote(run, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "typo.yaml").write_text(
        "pack: arcs\nprocedure: bot_turn\nsalience: 5\nrules:\n"
        "  - id: house.typo\n    priority: 1\n    when: false\n    then: {goto: agression}\n")
    result = run("rules", "lint", "--pack", "arcs", "--rules", house)
    assert result.exit_code == 2
    assert "typo.yaml:5" in result.stdout
    assert "leads to page 'agression', which no rule file defines" in result.stdout
    assert "did you mean 'aggression'?" in result.stdout
