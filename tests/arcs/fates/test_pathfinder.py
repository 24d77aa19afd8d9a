"""Pathfinder (SUPERCAT L607–650): the Clue Guidelines by the number of Clue tokens, the
resources eligible for Uncovering Clues, the Portal lines, and when the minigame is played."""

from __future__ import annotations

from tests.arcs.fates.helpers import chosen, decide_data, example, planets, rules
from whybot.facts.snapshot import parse_snapshot

TURN = """
fate: pathfinder
act: 2
hand_counter: 3
initiative: true
cards: [{suit: construction, number: 1, pips: 2}]
"""


def guideline_planets(arcs, tokens: dict[str, str], **board) -> list[str]:
    """The planets meeting the Clue Guidelines for these tokens (the derived `guideline`)."""
    extra = "".join(f"{k}: {v}\n" for k, v in board.items())
    situation = parse_snapshot("pack: arcs\n" + TURN + extra + planets(tokens, flagship="Moon 6"),
                               "inline.yaml", arcs.pack)
    run = arcs.derive(arcs.inputs(situation), situation.entities, situation.answers)
    return sorted(p["name"] for p in run.entities["planet"] if p.get("guideline"))


def test_no_clue_token_selects_any_planet(arcs):
    """How many Clue tokens are on the map? None: select any planet (L639)."""
    assert len(guideline_planets(arcs, {})) == 18


def test_one_clue_token_selects_other_symbols_in_other_clusters(arcs):
    """One: select planets with different symbols and in a different clusters from Clue token
    (L640): not hex, not cluster 1 — arrow and moon planets of clusters 2 to 6."""
    found = guideline_planets(arcs, {"Hex 1": "x"})
    assert len(found) == 10
    assert all(not p.startswith("Hex") and not p.endswith(" 1") for p in found)


def test_two_clues_symbol_deduced_selects_clusters_without_a_clue(arcs):
    """Two or more: Has the Portal's symbol been deduced? select planet in a cluster with no Clue
    token (L644–645). Checks on Hex 1 and Hex 3: the Portal shares one of (cluster, symbol)
    with each — only a hex planet outside clusters 1 and 3 does: the symbol is hex."""
    found = guideline_planets(arcs, {"Hex 1": "check", "Hex 3": "check"})
    assert found == sorted(f"{s} {c}" for s in ("Arrow", "Hex", "Moon") for c in (2, 4, 5, 6))


def test_two_clues_symbol_and_cluster_deduced_select_the_identified_planet(arcs):
    """Has the Portal's symbol and cluster been deduced? select identified planet (L642–643)."""
    found = guideline_planets(arcs, {"Hex 1": "check", "Arrow 4": "check", "Moon 1": "x"})
    assert found == ["Hex 4"]


def test_two_clues_otherwise_select_the_possible_locations(arcs):
    """Otherwise: select planet which is a possible Portal location (L646–647)."""
    found = guideline_planets(arcs, {"Hex 1": "check", "Arrow 2": "x"})
    assert found == ["Hex 3", "Hex 4", "Hex 5", "Hex 6", "Moon 1"]


def test_the_deductions_may_be_answered(arcs):
    """The table may answer a judgment instead (here: the symbol is deduced)."""
    found = guideline_planets(arcs, {"Hex 1": "check", "Arrow 2": "x"},
                              answers="{pathfinder.symbol_deduced: yes}")
    assert "Arrow 3" in found and "Hex 1" not in found


def test_portal_line_changes_the_card(arcs):
    """Has the Portal been found? Yes: Build, Repair, or Move to control the Portal (L620):
    without the Fate, General Priorities Secures to contend declared Tyrant (Aggression)."""
    plain = decide_data(arcs, example("pathfinder", "act2_portal_found_build", fate="none"))
    pathfinder = decide_data(arcs, example("pathfinder", "act2_portal_found_build"))
    assert chosen(plain)["suit"] == "aggression"
    assert chosen(pathfinder)["suit"] == "construction"
    assert rules(pathfinder)[0] == "pathfinder.act2.build-portal"


def test_restrictions_keep_the_resource_uncovering_clues_would_spend(arcs):
    """Uncovering Clues spends a resource; with Empath declared the Psionic is kept (Prelude
    Restrictions L1043, readings R60): no minigame, the card plays on."""
    data = example("pathfinder", "act2_uncover_clues")
    data["ambitions"] = data["ambitions"] + [{"name": "empath", "declared": True, "bot": 0,
                                              "best_rival": 1}]
    trace = decide_data(arcs, data)
    assert trace.decision.result == "decided"
    assert "uncover_clues" not in [a.action for a in trace.decision.actions]
    assert trace.judgments["pathfinder.uncover_clues"].value is False


def test_uncovering_clues_spends_the_resource_once(arcs):
    """The Psionic spent on Uncovering Clues is not spent again by the Prelude's Psionic line
    (L1056) — the card waits for the minigame."""
    trace = decide_data(arcs, example("pathfinder", "act2_uncover_clues"))
    assert trace.decision.result == "minigame"
    assert [a.action for a in trace.decision.actions] == ["uncover_clues"]


def test_no_pathfinder_page_in_act_one(arcs):
    """The Pathfinder's procedures are arranged by Act: it has none for Act I (§ Fates L179)."""
    data = example("pathfinder", "act2_portal_found_build", act=1)
    trace = decide_data(arcs, data)
    assert chosen(trace)["suit"] == "aggression"
    assert not any(r.startswith("pathfinder.") for r in rules(trace))
