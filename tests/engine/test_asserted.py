"""What reaches durable_rules: an entity fact holds exactly the fields some pattern tests or
joins on, and a state's fact is renewed only when one of those fields changed."""

from __future__ import annotations

from whybot.engine.asserted import EntityFacts
from whybot.engine.compiled import Compiled, pattern_fields
from whybot.engine.derivation import EID


def test_the_fields_a_rule_reads_are_found_in_its_patterns():
    patterns = [
        {"e": {"$and": [{"t": "phase"}, {"band": 1}]}},
        {"x_t": {"$and": [{"t": "e"}, {"kind": "token"}, {"$gte": {"size": 3}}]}},
        {"x_s": {"$and": [{"t": "e"}, {"kind": "slot"}, {"colour": {"x_t": "colour"}},
                          {"$or": [{"shape": "round"}, {"shape": "square"}]},
                          {"$lt": {"open": {"$add": {"$l": {"$m": "depth"}, "$r": 1}}}},
                          {"k": {"e": "k"}}]}},
    ]
    assert pattern_fields(patterns) == {("token", "size"), ("token", "colour"),
                                       ("slot", "colour"), ("slot", "shape"),
                                       ("slot", "open"), ("slot", "depth")}


def _facts() -> EntityFacts:
    return EntityFacts(Compiled("phase", kinds=[{"token"}], fields={"token": ("size",)}), 0)


def test_an_entity_fact_holds_only_the_fields_patterns_read():
    retract: list[dict] = []
    renew: list[dict] = []
    token = {EID: 7, "size": 2, "colour": "red", "note": None}
    _facts().update([(7, "token", token), (8, "slot", {EID: 8, "size": 1})], retract, renew)
    assert retract == [] and renew == [{"size": 2, "t": "e", "kind": "token", "eid": 7,
                                        "id": "x7.0"}]


def test_a_fact_is_renewed_only_when_a_field_it_holds_changed():
    facts = _facts()
    token = {EID: 7, "size": 2, "colour": "red"}
    facts.update([(7, "token", token)], [], [])
    for change, renewed in (({"colour": "blue"}, False), ({"size": 2}, False),
                            ({"size": 3}, True), ({"size": 3.5}, True), ({"size": True}, True)):
        token.update(change)
        retract: list[dict] = []
        renew: list[dict] = []
        facts.update([(7, "token", token)], retract, renew)
        assert bool(renew) == renewed == bool(retract), change
    retract = []
    facts.update([(7, None, None)], retract, [])  # removed
    assert [f["eid"] for f in retract] == [7] and not facts.held
