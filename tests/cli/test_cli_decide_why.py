"""`whybot decide` and `whybot why` on the shipped demo, and bad snapshots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whybot.facts.packs import KNOWLEDGE, engine_for

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"
HOUSE = KNOWLEDGE / "examples" / "house"


def test_decide_names_the_card_the_actions_and_the_instructions(run):
    result = run("decide", DEMO, "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "card:" in result.stdout
    assert "chosen by" in result.stdout
    assert "result: decided" in result.stdout
    assert "do:" in result.stdout


def test_decide_shows_how_a_snapshot_writes_an_instruction_the_table_reads_in_words(run):
    battle = ROOT / "facts" / "examples" / "arcs" / "battle_stops_the_card.yaml"
    result = run("decide", battle)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())  # the terminal wraps long lines
    assert "this card goes on with its 1 action(s) left." in text
    assert "└── in a snapshot: resume: aggression, resume_actions: 1, resume_mode: lead" in text


def test_decide_json_carries_the_decision_and_the_fired_rules(run):
    result = run("decide", DEMO, "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pack"] == "arcs"
    assert data["decision"]["result"] == "decided"
    assert data["fired"][0] == "start.turn" and data["fired"][1].startswith("bot_turn.")
    assert "selected" in data["decision"]["choices"]
    for action in data["decision"]["actions"]:
        assert {"action", "rule", "page", "cite"} <= set(action)


def test_the_same_seed_gives_the_same_decision(run):
    first = run("decide", DEMO, "--seed", "3", "--json").stdout
    assert run("decide", DEMO, "--seed", "3", "--json").stdout == first


def test_why_shows_each_page_the_fired_rule_why_not_judgments_and_dice(run, demo_trace):
    result = run("why", DEMO, "--seed", "7")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "page bot_turn" in text
    for rule in [s["rule"] for s in demo_trace["path"] if s.get("rule")]:
        assert f"fired {rule}" in text
    assert "why not the rules above it:" in text
    assert "judgments used:" in text
    for name, judgment in demo_trace["judgments"].items():
        assert f"{name} = " in text
        assert judgment["origin"].split()[0] in text
    assert "(seed 7)" in text
    assert "Traceback" not in result.output


def test_why_json_is_the_trace_as_data(demo_trace):
    assert set(demo_trace) >= {"snapshot", "pack", "decision", "path", "judgments", "dice",
                               "disagreements"}
    assert demo_trace["disagreements"] == []
    step = demo_trace["path"][0]
    assert {"page", "title", "depth", "rule"} <= set(step)


def test_why_rule_says_where_a_fired_rule_fired_and_what_it_matched(run, demo_trace):
    step = next(s for s in demo_trace["path"] if s.get("rule") and s.get("matched"))
    result = run("why", DEMO, "--seed", "7", "--rule", step["rule"])
    assert result.exit_code == 0, result.output
    assert "FIRED at step" in result.stdout
    assert "matched:" in result.stdout


def test_why_rule_explains_a_skipped_rule_with_its_failing_condition(run, demo_trace):
    skipped = next(k for s in demo_trace["path"] for k in s.get("skipped", []))
    result = run("why", DEMO, "--seed", "7", "--rule", skipped["rule"], "--json")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "skipped"
    assert verdict["why"] == skipped["why"]


def test_why_rule_on_a_page_never_reached_says_so_and_shows_the_path(run, demo_trace):
    pack = engine_for("arcs").pack
    read = {s["page"] for s in demo_trace["path"]}
    rule = next(r for p in pack.decision_pages() if p.name not in read for r in p.ordered())
    result = run("why", DEMO, "--seed", "7", "--rule", rule.id)
    assert result.exit_code == 0, result.output
    assert "was never reached" in result.stdout
    assert "pages read: start → bot_turn" in result.stdout


def test_why_rule_with_an_unknown_id_exits_2_and_suggests_one(run, demo_trace):
    fired = next(s["rule"] for s in demo_trace["path"] if s.get("rule"))
    result = run("why", DEMO, "--rule", fired[:-1])
    assert result.exit_code == 2
    assert f"did you mean {fired!r}?" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("text", "where", "says"), [
    ("pack: arcs\nhand_counter: 2\nbogus: 1\n", ":3", "unknown fact 'bogus'"),
    ("pack: arcs\nhand_counter: [2\n", ":3", "not valid YAML/JSON"),
    ("pack: arcs\nhand_counter: 'two'\n", ":2", "'two' is not a whole number"),
    ("hand_counter: 2\n", ":1", "does not say its pack"),
])
def test_a_bad_snapshot_exits_2_with_one_line_naming_file_and_line(run, tmp_path, text, where,
                                                                   says):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    result = run("decide", bad)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"bad.yaml{where}" in lines[0]
    assert says in lines[0]
    assert "Traceback" not in result.output


def test_a_house_rule_folder_changes_the_decision(run):
    snapshot = ROOT / "facts" / "examples" / "arcs" / "house_hoarder.yaml"
    plain = run("decide", snapshot, "--seed", "1", "--json")
    assert plain.exit_code == 2 and "'hoarder' is not one of" in plain.stderr
    house = json.loads(run("decide", snapshot, "--seed", "1", "--json", "--rules", HOUSE).stdout)
    assert any(r.startswith("hoarder.") for r in house["fired"])


def test_a_house_folder_can_replace_and_disable_rules_and_why_says_so(run, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "no_seize.yaml").write_text("""\
pack: arcs
procedure: bot_turn.no_surpass
salience: 10
rules:
  - id: house.no-seize-roll
    replaces: bot_turn.no_surpass.seize-roll
    priority: 3
    when: false
    then: {say: "House rule: no seize roll."}
disable:
  - {id: bot_turn.no_surpass.seize-critical-event, reason: "no critical Events at our table"}
""")
    decided = json.loads(run("decide", DEMO, "--rules", house, "--seed", "7", "--json").stdout)
    assert "bot_turn.no_surpass.seize-roll" not in decided["fired"]
    result = run("why", DEMO, "--rules", house, "--rule",
                 "bot_turn.no_surpass.seize-critical-event")
    assert result.exit_code == 0, result.output
    assert "disabled by a house rule" in result.stdout
    assert "no critical Events at our table" in " ".join(result.stdout.split())


ABDUCT = ROOT / "facts" / "examples" / "arcs" / "fates" / "admiral" / \
    "admiral_act2_abduct_not_outlaw_combat.yaml"


def test_why_says_why_a_judgment_no_rule_established_was_not(run):
    """The Admiral's Act II line asks "Can bot favorable combat for trophies against an
    Outlaw?": the only Battle listed is Court Enforcers' Abduct, a card ability (R63), and the
    other option is a Build. The trace names the rule that could have said yes and, for each
    option, the part of it that option fails — without `why --rule`."""
    data = json.loads(run("why", ABDUCT, "--seed", "1", "--json").stdout)
    judgment = data["judgments"]["can.combat.outlaw_trophies"]
    assert judgment["value"] is False and judgment["origin"].startswith("not established")
    (rule,) = judgment["not_by"]
    assert rule["rule"] == "admiral.can.combat-outlaw"
    assert rule["entities"] == [
        "option Abduct at Hexy 6 (the Outlaw Green's fleet): not option.ability is false "
        "(option.ability = true)",
        "option ships at the Moon 2 starport: option.action == 'battle' is false "
        "(option.action = 'build')"]
    assert all("not_by" not in j for j in data["judgments"].values()
               if j["origin"] in ("derived", "given"))
    text = run("why", ABDUCT, "--seed", "1").stdout
    assert "not by admiral.can.combat-outlaw" in text
    assert "the entities it looked at:" in text


def test_an_entity_a_rule_made_again_under_another_id_is_not_shown_as_changed(demo_trace):
    """The demo's plays are made by rules: four at first (ids 6–9), then, once Administration
    3 is selected, only that one — under id 7, which was Construction 5's. Construction 5's
    ambition (keeper) did not change "after the actions": it is no longer a play at all."""
    plays = {j["entity"]: j for j in demo_trace["entity_judgments"]
             if j["entity"].startswith("play ") and j["field"] == "ambition"}
    assert set(plays) == {"play administration 3 pivot", "play construction 5 pivot",
                          "play aggression 3 copy", "play aggression 5 copy"}
    assert plays["play construction 5 pivot"]["value"] == "keeper"
    assert all("now" not in j for j in plays.values())


def test_the_decision_names_the_target_as_the_table_does_and_cites_the_seed_by_title(run):
    """Issue 20, the player's words: a target as the player named it (every field stays in
    `why` and the JSON), a citation as the seed's title and section, no hashed file name."""
    result = run("decide", ROOT / "facts" / "examples" / "arcs" / "demo.yaml", "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "target: Blue's city in Hexy 2\n" in result.stdout
    assert "cites: SUPERCAT v0.9 § Administration - Tax | Repair | Influence" in result.stdout
    assert "003_277f340f362a2395" not in result.stdout
    data = json.loads(run("decide", ROOT / "facts" / "examples" / "arcs" / "demo.yaml",
                          "--seed", "7", "--json").stdout)
    action = data["decision"]["actions"][0]
    assert action["target"]["resource"] == "material"
    assert action["named"] == "Blue's city in Hexy 2"


def test_naming_the_targets_for_the_view_leaves_the_trace_as_decided():
    from whybot.cli.shown import shown
    from whybot.facts.packs import engine_for
    from whybot.facts.snapshot import load_snapshot

    engine = engine_for("arcs")
    trace = engine.decide(load_snapshot(DEMO, engine.pack), seed=7)
    data = shown(engine, trace).data
    assert data["decision"]["actions"][0]["named"] == "Blue's city in Hexy 2"
    assert "named" not in trace.as_dict()["decision"]["actions"][0]
