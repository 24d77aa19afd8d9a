"""What reaches durable_rules: an entity fact holds exactly the fields some pattern tests or
joins on (under their short codes), and a state's fact is renewed only when one of those
fields changed."""

from __future__ import annotations

from whybot.engine.compile.codes import board_code, field_code
from whybot.engine.compile.fields_tested import OMITTABLE, FieldTests, pattern_fields
from whybot.engine.compile.rulesets import Compiled
from whybot.engine.derive.asserted import EntityFacts
from whybot.engine.derive.derivation import EID


def test_the_fields_a_rule_reads_are_found_in_its_patterns():
    """Patterns name entity fields by their codes (`compiler.field_code`); the fields read are
    told by name."""
    names = {"f0": "size", "f1": "colour", "f2": "shape", "f3": "open", "f4": "depth"}
    patterns = [
        {"e": {"$and": [{"t": "phase"}, {"band": 1}]}},
        {"x_t": {"$and": [{"t": "e"}, {"kind": "token"}, {"$gte": {"f0": 3}}]}},
        {"x_s": {"$and": [{"t": "e"}, {"kind": "slot"}, {"f1": {"x_t": "f1"}},
                          {"$or": [{"f2": "round"}, {"f2": "square"}]},
                          {"$lt": {"f3": {"$add": {"$l": {"$m": "f4"}, "$r": 1}}}},
                          {"k": {"e": "k"}}]}},
    ]
    assert pattern_fields(patterns, names) == {("token", "size"), ("token", "colour"),
                                               ("slot", "colour"), ("slot", "shape"),
                                               ("slot", "open"), ("slot", "depth")}


def test_field_codes_are_short_shared_and_never_a_name_whybot_stamps():
    codes: dict[str, str] = {}
    first = [field_code(name, codes) for name in ("size", "t", "kind", "id", "size")]
    assert first == ["f0", "f1", "f2", "f3", "f0"]
    assert not {"t", "kind", "eid", "id", "sid", "k", "v", "n"} & set(codes.values())


def test_board_codes_are_short_and_never_an_entity_fields_or_a_stamped_name():
    """Board values go by codes on event and phase facts (`compiler.board_code`), numbered
    with the entity fields' codes; `Packer.names` (code → entity field) leaves them out."""
    codes: dict[str, str] = {}
    made = [field_code("size", codes), board_code("size", codes), board_code("band", codes),
            board_code("size", codes), board_code("from", codes)]
    assert made == ["f0", "b1", "b2", "b1", "b3"]
    assert not {"t", "band", "from", "kind", "eid", "id", "sid", "k", "v", "n"} & \
        set(codes.values())


def test_a_phase_fact_names_no_board_value():
    """The demo's derivation carriers hold board values under codes only (and hoisted values
    as `__h1`, ...): no board name reaches the C core or comes back in a firing."""
    from tests.conftest import KNOWLEDGE, engine_for

    engine = engine_for(KNOWLEDGE, "arcs")
    names = engine.pack.facts.board_names()
    for compiled in (engine.deriver.compiled, engine.pages.compiled):
        for bands in compiled.bands.values():
            for band in bands:
                for name, code in band.keys:
                    assert code.startswith("b") and code[1:].isdigit(), (name, code)
                    assert code not in names
    assert any(band.keys for bands in engine.deriver.compiled.bands.values() for band in bands)


def _facts() -> EntityFacts:
    return EntityFacts(Compiled("phase", kinds=[{"token"}],
                                fields={"token": (("size", "f0", ()),)}), 0)


def test_an_entity_fact_holds_only_the_fields_patterns_read():
    retract: list[dict] = []
    renew: list[dict] = []
    token = {EID: 7, "size": 2, "colour": "red", "note": None}
    _facts().update([(7, "token", token), (8, "slot", {EID: 8, "size": 1})], retract, renew)
    assert retract == [] and renew == [{"f0": 2, "t": "e", "kind": "token", "eid": 7,
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


def test_a_later_stratum_narrows_a_fact_to_the_fields_its_rules_test():
    """From a stratum on, a fact holds only what that stratum's and later rules test; a fact
    made of more fields is kept while the fields read now are the same."""
    compiled = Compiled("phase", kinds=[{"token"}],
                        fields={"token": (("size", "f0", ()), ("colour", "f1", ()))},
                        group_fields={"0": {("token", "size"), ("token", "colour")},
                                      "1": {("token", "size")}})
    assert compiled.fields_from(1) == {"token": (("size", "f0", ()),)}
    facts = EntityFacts(compiled, 0)
    token = {EID: 7, "size": 2, "colour": "red"}
    facts.update([(7, "token", token)], [], [])
    facts.fields = compiled.fields_from(1)
    token["colour"] = "blue"  # read no more: the wider fact stays
    retract: list[dict] = []
    renew: list[dict] = []
    facts.update([(7, "token", token)], retract, renew)
    assert retract == renew == []
    token["colour"] = "green"  # compared again as read now: still the same
    facts.update([(7, "token", token)], retract, renew)
    assert retract == renew == []
    token["size"] = 3
    facts.update([(7, "token", token)], retract, renew)
    assert [f["id"] for f in retract] == ["x7.0"]
    assert renew == [{"f0": 3, "t": "e", "kind": "token", "eid": 7, "id": "x7.1"}]


def _tests(*tests: dict) -> FieldTests:
    found = FieldTests()
    found.add([{"e": {"$and": [{"t": "phase"}, {"band": 1}]}},
               {"x": {"$and": [{"t": "e"}, {"kind": "token"}, *tests]}}],
              {"f0": "size", "f1": "colour", "f2": "open"})
    return found


def test_a_value_every_test_of_its_field_fails_on_is_left_out():
    """A field tested only for true or a colour is left out at false (0 alike), none and the
    empty text; one tested for what such a value is, is not."""
    assert _tests({"f2": True}).omitted("token", "open") == OMITTABLE
    assert _tests({"$gt": {"f0": 0}}).omitted("token", "size") == (False,)
    assert _tests({"$or": [{"f1": "red"}, {"f1": "blue"}]}).omitted("token", "colour") == \
        OMITTABLE
    assert _tests({"f2": False}).omitted("token", "open") == ("none", "")
    assert _tests({"$lte": {"f0": 0}}).omitted("token", "size") == ()
    assert _tests({"$neq": {"f1": "red"}}).omitted("token", "colour") == ()
    assert _tests({"$neq": {"f1": "none"}}).omitted("token", "colour") == ("none",)
    assert _tests({"f1": ""}, {"f1": "none"}).omitted("token", "colour") == (False,)


def test_a_field_ordered_against_a_text_or_compared_with_another_is_always_held():
    """Where Python cannot order a value against a test's literal, durable_rules' answer is
    not known here; a field joined or computed on matches whatever the other side holds."""
    assert _tests({"$lt": {"f0": "m"}}).omitted("token", "size") == ("none",)
    joined = _tests({"f0": {"e": "b1"}}, {"$lt": {"f2": {"$add": {"$l": {"$m": "f1"},
                                                                  "$r": 1}}}})
    assert [joined.omitted("token", name) for name in ("size", "colour", "open")] == \
        [(), (), ()]


def test_durable_rules_matches_a_left_out_value_as_it_matches_the_value():
    """What `FieldTests` relies on, asked of durable_rules itself: for every comparison and
    literal whybot compiles, a fact without the field matches no test, and a value fails
    a test exactly where Python's comparison is false (booleans compared as 1 and 0)."""
    import operator

    from whybot.engine.compile.durable_core import Ruleset, State

    compare = {"$eq": operator.eq, "$neq": operator.ne, "$lt": operator.lt,
               "$lte": operator.le, "$gt": operator.gt, "$gte": operator.ge}
    literals = [True, False, 0, 1, 2, 1.5, "none", "", "red"]
    tests = {f"r{n}": (op, literal) for n, (op, literal) in
             enumerate((op, literal) for op in compare for literal in literals)}
    ruleset = Ruleset("test.omitted", {
        name: {"all": [{"m": {"$and": [{"t": "e"}, {"f": literal} if op == "$eq"
                                       else {op: {"f": literal}}]}}]}
        for name, (op, literal) in tests.items()})
    for value in [None, *OMITTABLE, 0, 1, True, "red"]:
        with State(ruleset) as state:
            state.assert_facts([{"t": "e"} if value is None else {"t": "e", "f": value}])
            fired = {name for name, _ in state.drain()}
        for name, (op, literal) in tests.items():
            try:
                holds = value is not None and compare[op](value, literal)
            except TypeError:
                continue  # a text ordered against a number: never left out
            assert (name in fired) == holds, (value, op, literal)


def test_a_default_a_fact_leaves_out_is_not_told():
    """Giving a field its default changes a fact only where the fact would hold it: not for
    none, nor for a value every test of the field fails on, nor for a field no pattern reads."""
    compiled = Compiled("phase", kinds=[{"token"}], fields={"token": (
        ("open", "f0", OMITTABLE), ("size", "f1", ("none", "")), ("colour", "f2", ()))})
    defaults = [("open", "token", False), ("size", "token", 0), ("colour", "token", None),
                ("shape", "token", "round")]
    assert compiled.defaults_told(defaults) == {("token", "size")}
