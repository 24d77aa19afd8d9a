"""Regression tests for the durable_rules hazards in DURABLE_RULES.md, one per guard."""

from __future__ import annotations

import threading

import pytest

from tests.conftest import TOY_PACKS
from whybot.engine import EngineFault, SnapshotError, load_pack
from whybot.engine.compiler import compile_decisions
from whybot.engine.host import Session, rule_host
from whybot.facts.snapshot import parse_snapshot


def _patterns(definition):
    for name, rule in definition.items():
        for pattern in rule["all"]:
            for alias, test in pattern.items():
                yield name, alias, test


def test_every_join_ends_with_an_always_true_test(toy):
    """Hazard A (#381): a cross-fact test that is last and false can crash the engine."""
    joined = next(c for c in toy.compiled.derivations.rules if c.rule.id == "j.fits")
    slot = joined.patterns[2]["x_s"]["$and"]
    assert slot[-1] == {"k": {"b": "k"}}


def test_every_state_runs_an_action_before_it_is_deleted():
    """Hazard B: delete_state on a state where no action ran crashes; `end` always fires."""
    host = rule_host()
    name = host.unique_name("hazard.b")
    host.register(name, {"only": {"all": [{"a": {"t": "end"}}]},
                         "accept": {"all": [{"a": {"t": "board"}}, {"z": {"t": "-never-"}}]}},
                  lambda *args: None)
    session = Session(host, name)
    session.assert_fact({"t": "board"})
    session.close()
    assert session.fired[-1][0] == "only"


def test_every_pattern_has_a_positive_discriminator(toy):
    """Hazard C: a pattern the state object itself satisfies fires forever."""
    page = toy.pack.procedures["turn"]
    _, definition = compile_decisions(page, "hazard.c.check", toy.pack)
    for _name, _alias, test in _patterns(definition):
        tests = test.get("$and", [test])
        assert any("t" in part for part in tests)


def test_an_exception_in_an_action_reaches_the_caller():
    """Hazard D: durable_rules stores an action's exception as a string and carries on."""
    host = rule_host()
    name = host.unique_name("hazard.d")

    def explode(session, rule, matched, closure):
        if rule == "r":
            raise KeyError("boom")

    host.register(name, {"r": {"all": [{"a": {"t": "board"}}]}, "end": {"all": [
        {"a": {"t": "end"}}]}}, explode)
    with Session(host, name) as session, pytest.raises(EngineFault, match="boom"):
        session.assert_fact({"t": "board"})


def test_entities_no_rule_mentions_are_still_accepted(toy):
    """Hazard E: a fact no pattern accepts raises MessageNotHandledException."""
    page = toy.compiled.pages["luck"]
    with Session(toy.compiled.host, page.name) as session:
        session.assert_fact({"t": "e", "kind": "token", "#": 0, "colour": "red"}) \
            if "token" in page.kinds else session.assert_fact({"t": "board"})


def test_identical_entities_are_distinct_facts(toy):
    """Hazard F: the same fact twice in one state raises MessageObservedException."""
    situation = parse_snapshot("pack: toy\ntokens: [{colour: red}, {colour: red}]\n"
                               "slots: [{colour: red}, {colour: red}]\n", "dup.yaml", toy.pack)
    assert toy.decide(situation, seed=1).judgments["fits"].value is True


@pytest.mark.parametrize(("value", "message"), [
    ("1.0e-05", None), ("12345678901234567890", "maximum"), (".nan", "finite"),
])
def test_numbers_are_normalised_or_refused_before_the_engine(toy, value, message):
    """Hazard H: exponent floats, huge ints and NaN misbehave inside durable_rules."""
    field = "coins" if message == "maximum" else "ratio"
    text = f"pack: toy\n{field}: {value}\n"
    if message is None:
        assert parse_snapshot(text, "n.yaml", toy.pack).board["ratio"] == 0
    else:
        with pytest.raises(SnapshotError, match=message):
            parse_snapshot(text, "n.yaml", toy.pack)


def test_strings_are_not_numbers(toy):
    """Hazard I: durable_rules finds "5" equal to 5, so types are checked first."""
    with pytest.raises(SnapshotError, match=r"n.yaml:2 \(\$.coins\).*'5' is not of type"):
        parse_snapshot("pack: toy\ncoins: '5'\n", "n.yaml", toy.pack)


def test_only_the_names_a_page_reads_go_into_its_board_fact(toy):
    """Hazard J: more than 252 properties in one fact fail; pages carry what they read."""
    assert toy.compiled.pages["place"].board_names == {"picked"}


def test_compiling_starts_no_background_threads():
    """Hazard K: the Host's timer threads would run actions beside ours."""
    before = threading.active_count()
    load_pack(TOY_PACKS, "toy")
    rule_host()
    assert threading.active_count() == before
