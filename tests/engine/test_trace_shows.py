"""What a trace shows a player: how each die counted, which options the dice picked among,
and the entity judgments the rules on the path read — each with the rule that made it."""

from __future__ import annotations

import pytest

from tests.conftest import TOY_PACKS, engine_for
from tests.engine.helpers import decide
from whybot.engine import RuleFileError, load_pack


@pytest.fixture(scope="module")
def shown():
    return engine_for(TOY_PACKS, "shown")


def test_a_success_roll_counts_with_the_board_value_it_reads_and_says_so(shown):
    trace = decide(shown, "count: 3\ndice: [5, 3, 4]\n", pack="shown")
    roll = trace.dice[0]
    assert roll["faces"] == [5, 3, 4] and roll["total"] == 2
    assert roll["successes"] == "face >= threshold; threshold = 4"
    assert roll["for"] == "count the hits of 3 dice"  # `says` filled from the board


def test_the_board_value_changes_what_counts_as_a_success(shown):
    trace = decide(shown, "count: 3\nthreshold: 5\ndice: [5, 3, 4]\n", pack="shown")
    assert trace.dice[0]["total"] == 1
    assert trace.dice[0]["successes"].endswith("threshold = 5")


def test_a_random_pick_names_the_options_and_the_one_the_dice_picked(shown):
    trace = decide(shown, "tokens: [{name: a, size: 2}, {name: b, size: 2}]\ndice: [2]\n",
                   pack="shown")
    assert trace.dice[0]["for"] == "random pick among 2 equal token options: 1 token a, " \
                                   "2 token b"
    narrowing = trace.steps[-1].outcome["select"]["narrowing"]
    assert narrowing[-1] == "still 2 equal: the dice picked #2, token b"
    assert trace.decision["choices"]["picked"]["entity"]["name"] == "b"


def test_an_order_key_names_the_candidates_field_not_the_engines_alias(shown):
    trace = decide(shown, "tokens: [{name: a, size: 1, big: true}, {name: b, size: 3}]\n",
                   pack="shown")
    assert trace.steps[-1].outcome["select"]["narrowing"] == ["highest size (3): 2 → 1"]


def test_entity_judgments_read_on_the_path_are_shown_with_their_rule(shown):
    trace = decide(shown, "tokens: [{name: a, size: 1}, {name: b, size: 3}, {name: c, size: 2}]"
                          "\n", pack="shown")
    shown_fields = {(j["entity"], j["field"]): j for j in trace.entity_judgments}
    big = shown_fields[("token b", "big")]
    assert big["value"] is True and big["origin"] == "derived"
    assert big["by"][0]["rule"] == "j.big" and big["by"][0]["cite"].endswith("[1]")
    assert ("token a", "small") in shown_fields  # read as picked.small by a `set:`
    assert ("token c", "pair") not in shown_fields  # derived, but no rule on the path reads it


def test_an_entity_judgment_given_in_the_snapshot_is_shown_as_given(shown):
    trace = decide(shown, "tokens: [{name: a, size: 1, big: true}, {name: b, size: 3}]\n",
                   pack="shown")
    given = [j for j in trace.entity_judgments if j["entity"] == "token a" and
             j["field"] == "big"]
    assert given == [{"entity": "token a", "field": "big", "value": True, "origin": "given",
                      "by": []}]


def test_a_roll_that_names_an_unknown_value_is_refused_at_load(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "pack: shown\nprocedure: pick\nrules:\n  - id: pick.typo\n    before: pick.roll\n"
        "    then: {roll: {dice: 1d6, as: hits, says: 'roll {cuont} dice'}, stop: x}\n")
    with pytest.raises(RuleFileError, match=r"unknown name 'cuont'.*did you mean 'count'"):
        load_pack(TOY_PACKS, "shown", [tmp_path])


def test_why_rule_reads_a_derivation_on_the_board_it_was_last_derived_from(shown):
    """After `set: {want: 2}` and `rederive: true`, j.wanted fired for token a: `why --rule`
    says so, as the trace does (not what the snapshot alone would have derived)."""
    from whybot.engine.explain.verdict import rule_verdict
    from whybot.facts.snapshot import parse_snapshot

    text = "pack: shown\ncount: 5\ntokens: [{name: a, size: 2}, {name: b, size: 1}]\n"
    situation = parse_snapshot(text, "inline.yaml", shown.pack)
    trace = shown.decide(situation, seed=1)
    assert trace.decision["choices"]["picked"]["entity"]["name"] == "a"
    shown_fields = [(j["entity"], j["field"]) for j in trace.entity_judgments]
    assert ("token a", "wanted") in shown_fields
    assert {entity for entity, _ in shown_fields} == {"token a"}
    verdict = rule_verdict(shown, situation, trace, "j.wanted")
    assert verdict["status"] == "fired"
    assert verdict["matched"] == [{"kind": "token", "name": "a"}]


def test_a_default_read_by_an_entity_judgment_the_decision_used_is_an_assumption(shown):
    """`small` (read as picked.small) is judged against the board's small_size, which the
    snapshot left at its default: the decision lists it as assumed."""
    trace = decide(shown, "tokens: [{name: a, size: 3}]\n", pack="shown")
    assert "small_size" in [a["name"] for a in trace.assumed]  # even though a is not small
    trace = decide(shown, "small_size: 2\ntokens: [{name: a, size: 3}]\n", pack="shown")
    assert "small_size" not in [a["name"] for a in trace.assumed]


GIANT = """pack: shown
procedure: judgments.giant
kind: derivation
source: shown § judgments
facts:
  judgments:
    giant: "Is any token of size five or more?"
rules:
  - id: j.giant
    when: "exists token (size >= 5)"
    then: {judge: giant}
    says: "A giant token."
    cite: "[5]"
---
pack: shown
procedure: pick
rules:
  - id: pick.giant
    before: pick.roll
    when: "giant"
    then: {stop: giant}
"""


@pytest.fixture(scope="module")
def giant(tmp_path_factory):
    """The shown pack with a judgment a page reads (`giant`) and one rule to establish it."""
    folder = tmp_path_factory.mktemp("giant")
    for number, text in enumerate(GIANT.split("---\n")):
        (folder / f"giant{number}.yaml").write_text(text)
    return engine_for(TOY_PACKS, "shown", (folder,))


def _unestablished(engine, text: str) -> dict:
    from whybot.engine.explain.verdict import unestablished
    from whybot.facts.snapshot import parse_snapshot

    situation = parse_snapshot("pack: shown\n" + text, "inline.yaml", engine.pack)
    return unestablished(engine, situation, engine.decide(situation, seed=1))


def test_a_judgment_no_rule_established_names_each_rule_that_could_and_why_not(giant):
    """Neither token is of size 5: `giant` is not established, and the trace says which rule
    could have established it, the part that failed, and what each token failed on."""
    found = _unestablished(giant, "tokens: [{name: a, size: 2}, {name: b, size: 3}]\n")
    assert list(found) == ["giant"]
    (rule,) = found["giant"]
    assert rule["rule"] == "j.giant" and rule["cite"] == "shown § judgments [5]"
    assert rule["why"] == ["no token with token.size >= 5 (of 2 token seen)"]
    assert rule["entities"] == ["token a: token.size >= 5 is false (token.size = 2)",
                                "token b: token.size >= 5 is false (token.size = 3)"]


def test_an_established_judgment_has_no_why_not(giant):
    assert _unestablished(giant, "tokens: [{name: a, size: 6}]\n") == {}


def test_a_near_miss_list_names_at_most_eight_entities_then_how_many_more(giant):
    tokens = ", ".join(f"{{name: t{n}, size: 1}}" for n in range(10))
    (rule,) = _unestablished(giant, f"tokens: [{tokens}]\n")["giant"]
    assert len(rule["entities"]) == 9
    assert rule["entities"][7].startswith("token t7: ")
    assert rule["entities"][8] == "… and 2 more token"


def test_why_rule_of_a_derivation_that_did_not_fire_names_each_entity_it_looked_at(giant):
    from whybot.engine.explain.verdict import rule_verdict
    from whybot.facts.snapshot import parse_snapshot

    situation = parse_snapshot("pack: shown\ntokens: [{name: a, size: 4}]\n", "inline.yaml",
                               giant.pack)
    verdict = rule_verdict(giant, situation, giant.decide(situation, seed=1), "j.giant")
    assert verdict["status"] == "skipped"
    assert verdict["entities"] == ["token a: token.size >= 5 is false (token.size = 4)"]
