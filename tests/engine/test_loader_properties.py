"""Property tests: whatever a user feeds the loaders, the answer is a result or one clear line."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import TOY_PACKS
from whybot.engine import RuleFileError, SnapshotError, load_pack
from whybot.facts.snapshot import parse_snapshot

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
snapshot_keys = st.sampled_from(["coins", "mood", "ready", "ratio", "tokens", "slots", "answers",
                                 "dice", "name", "notes", "coinz", "poor"])
snapshots = st.dictionaries(snapshot_keys, values, max_size=5)


def _one_line(error: Exception) -> None:
    assert "\n" not in str(error)
    assert str(error)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(snapshots)
def test_any_snapshot_mapping_decides_or_fails_with_one_line(toy, data):
    text = yaml.safe_dump({"pack": "toy", **data})
    try:
        situation = parse_snapshot(text, "fuzz.yaml", toy.pack)
    except SnapshotError as exc:
        _one_line(exc)
        return
    assert set(situation.board) >= {"coins", "mood", "ready", "ratio"}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_as_a_snapshot_fails_with_one_line_or_loads(toy, text):
    try:
        parse_snapshot(text, "fuzz.yaml", toy.pack)
    except SnapshotError as exc:
        _one_line(exc)


rule_fields = st.fixed_dictionaries({}, optional={
    "id": st.one_of(st.just("fuzz.rule"), st.text(max_size=6)),
    "priority": st.one_of(st.integers(-1, 5), st.text(max_size=3)),
    "when": st.one_of(st.sampled_from(["ready", "coins > 1", "coinz", "fits and", "true"]),
                      st.booleans(), st.integers()),
    "then": st.one_of(st.fixed_dictionaries({"stop": st.just("x")}),
                      st.fixed_dictionaries({"goto": st.text(max_size=5)}),
                      st.dictionaries(st.sampled_from(["say", "set", "judge", "salt"]),
                                      st.text(max_size=5), max_size=2)),
    "replaces": st.sampled_from(["turn.rest", "nope"]),
})


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture],
          deadline=None)
@given(st.lists(rule_fields, max_size=2), st.sampled_from(["turn", "judgments", "new.page"]))
def test_any_rule_file_loads_or_fails_with_file_and_line(tmp_path_factory, rules, page):
    folder = tmp_path_factory.mktemp("house")
    kind = "derivation" if page == "judgments" else "decision"
    (folder / "house.yaml").write_text(yaml.safe_dump(
        {"pack": "toy", "procedure": page, "kind": kind, "rules": rules}))
    try:
        load_pack(TOY_PACKS, "toy", [folder])
    except RuleFileError as exc:
        _one_line(exc)
        assert "house.yaml" in str(exc) or "toy" in str(exc)
