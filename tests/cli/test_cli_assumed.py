"""`decide` knows what the procedure reaches (issue 12): an Assumed block at the top names
each fact the walk read that the snapshot left out, with its default and the first rule that
read it; `--strict` refuses the snapshot, listing them."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

DEMO = Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs" / "demo.yaml"
# what the demo gives only so that `make demo` assumes nothing: left out here, to be assumed
GIVEN_ZEROS = ("act", "difficulty", "bonus_cards", "initiative", "initiative_seized_this_round",
               "event_played_this_round", "ambition_markers_available", "material", "fuel",
               "weapon", "relic", "psionic", "weapon_guild_cards", "union_cards",
               "damaged_ships", "golems")


def sparse_demo(folder: Path) -> Path:
    """The demo as a player in a hurry writes it: the counters, cards, ambitions and option."""
    data = {k: v for k, v in yaml.safe_load(DEMO.read_text(encoding="utf-8")).items()
            if k not in GIVEN_ZEROS and k != "expect"}
    path = folder / "demo.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def test_the_assumed_block_names_each_default_the_walk_read(run, tmp_path):
    demo = sparse_demo(tmp_path)
    result = run("decide", demo, "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2].startswith("Assumed (not in the snapshot: give them to be sure; "
                               "--strict refuses):")
    text = " ".join(" ".join(lines).translate({ord(c): " " for c in "│├└─"}).split())
    assert "bonus_cards = 0 — bonus action cards in the bot's play area (read by " \
           "bot_turn.draw on bot_turn)" in text
    assert "golems: none listed" in text
    assert "vox_choices" not in text  # no option Secures a Vox card: its choices unread
    data = json.loads(run("decide", demo, "--seed", "7", "--json").stdout)
    names = [a["name"] for a in data["assumed"]]
    assert names[:3] == ["bonus_cards", "initiative", "initiative_seized_this_round"]
    assert "hand_counter" not in names and "seize_counter" not in names  # given
    assert "fate_gold" not in names  # another pack's fact: never read here
    assert data["assumed"][0] == {"what": "fact", "name": "bonus_cards", "value": 0,
                                  "says": "bonus action cards in the bot's play area",
                                  "rule": "bot_turn.draw", "page": "bot_turn"}


def test_strict_refuses_listing_the_missing_facts(run, tmp_path):
    demo = sparse_demo(tmp_path)
    result = run("decide", demo, "--seed", "7", "--strict")
    assert result.exit_code == 2
    assert "missing: bonus_cards — bonus action cards in the bot's play area (read by " \
           "bot_turn.draw)" in result.stderr
    # 15: without a Golem, the Protector's damaged ships are not read (golems.protector)
    assert "--strict: 15 fact(s) the decision reads are not given (listed above): " \
           "bonus_cards, initiative," in result.stderr
    full = tmp_path / "full.yaml"
    data = json.loads(run("decide", demo, "--seed", "7", "--json").stdout)
    text = demo.read_text(encoding="utf-8")
    extra = "\n".join(f"{a['name']}: {json.dumps(a['value'])}" for a in data["assumed"]
                      if a["what"] == "fact")
    lists = "\n".join(f"{a['name']}: []" for a in data["assumed"] if a["what"] == "list")
    answers = {a["name"]: a["value"] for a in data["assumed"] if a["what"] == "answer"}
    full.write_text(f"{text}\n{extra}\n{lists}\nanswers: {json.dumps(answers)}\n",
                    encoding="utf-8")
    strict = run("decide", full, "--seed", "7", "--strict")
    assert strict.exit_code == 0, strict.output
    assert "Assumed" not in strict.stdout
