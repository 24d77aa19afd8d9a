"""`whybot odds`: exact odds worked out by hand from the seeds, one example per pack; the bound;
--samples; --json."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "facts" / "examples"
DEMO = EXAMPLES / "arcs" / "demo.yaml"
INVADE = EXAMPLES / "yellow_scarves" / "turn_round1_invade.yaml"


def odds_json(run, *args: str | Path) -> dict:
    result = run("odds", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def by_head(data: dict) -> dict[str, Fraction]:
    """Each outcome as `result: action, …` (or the seize line for Arcs) → its probability."""
    found: dict[str, Fraction] = {}
    for outcome in data["outcomes"]:
        decision = outcome["decision"]
        head = ", ".join([decision["result"], *(a["action"] for a in decision["actions"])])
        found[head] = found.get(head, Fraction(0)) + Fraction(outcome["probability"])
    return found


def test_arcs_the_demo_seizes_the_initiative_one_time_in_three(run):
    """Seed 003 § Bot turn › No surpass: "Roll 1d6, and subtract 1 for each undeclared
    ambition that bot is winning. Seize initiative if result is less than seize counter."
    The demo's counter goes from 1 to 2 (the bot cannot surpass); it wins one undeclared
    ambition (Tyrant, 2 against 1). Seize if d6 − 1 < 2, i.e. on 1 or 2: P = 2/6 = 1/3.
    The card and its Tax do not depend on it, so by actions the decision is certain."""
    data = odds_json(run, DEMO, "--by", "table")
    seize = [o for o in data["outcomes"]
             if any(line.startswith("Seize the initiative") for line in o["decision"]["say"])]
    assert [(o["probability"], o["dice"]) for o in seize] == \
        [("1/3", [[{"roll": "A", "values": [1, 2]}]])]
    assert data["total"] == "1" and len(data["outcomes"]) == 2
    certain = odds_json(run, DEMO)
    assert certain["certain"] and certain["outcomes"][0]["probability"] == "1"


def test_sparta_a_tied_raid_becomes_a_siege_one_time_in_four(run):
    """Seed 004 § Raiding: "If tied roll two dice and siege on the roll of two successes";
    a success is 4, 5 or 6 (p = 1/2). P(siege) = (1/2)² = 1/4, else the forces return home."""
    data = odds_json(run, EXAMPLES / "sparta_athens" / "raid_tied_siege.yaml",
                     "--prerolled", "0")
    assert by_head(data) == {"siege, siege": Fraction(1, 4),
                             "return_home, return_home": Fraction(3, 4)}
    assert data["rolls"][0]["dice"] == "2d6" and "successes" in data["rolls"][0]


def test_sparta_out_of_money_abandons_the_siege_one_time_in_two(run):
    """Seed 004 § Siege: out of money, "abandon a siege which has more than one remaining
    influence on a one-die roll of success": Megara has 3, so P(abandon) = 3/6 = 1/2."""
    data = odds_json(run, EXAMPLES / "sparta_athens" / "siege_out_of_money.yaml",
                     "--prerolled", "0")
    assert by_head(data) == {"siege_abandoned, abandon_siege": Fraction(1, 2),
                             "siege_kept": Fraction(1, 2)}


def test_yellow_scarves_elmgate_invades_one_time_in_two(run):
    """Seed 002 § Invade phase, one D8 for Elmgate, the bot's only province (the snapshot's
    first die, the invasion order, is kept; with one province it changes nothing):
    2, 4, 6, 8 Invade — only Birchwood (3 defenders, 8 ≥ 2·3+1) can be invaded, so every D4
    direction ends there: 4/8 = 1/2. 1 Assassination and 5 Bribe: Liu, the only player, rolls
    the check; a 6 succeeds: 1/8 · 1/6 = 1/48 each, failing 2 · 1/8 · 5/6 = 5/24. 3 rallies
    2 Infantry: 1/8. 7 Rally: three neutral neighbours, the D4 as for invasions (1 N is the
    player's, then E; 2 E; 3 S; 4 W): Fernvale 1/8 · 2/4 = 1/16, Hollow and Dunmere 1/32."""
    data = odds_json(run, INVADE, "--prerolled", "1")
    heads = by_head(data)
    assert heads == {"invasion, invade": Fraction(1, 2), "turn_over": Fraction(5, 24) +
                     Fraction(1, 8), "turn_over, rally": Fraction(1, 8),
                     "turn_over, assassinate": Fraction(1, 48),
                     "turn_over, bribe": Fraction(1, 48)}
    rallies = {o["decision"]["actions"][0]["details"].split(":")[0]: o["probability"]
               for o in data["outcomes"] if o["decision"]["actions"]
               and o["decision"]["actions"][0]["action"] == "rally"}
    assert rallies == {"Bot rallies Fernvale": "1/16", "Bot rallies Hollow": "1/32",
                       "Bot rallies Dunmere": "1/32"}
    invade = next(o for o in data["outcomes"] if o["decision"]["result"] == "invasion")
    assert invade["dice"] == [[{"roll": "A", "values": [2, 4, 6, 8]},
                               {"roll": "B", "values": [1, 2, 3, 4]}]]


def test_the_table_shows_fractions_percentages_and_the_dice_by_letter(run):
    result = run("odds", INVADE, "--prerolled", "1")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "exact:" in text and "A  1d8  Elmgate's D8 action" in text
    assert "1/2  50.00%  invasion: invade" in text and "A: 2, 4, 6, 8" in text
    assert "total 1 (exact)" in text


def test_all_dice_pre_rolled_is_certain(run):
    result = run("odds", EXAMPLES / "sparta_athens" / "raid_tied_siege.yaml")
    assert result.exit_code == 0, result.output
    assert "certain (1/1): no die is left to roll" in result.stdout
    assert "siege: siege" in result.stdout


def test_the_json_shape(run):
    data = odds_json(run, INVADE, "--prerolled", "1", "--by", "result")
    assert set(data) == {"snapshot", "pack", "method", "by", "certain", "runs", "prerolled",
                         "rolls", "outcomes", "total"}
    assert data["method"] == "exact" and data["by"] == "result"
    assert data["prerolled"] == {"used": 1, "given": 3}
    first = data["outcomes"][0]
    assert set(first) == {"decision", "probability", "p", "percent", "dice"}
    assert first["decision"] == {"result": "invasion"} and first["probability"] == "1/2"
    assert first["p"] == 0.5 and first["percent"] == 50.0
    assert sum(Fraction(o["probability"]) for o in data["outcomes"]) == 1


def test_over_the_bound_is_one_line_with_the_count_and_exit_2(run):
    result = run("--limit", "odds_runs=10", "odds", INVADE, "--prerolled", "0")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith("error: the exact odds need at least 55 runs")
    assert "odds_runs = 10" in lines[0] and "--samples N" in lines[0]


def test_a_hopeless_enumeration_is_refused_from_an_estimate(run):
    result = run("odds", EXAMPLES / "yellow_scarves" / "turn_round3_general.yaml",
                 "--prerolled", "0")
    assert result.exit_code == 2
    assert "runs of the procedure (estimated from 16 random paths" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_samples_are_labelled_and_reproducible_with_a_seed(run):
    args = ("odds", INVADE, "--prerolled", "0", "--samples", "30", "--seed", "5")
    first, again = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    assert "ESTIMATE from 30 runs with the dice rolled at random (seed 5), not exact" \
        in first.stdout
    data = odds_json(run, *args[1:])
    assert data["method"] == "samples" and data["samples"] == 30 and data["seed"] == 5
    assert sum(o["hits"] for o in data["outcomes"]) == 30
    assert all("stderr" in o and "dice" not in o for o in data["outcomes"])


def test_an_unknown_grain_is_refused_with_a_suggestion(run):
    result = run("odds", DEMO, "--by", "actoins")
    assert result.exit_code == 2
    assert "did you mean 'actions'?" in result.output


def test_batch_odds_adds_the_distribution_to_each_row(run):
    siege = EXAMPLES / "sparta_athens" / "raid_tied_siege.yaml"
    result = run("--limit", "odds_runs=5", "batch", DEMO, siege, INVADE, "--odds",
                 "--jobs", "2")
    assert result.exit_code == 0, result.output
    demo, raid, invade = (json.loads(line) for line in result.stdout.splitlines())
    assert raid["odds"]["certain"] and raid["odds"]["total"] == "1"
    assert raid["odds"]["outcomes"][0]["decision"]["result"] == "siege"
    assert invade["odds"]["outcomes"][0]["probability"] == "1"
    assert demo["ok"] and demo["odds"]["error"] == (
        "the exact odds need at least 7 runs of the procedure, over the limit odds_runs = 5 "
        "(0 outcomes found, 6 rolls to try next) (estimate them with `whybot odds --samples "
        "N`, or raise the limit with --limit odds_runs=N)")
    assert "odds" not in json.loads(run("batch", DEMO).stdout)


def test_a_seed_without_samples_is_refused(run):
    result = run("odds", DEMO, "--seed", "3")
    assert result.exit_code == 2
    assert "--seed is for --samples" in result.stderr
