"""Bad rule files and snapshots: one clear line naming the file, the line and the field."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import OVERLAYS, TOY_PACKS
from whybot.engine import RuleFileError, SnapshotError, collect_problems, load_pack
from whybot.facts.snapshot import parse_snapshot


def test_two_files_defining_one_id_is_an_error_naming_both():
    with pytest.raises(RuleFileError) as caught:
        load_pack(TOY_PACKS, "toy", [OVERLAYS / "dup"])
    message = str(caught.value)
    assert "dup/dup.yaml:4" in message
    assert "toy/pages/turn.yaml:" in message
    assert "replaces:" in message


def test_broken_yaml_names_file_and_line():
    with pytest.raises(RuleFileError, match=r"bad_yaml/broken.yaml:\d+: not valid YAML"):
        load_pack(TOY_PACKS, "toy", [OVERLAYS / "bad_yaml"])


def test_an_unknown_name_is_reported_with_a_suggestion():
    with pytest.raises(RuleFileError, match=r"bad.yaml:4.*unknown name 'coinz'.*did you mean "
                                            r"'coins'"):
        load_pack(TOY_PACKS, "toy", [OVERLAYS / "bad_name"])


def test_lint_collects_every_problem():
    problems = collect_problems(TOY_PACKS / "toy", [OVERLAYS / "bad_name"])
    assert [p.message for p in problems] == ["when: unknown name 'coinz'"]


def test_unknown_pack_suggests_one(tmp_path):
    with pytest.raises(RuleFileError, match="did you mean 'toy'"):
        load_pack(TOY_PACKS, "tyo")


def test_a_condition_syntax_error_names_the_column(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n  - id: x\n    priority: 1\n"
        "    when: coins >> 2\n    then: {stop: x}\n")
    with pytest.raises(RuleFileError, match=r"x.yaml:6 \(\$.rules\[0\].when\): condition: "
                                            r"expected a name or a value, found '>' at column 8"):
        load_pack(TOY_PACKS, "toy", [tmp_path])


def test_an_unknown_field_in_a_rule_is_refused(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n  - id: x\n    priority: 1\n    when: ready\n"
        "    then: {stop: x}\n    salt: 3\n")
    with pytest.raises(RuleFileError, match=r"x.yaml:4 \(\$.rules\[0\]\): unknown field"):
        load_pack(TOY_PACKS, "toy", [tmp_path])


def test_replacing_an_unknown_rule_is_refused(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n  - id: x\n    replaces: turn.rset\n"
        "    priority: 1\n    when: ready\n    then: {stop: x}\n")
    with pytest.raises(RuleFileError, match=r"replaces unknown rule 'turn.rset'.*turn.rest"):
        load_pack(TOY_PACKS, "toy", [tmp_path])


def test_an_anchor_may_name_a_rule_of_a_file_read_later(tmp_path):
    """`before:`/`after:` place a rule among those of a file that sorts after its own (a Fate's
    folder anchoring a line of a base page): the anchored rules wait until every file is read.
    Two rules placed in one gap (after turn.count, before turn.angry) keep their files' order."""
    (tmp_path / "a_fate.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n"
        "  - id: fate.shout-first\n    before: house.sing\n    when: ready\n"
        "    then: {action: shout}\n"
        "  - id: fate.hum\n    before: turn.angry\n    when: ready\n    then: {action: hum}\n")
    (tmp_path / "b_house.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n"
        "  - id: house.sing\n    after: turn.count\n    when: ready\n    then: {action: sing}\n")
    pack = load_pack(TOY_PACKS, "toy", [tmp_path])
    order = [rule.id for rule in pack.pages["turn"].ordered()]
    assert order[order.index("turn.count"):order.index("turn.angry") + 1] == [
        "turn.count", "fate.shout-first", "fate.hum", "house.sing", "turn.angry"]


def test_a_house_folder_may_replace_a_rule_the_pack_anchored_to(tmp_path):
    """The pack's own anchors are settled before a house-rule folder lays over it: a house rule
    replacing the rule a pack file placed itself after leaves that file's rule in place."""
    pack = tmp_path / "packs" / "toy"
    shutil.copytree(TOY_PACKS / "toy", pack)
    (pack / "a_fate.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n"
        "  - id: fate.hum\n    after: turn.count\n    when: ready\n    then: {action: hum}\n")
    house = tmp_path / "house"
    house.mkdir()
    (house / "h.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n"
        "  - id: house.count\n    replaces: turn.count\n    when: ready\n"
        "    then: {action: count}\n")
    order = [rule.id for rule in load_pack(tmp_path / "packs", "toy", [house])
             .pages["turn"].ordered()]
    assert "turn.count" not in order
    assert order.index("house.count") + 1 == order.index("fate.hum")


def test_an_anchor_no_file_defines_is_still_refused(tmp_path):
    (tmp_path / "a.yaml").write_text(
        "pack: toy\nprocedure: turn\nrules:\n  - id: x\n    after: turn.cont\n"
        "    when: ready\n    then: {stop: x}\n")
    with pytest.raises(RuleFileError, match=r"after unknown rule 'turn.cont'.*turn.count"):
        load_pack(TOY_PACKS, "toy", [tmp_path])


def test_a_judgment_depending_on_its_own_negation_is_refused(tmp_path):
    (tmp_path / "x.yaml").write_text(
        "pack: toy\nprocedure: judgments\nkind: derivation\nrules:\n  - id: x\n    priority: 1\n"
        "    when: not asked\n    then: {judge: asked}\n")
    from whybot.engine import Engine

    with pytest.raises(RuleFileError, match="a cycle through a negation"):
        Engine(load_pack(TOY_PACKS, "toy", [tmp_path]))


@pytest.mark.parametrize(("text", "expected"), [
    ("pack: toy\ncoinz: 3\n", r"s.yaml:2 \(\$.coinz\): unknown fact 'coinz' \(did you mean "
                              r"'coins'\?\)"),
    ("pack: toy\nmood: sad\n", r"s.yaml:2 \(\$.mood\): 'sad' is not one of"),
    ("pack: toy\ntokens: [{size: 2}]\n", r"s.yaml:2 \(\$.tokens\[0\]\): token needs its 'colour'"),
    ("pack: toy\nanswers: {fitz: true}\n", r"unknown judgment 'fitz' \(did you mean 'fits'\?\)"),
    ("pack: toy\npoor: true\n", r"'poor' is a judgment: give it under answers:"),
    ("pack: toy\ncoins: [1\n", r"s.yaml:\d+: not valid YAML/JSON"),
])
def test_bad_snapshots_get_one_clear_line(toy, text, expected):
    with pytest.raises(SnapshotError, match=expected) as caught:
        parse_snapshot(text, "s.yaml", toy.pack)
    assert "\n" not in str(caught.value)


def test_a_snapshot_includes_observations_kept_in_another_file(toy, tmp_path):
    from whybot.facts.snapshot import load_snapshot

    (tmp_path / "board.yaml").write_text("tokens: [{colour: red, size: 3}]\ncoins: 2\n")
    (tmp_path / "turn.yaml").write_text("pack: toy\ninclude: [board.yaml]\ncoins: 7\n")
    situation = load_snapshot(tmp_path / "turn.yaml", toy.pack)
    assert situation.board["coins"] == 7
    assert [{k: v for k, v in e.items() if k != "#"} for e in situation.entities["token"]] \
        == [{"colour": "red", "size": 3}]


def test_an_error_in_an_included_file_names_that_file(toy, tmp_path):
    from whybot.facts.snapshot import load_snapshot

    (tmp_path / "board.yaml").write_text("coins: 2\ntokens: [{size: 3}]\n")
    (tmp_path / "turn.yaml").write_text("pack: toy\ninclude: board.yaml\n")
    with pytest.raises(SnapshotError,
                       match=r"board.yaml:2 \(\$.tokens\[0\]\): token needs its 'colour'"):
        load_snapshot(tmp_path / "turn.yaml", toy.pack)
    (tmp_path / "turn.yaml").write_text("pack: toy\ninclude: [nowhere.yaml]\n")
    with pytest.raises(SnapshotError, match=r"turn.yaml:2 .*included file 'nowhere.yaml' not"):
        load_snapshot(tmp_path / "turn.yaml", toy.pack)


def test_an_entity_field_the_engine_reserves_is_refused(tmp_path):
    import shutil

    shutil.copytree(TOY_PACKS / "toy", tmp_path / "toy")
    pack_file = tmp_path / "toy" / "pack.yaml"
    pack_file.write_text(pack_file.read_text().replace("size: {type: integer",
                                                       "kind: {type: integer"))
    with pytest.raises(RuleFileError, match=r"pack.yaml:\d+ .*'kind' is reserved"):
        load_pack(tmp_path, "toy")


def test_a_house_file_declares_its_own_facts(tmp_path):
    """A house Fate is one YAML file: it may add the judgments, observations and entity fields
    it needs, without touching pack.yaml."""
    from tests.engine.helpers import decide
    from whybot.engine import Engine

    house = tmp_path / "house"
    house.mkdir()
    (house / "lucky.yaml").write_text("""\
pack: toy
procedure: lucky
kind: derivation
facts:
  board: {luck: {type: integer, default: 0, says: "lucky charms on the table"}}
  judgments: {lucky: "Does the bot hold a big lucky token?"}
  entities: {token: {fields: {charm: {type: boolean, default: false}}}}
rules:
  - id: lucky.charm
    when: luck > 1 and exists token (charm and size >= 3)
    then: {judge: lucky}
""")
    (house / "turn.yaml").write_text("""\
pack: toy
procedure: turn
salience: 5
rules:
  - id: house.lucky
    when: lucky
    then: {stop: lucky}
""")
    engine = Engine(load_pack(TOY_PACKS, "toy", [house]))
    trace = decide(engine, "luck: 2\ntokens: [{colour: red, size: 3, charm: true}]\n")
    assert trace.decision.result == "lucky"
    assert decide(engine, "luck: 2\ntokens: [{colour: red, size: 3}]\n").decision.result \
        != "lucky"


def test_a_file_may_not_declare_a_name_twice(tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "x.yaml").write_text("pack: toy\nprocedure: turn\nfacts:\n"
                                  "  board: {coins: {type: integer}}\nrules: []\n")
    with pytest.raises(RuleFileError, match=r"x.yaml:4 .*'coins' is already declared"):
        load_pack(TOY_PACKS, "toy", [house])


def test_a_rule_may_be_placed_on_a_page_whose_file_is_read_later(tmp_path):
    """`before:`/`after:`/`replaces:` name a rule of any file: a file sorting before the page it
    places a rule on (a Fate's folder before the base pages) still finds the rule."""
    import shutil

    pack = tmp_path / "toy"
    shutil.copytree(TOY_PACKS / "toy", pack)
    (pack / "a_first.yaml").write_text(
        "pack: toy\nprocedure: turn\nsource: early § file\nsalience: 10\nrules:\n"
        "  - id: early.nap\n    before: turn.rest\n    when: mood == 'calm'\n"
        "    then: {stop: nap}\n")
    loaded = load_pack(tmp_path, "toy")
    order = [r.id for r in sorted(loaded.pages["turn"].rules, key=lambda r: (-r.layer,
                                                                              r.position))]
    assert order[-2:] == ["early.nap", "turn.rest"]
    assert loaded.rule("early.nap").layer == 0  # the anchor's layer, not the file's salience
