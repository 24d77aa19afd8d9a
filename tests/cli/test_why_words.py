"""Issue 20, item 5: `whybot why` opens with the answer, then reasons in the player's words (the
seed's question and the table fact that settled it), then the full trace, whose citations read
as the seed's title and section; the start page's why-nots come last, folded. The card header
shows the actions the turn really has, and names the rule that really chose the card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from rich.console import Console

from tests.conftest import KNOWLEDGE, ROOT, engine_for, example_overlays
from whybot.cli.shown import shown, shown_in_full
from whybot.cli.trace_view import render_trace
from whybot.engine.walk.facts_read import Reading
from whybot.facts.snapshot import load_snapshot
from whybot.facts.wording import SEED_FILE, seed_title

FOLDER = ROOT / "facts" / "examples"
EXAMPLES = sorted(p for p in FOLDER.rglob("*.yaml") if p.name != "map.yaml")
ARCS = FOLDER / "arcs"
SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")


def _decided(path: Path, seed: int | None = None):
    engine = engine_for(KNOWLEDGE, path.relative_to(FOLDER).parts[0], example_overlays(path))
    situation = load_snapshot(path, engine.pack)
    expect = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
    trace = engine.decide(situation, seed=expect.get("seed", 1) if seed is None else seed,
                          explain=True, reading=Reading())
    return engine, shown_in_full(engine, situation, trace)


def _printed(data) -> str:
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_trace(data))
    return console.export_text()


def _code_in(text: str, rule_ids: set[str]) -> list[str]:
    found = [word for word in ("==", "!=") if word in text]
    found += SNAKE.findall(text) + SEED_FILE.findall(text)
    return found + [rule for rule in rule_ids if re.search(rf"(?<![\w.-]){re.escape(rule)}"
                                                           rf"(?![\w-])", text)]


@pytest.mark.parametrize("path", EXAMPLES,
                         ids=[str(p.relative_to(FOLDER).with_suffix("")) for p in EXAMPLES])
def test_every_reason_and_citation_of_every_example_is_in_the_players_words(path: Path):
    engine, data = _decided(path)
    rule_ids = {rule.id for rule in engine.pack.rules()}
    for line in data["reasons"]:
        assert _code_in(line, rule_ids) == [], line
    cites = [line.split("cites:", 1)[1] for line in _printed(data).splitlines()
             if "cites:" in line]
    assert cites, "the trace cites the seed"
    for cite in cites:
        assert SEED_FILE.search(cite) is None, cite


def test_why_opens_with_the_answer_then_the_reasons_then_the_trace_and_the_start_page_last():
    engine, data = _decided(ARCS / "demo.yaml", seed=5)  # rolls 5: 5 - 1 = 4, no seize
    lines = _printed(data).splitlines()
    assert lines[0].startswith("Decision ")
    heading = lines.index("why:")
    assert any(line.startswith("result: decided") for line in lines[:heading])
    trace_at = next(i for i, line in enumerate(lines) if line.startswith("Why: "))
    assert heading < trace_at
    folded = next(i for i, line in enumerate(lines)
                  if line.startswith("why not the other decision points: setup, chapter, summit"))
    assert folded >= len(lines) - 3  # last, its rules' reasons folded under its one line
    assert "start.setup" not in "\n".join(lines)
    pack = engine.pack
    says = {rule: " ".join(pack.rule(rule).says.split()).rstrip(":.")
            for rule in ("bot_turn.cannot-surpass", "bot_turn.no_surpass.seize",
                         "admin.tax-contend-declared")}
    looks_for = "; or ".join(pack.rule(rule).says.split("? ")[1].strip("()")
                             for rule in ("faithful.play.surpass", "cards.play.surpass"))
    assert data["reasons"][1:] == [  # after the draw: the seed's questions, settled
        f"{says['bot_turn.cannot-surpass']} — lead suit aggression, lead number 4 "
        f"({looks_for})",  # what the derivations asking it read: no Aggression card above 4
        "Roll 1d6, and subtract 1 for each undeclared ambition that bot is winning — "
        "rolled 5 (1d6); seize result 4",
        f"{says['bot_turn.no_surpass.seize']} — no: seize result 4, seize counter 2",
        "Can bot Secure or Tax to contend declared ambition? → Administration/Aggression — "
        "administration · 3 · pivot · 1 action",
        "Bot will not spend resources or Guild cards matching a declared ambition, with one "
        "exception — tycoon",
        f"{says['admin.tax-contend-declared']} — Blue's city in Hexy 2"]


def test_the_trace_cites_the_seed_by_its_title_and_section():
    engine, data = _decided(ARCS / "demo.yaml")
    text = _printed(data)
    title = seed_title(engine.pack)
    assert title == "SUPERCAT v0.9"
    assert f"cites: {title} § Playing a bot turn (line 96)" in text  # the start page's rule
    assert "003_277f340f362a2395" not in text


def test_the_card_header_shows_the_extra_action_efficient_logistics_gives():
    _, data = _decided(ARCS / "logistics_four_actions.yaml")
    selected = data["decision"]["choices"]["selected"]
    assert selected["entity"]["actions"] == 3  # printed on the card
    assert selected["really"] == {"actions": 4}
    assert "card: mobilization · 1 · lead · 4 actions (printed 3, +1)" in _printed(data)


def test_a_card_played_without_efficient_logistics_shows_its_printed_actions():
    _, data = _decided(ARCS / "difficulty" / "normal_ahead_no_logistics.yaml")
    assert "really" not in data["decision"]["choices"]["selected"]
    assert "printed" not in _printed(data).split("why:")[0]


def test_the_card_is_named_by_the_rule_that_chose_it_not_the_last_fate_line_that_acted():
    path = ARCS / "fates" / "admiral" / "admiral_act1_starports.yaml"
    engine = engine_for(KNOWLEDGE, "arcs", example_overlays(path))
    trace = engine.decide(load_snapshot(path, engine.pack), seed=1)
    chose = next(step for step in trace.steps if "select" in step.outcome)
    assert chose.rule == "admiral.act1.build-guard-starport"
    acted = [a["rule"] for a in trace.decision["actions"]]
    assert acted[:2] == ["admiral.act1.build-guard-starport", "admiral.act1.new-starport"]
    assert trace.decision["choices"]["selected"]["by"] == chose.rule
    assert shown(engine, trace)["decision"]["choices"]["selected"]["page"] == chose.page
