"""A rederive whose inputs are the last run's wherever derivations read gets the last result:
the same decision and trace as deriving again, without asking the reasoner."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import KNOWLEDGE, ROOT, TOY_PACKS, engine_for
from whybot.engine import Engine
from whybot.engine.derive.derivation import EID
from whybot.engine.derive.fast import reuse
from whybot.facts.snapshot import load_snapshot, parse_snapshot

MEMBERS = "members: [{name: Ann, purse: 6}, {name: Bob, purse: 1}]\nseats: [{holder: Ann}]\n"


@pytest.fixture(scope="module")
def ledger():
    return engine_for(TOY_PACKS, "ledger")


def _inputs(engine, text: str):
    situation = parse_snapshot("pack: ledger\n" + text, "s.yaml", engine.pack)
    return engine.inputs(situation), situation.entities


@pytest.mark.parametrize(("one", "other"), [(1, True), (1, 1.0), (0.0, -0.0), ([1], [True]),
                                            ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
                                            ({"a": 1, "b": "x"}, {"a": True, "b": "x"}),
                                            ({"a": [1, "x"]}, {"a": [1.0, "x"]})])
def test_values_python_calls_equal_are_not_identical_when_a_trace_would_tell_them_apart(
        one, other):
    assert one == other
    assert not reuse.identical(one, other)
    assert reuse.identical(one, one)


def test_what_the_ledger_derivations_read_is_members_and_no_board_name(ledger):
    reads = ledger.reads.derived_from
    assert reads.kinds == {"member"}
    assert reads.names == frozenset()


def test_the_same_inputs_give_a_copy_of_the_last_result(ledger):
    board, entities = _inputs(ledger, "phase: open\n" + MEMBERS)
    last = reuse.LastDerivation(ledger.reads.derived_from)
    assert last.find(board, entities) is None
    run = ledger.derive(board, entities, {})
    last.keep(board, entities, run)
    again = last.find(dict(board), {k: [dict(e) for e in v] for k, v in entities.items()})
    assert again is not None
    assert again.entities == run.entities and again.judgments() == run.judgments()
    assert again.field_support == run.field_support
    rich = again.entities["member"][0]
    assert rich["rich"] is True and rich is not run.entities["member"][0]
    key = (rich[EID], "rich")
    assert again.field_support[key] == run.field_support[key]  # shared: a finished run's
    # supports never change (Derivation.copy), its entities do (the walk's)


def test_what_the_walk_changes_reaches_no_later_reuse(ledger):
    """The walk changes the entities of the run it was handed (and of a reused copy): the
    last run is kept as it was when derived, and each reuse hands out entities of its own."""
    board, entities = _inputs(ledger, "phase: open\n" + MEMBERS)
    last = reuse.LastDerivation(ledger.reads.derived_from)
    run = ledger.derive(board, entities, {})
    derived = {kind: [dict(e) for e in items] for kind, items in run.entities.items()}
    last.keep(board, entities, run)
    for items in run.entities.values():
        for entity in items:
            entity["rich"] = "changed by the walk"
    again = last.find(board, entities)
    assert again is not None and again.entities == derived
    for items in again.entities.values():
        for entity in items:
            entity["purse"] = -1
    third = last.find(board, entities)
    assert third is not None and third.entities == derived


def test_a_change_no_derivation_reads_reuses_and_keeps_the_new_values(ledger):
    board, entities = _inputs(ledger, "phase: open\n" + MEMBERS)
    last = reuse.LastDerivation(ledger.reads.derived_from)
    last.keep(board, entities, ledger.derive(board, entities, {}))
    moved = {**entities, "seat": [{**entities["seat"][0], "holder": "empty"}]}
    again = last.find({**board, "coins": 9}, moved)
    assert again is not None
    assert again.board["coins"] == 9
    assert again.entities["seat"][0]["holder"] == "empty"


@pytest.mark.parametrize("change", ["purse", "type", "order", "removed"])
def test_a_change_a_derivation_reads_derives_again(ledger, change):
    board, entities = _inputs(ledger, "phase: open\n" + MEMBERS)
    last = reuse.LastDerivation(ledger.reads.derived_from)
    last.keep(board, entities, ledger.derive(board, entities, {}))
    ann, bob = entities["member"]
    members = {"purse": [{**ann, "purse": 2}, bob], "type": [{**ann, "purse": 6.0}, bob],
               "order": [dict(reversed(ann.items())), bob], "removed": [bob]}[change]
    assert last.find(board, {**entities, "member": members}) is None


def _fate_examples(exhaustive: bool) -> list[Path]:
    """Every Fate example with --exhaustive; every fourth otherwise (still every Fate's pages:
    the files sort by Fate, and each Fate has several)."""
    examples = sorted((ROOT / "facts" / "examples" / "arcs" / "fates").rglob("*.yaml"))
    return examples if exhaustive else examples[::4]


def test_decisions_with_reuse_are_the_decisions_derived_afresh(monkeypatch, exhaustive):
    """The Fate examples (their pages rederive after each action): the same trace, and fewer
    runs of the reasoner."""
    arcs = engine_for(KNOWLEDGE, "arcs")
    calls = {"reused": 0, "afresh": 0}
    real = arcs.derive
    traces = {}
    for way in ("reused", "afresh"):
        if way == "afresh":
            monkeypatch.setattr(reuse.LastDerivation, "find", lambda self, board, entities: None)

        def counted(*args, way=way):
            calls[way] += 1
            return real(*args)
        monkeypatch.setattr(arcs, "derive", counted)
        traces[way] = [arcs.decide(load_snapshot(path, arcs.pack), seed=1).as_dict()
                       for path in _fate_examples(exhaustive)]
    assert len(traces["afresh"]) > 20
    assert traces["reused"] == traces["afresh"]
    assert calls["reused"] < calls["afresh"]


@pytest.mark.parametrize("reasoner", ["durable", "plain"])
def test_rederives_that_replay_the_unaffected_derivations_decide_as_afresh(monkeypatch,
                                                                          reasoner, exhaustive):
    """The Fate examples, each rederive asking the reasoner only about the derivations that
    read what the action changed: the same trace as deriving everything afresh, and fewer
    derivations asked."""
    arcs = Engine(engine_for(KNOWLEDGE, "arcs").pack, reasoner=reasoner)
    asked: dict[str, list[int]] = {"replayed": [], "afresh": []}
    real = arcs.derive
    traces = {}
    for way in ("replayed", "afresh"):
        if way == "afresh":
            monkeypatch.setattr(reuse.LastDerivation, "replay", lambda self, b, e: None)

        def counted(board, entities, answers, replay=None, record=True, only=None, *,
                    way=way):
            asked[way].append(len(replay.affected) if replay else len(arcs.pack.derivations()))
            return real(board, entities, answers, replay, record, only)
        monkeypatch.setattr(arcs, "derive", counted)
        traces[way] = [arcs.decide(load_snapshot(path, arcs.pack), seed=1).as_dict()
                       for path in _fate_examples(exhaustive)]
    assert traces["replayed"] == traces["afresh"]
    assert len(asked["replayed"]) == len(asked["afresh"])
    assert sum(asked["replayed"]) < 0.8 * sum(asked["afresh"])


def test_what_an_action_changes_reaches_the_derivations_that_read_it_and_no_other():
    arcs = engine_for(KNOWLEDGE, "arcs")
    deps = arcs.dependencies
    readers = deps.affected({("judgment", "actions_left")})
    assert readers and len(readers) < len(arcs.pack.derivations()) / 2
    for rule in arcs.pack.derivations():
        read = {p for p, _ in arcs.reads.derivations[rule.id].needs}
        if ("judgment", "actions_left") in read:
            assert rule.id in readers
    assert deps.affected(set()) == frozenset()
