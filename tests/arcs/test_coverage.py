"""`whybot rules coverage --pack arcs`: every section of SUPERCAT is cited by a rule, excused with
a reason, or listed as another issue's — none is missing."""

from __future__ import annotations

from whybot.engine.load.coverage import coverage


def test_no_section_of_the_seed_is_missing(arcs):
    report = coverage(arcs.pack)
    missing = [s["title"] for s in report["sections"] if s["status"] == "missing"]
    assert missing == []
    assert report["unknown_in_pack_yaml"] == []


def test_the_pages_and_principles_this_pack_encodes_are_cited(arcs):
    cited = {s["title"] for s in coverage(arcs.pack)["sections"] if s["status"] == "cited"}
    for title in ("Bot turn (START HERE)", "General Priorities", "Prelude",
                  "Administration - Tax | Repair | Influence", "Influence Principles",
                  "Influence Principles › Priorities", "Aggression - Move | Battle | Secure",
                  "Combat Principles › Trophies", "Combat Principles › Raid",
                  "Combat Principles › Control", "Construction - Build | Repair",
                  "Expansion Principles › Getting New Claims",
                  "Expansion Principles › Limit on Building New Cities",
                  "Mobilization - Move | Influence", "Movement Principles › Priorities:",
                  "Vox Cards", "Questions", "Clarifications", "Terminology",
                  "SUPERCAT › Difficulty modifiers (Optional)", "SUPERCAT › Fates",
                  "SUPERCAT › How to follow the procedures",
                  "SUPERCAT › Decision making for the bot", "SUPERCAT › Act I Setup",
                  "SUPERCAT › Playing a bot turn › Guild and Lore Cards",
                  "SUPERCAT › Playing a chapter", "SUPERCAT › Govern the Imperial Reach",
                  "SUPERCAT › Summits", "SUPERCAT › Grievances (Optional)",
                  "SUPERCAT › Negotiation Minigame (Optional)"):
        assert title in cited, title


def test_every_rule_cites_a_section_of_the_seed(arcs):
    """A citation points at the seed's text: a `§ section` or a `line N` of it, never the bare
    seed file (a rule whose file names only the seed must say where in it)."""
    citing = {rule for section in coverage(arcs.pack)["sections"] for rule in section["rules"]}
    assert [rule.id for rule in arcs.pack.rules() if rule.id not in citing] == []
