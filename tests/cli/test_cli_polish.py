"""The command line as a new user meets it: -h, --version, - for standard input, --json."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from whybot.cli.app import app

DEMO = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"


def test_dash_h_is_help_on_every_level(run):
    for args in ([], ["rules"], ["batch"], ["decide"]):
        short, long = run(*args, "-h"), run(*args, "--help")
        assert short.exit_code == long.exit_code == 0
        assert short.stdout == long.stdout and "Usage: " in short.stdout


def test_version_names_the_installed_version(run):
    from importlib.metadata import version

    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"whybot {version('whybot')}"


def test_a_dash_reads_the_snapshot_from_standard_input():
    runner = CliRunner()
    text = DEMO.read_text(encoding="utf-8")
    piped = runner.invoke(app, ["decide", "-", "--seed", "7", "--json"], input=text)
    named = runner.invoke(app, ["decide", str(DEMO), "--seed", "7", "--json"])
    assert piped.exit_code == named.exit_code == 0, piped.output
    from_pipe, from_file = json.loads(piped.stdout), json.loads(named.stdout)
    assert from_pipe["snapshot"] == from_file["snapshot"]
    assert from_pipe["decision"] == from_file["decision"]


def test_bad_standard_input_names_stdin_and_its_line():
    result = CliRunner().invoke(app, ["decide", "-"], input="pack: arcs\nhand_counter: [\n")
    assert result.exit_code == 2
    assert "<stdin>:" in result.stderr and "Traceback" not in result.output


def test_a_folder_or_a_missing_file_is_refused_with_what_to_give(run, tmp_path):
    for target, problem in ((tmp_path, "is a folder"), (tmp_path / "no.yaml", "does not exist")):
        result = run("decide", target)
        assert result.exit_code == 2
        assert problem in result.output and "- to read one from standard input" in result.output


def test_packs_lists_every_pack_as_json(run):
    result = run("packs", "--json")
    assert result.exit_code == 0
    names = [p["pack"] for p in json.loads(result.stdout)]
    assert names == sorted(names) and {"arcs", "sparta_athens", "yellow_scarves"} <= set(names)
    assert all(p["title"] for p in json.loads(result.stdout))


def test_brief_why_is_the_decision_then_the_reasons_in_the_players_words(run):
    brief = run("why", DEMO, "--seed", "7", "--brief")
    full = run("why", DEMO, "--seed", "7", "--json")
    assert brief.exit_code == full.exit_code == 0
    data = json.loads(full.stdout)
    lines = brief.stdout.splitlines()
    assert lines[0].startswith("Decision ")
    start = lines.index("why:")
    assert any(line.startswith("result: decided") for line in lines[:start])
    shown = " ".join(line.strip(" │├└─") for line in lines[start + 1:])
    assert data["reasons"] and all(reason in shown for reason in data["reasons"])
    named = {data["decision"]["choices"]["selected"]["by"],
             *(a["rule"] for a in data["decision"]["actions"])}  # the header and actions
    assert not [step["rule"] for step in data["path"]
                if step.get("rule") and step["rule"] not in named
                and step["rule"] in brief.stdout]
