"""The one "what a rule reads" analysis (engine/derive/pack_reads.py) on a small pack written here,
each expected read worked out by hand from the rule text: derivations (what strata, the
incremental rederive, reuse and reach count), a decision line that takes a page template's
`target` default and a named preference, a house rule replacing a derivation, and an engine
read back from the compiled-pack cache that decides without working it out again."""

from __future__ import annotations

from pathlib import Path

import pytest

from whybot.engine import Engine, load_pack
from whybot.engine.compile.disk_cache import cached
from whybot.engine.language.rule_reads import FIELD, KIND, NAME
from whybot.engine.load.loader import rule_files
from whybot.engine.walk.facts_read import Reading
from whybot.facts.snapshot import parse_snapshot

PACK = """\
pack: readers
title: A pack whose rules' reads are worked out by hand
start: turn
facts:
  board:
    coins: {type: integer, minimum: 0, maximum: 99, default: 0}
    mode: {type: string, enum: [calm, bold], default: calm}
    actions_left: {type: integer, minimum: 0, maximum: 9, default: 1}
  entities:
    option:
      from: options
      label: action
      fields:
        action: {type: string, required: true}
        strength: {type: integer, default: 0}
        used: {type: boolean, default: false}
        strong: {type: boolean, derived: true, says: "strength 3 or more"}
        double: {type: integer, derived: true, says: "twice its strength (only shown)"}
  judgments:
    rich: "Is the bot rich?"
    bold: "Is the bot bold and rich?"
    armed: "Is the bot poor but holding a strong option?"
preferences:
  strongest: {says: "a strong option first", when: "strong"}
templates:
  acting:
    pages: "act"
    repeat_while: actions_left > 0
    after_action:
      set: {actions_left: actions_left - 1}
      update: {"target?": {used: true}}
    defaults:
      target: {from: option, where: not used}
"""
JUDGMENTS = """\
pack: readers
procedure: judgments
kind: derivation
source: readers § judgments
rules:
  - id: j.rich
    when: coins >= 5
    then: {judge: rich}
  - id: j.bold
    when: rich and mode == 'bold'
    then: {judge: bold}
  - id: j.strong
    when: exists option as o (o.strength >= 3)
    then: {judge: o.strong}
  - id: j.double
    when: exists option as o (o.strength > 0)
    then: {judge: o.double, value: o.strength * 2}
  - id: j.armed
    when: not rich and exists option as o (o.strong)
    then: {judge: armed}
"""
PAGES = {
    "turn": """\
pack: readers
procedure: turn
source: readers § turn
rules:
  - id: turn.act
    when: actions_left > 0
    then: {goto: act}
  - id: turn.rest
    then: {stop: rest}
""",
    "act": """\
pack: readers
procedure: act
source: readers § act
rules:
  - id: act.spend
    when: bold
    then:
      action: spend
      target: {where: strength >= 1, prefer: [{use: strongest}]}
  - id: act.wait
    then: {stop: wait}
""",
}
HOUSE = """\
pack: readers
procedure: judgments
kind: derivation
source: house § richer
rules:
  - id: house.rich
    replaces: j.rich
    when: coins >= 9 or mode == 'bold'
    then: {judge: rich}
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("packs")
    (root / "readers" / "pages").mkdir(parents=True)
    (root / "readers" / "pack.yaml").write_text(PACK, encoding="utf-8")
    (root / "readers" / "judgments.yaml").write_text(JUDGMENTS, encoding="utf-8")
    for name, text in PAGES.items():
        (root / "readers" / "pages" / f"{name}.yaml").write_text(text, encoding="utf-8")
    (root / "house").mkdir()
    (root / "house" / "richer.yaml").write_text(HOUSE, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def reads(root):
    return Engine(load_pack(root, "readers")).reads


def test_strata_count_a_positive_judgment_as_chaining_and_a_negated_or_compared_one_as_final(
        reads):
    needs = {rule_id: read.needs for rule_id, read in reads.derivations.items()}
    assert needs["j.rich"] == ((("judgment", "coins"), True),)  # `>=`: a comparison
    assert needs["j.bold"] == ((("judgment", "rich"), False), (("judgment", "mode"), True))
    assert needs["j.armed"] == ((("judgment", "rich"), True),  # under `not`
                                (("kind", "option"), False), (("field", "option.strong"), False))
    assert needs["j.double"] == ((("kind", "option"), False),
                                 (("field", "option.strength"), True),
                                 (("field", "option.strength"), True))  # the condition, the value
    assert reads.derivations["j.strong"].concludes == (("field", "option.strong"),)


def test_a_judgment_comes_down_to_what_its_derivations_read_in_the_order_written(reads):
    assert reads.sources[(NAME, "rich")] == [(NAME, "coins")]
    assert reads.sources[(NAME, "bold")] == [(NAME, "rich"), (NAME, "mode")]
    assert reads.sources[(NAME, "armed")] == [(KIND, "option"), (NAME, "rich"),
                                              (FIELD, "option.strong")]
    # what an earlier derivation of the same judgment read is not repeated; a derivation's
    # own repeats (its condition's, then its value's `o.strength`) are kept
    assert reads.sources[(FIELD, "option.double")] == [
        (KIND, "option"), (FIELD, "option.strength"), (FIELD, "option.strength")]
    # a board judgment's derivations as the walk reads them: the condition, then the value
    [(condition, value)] = reads.by_rule[(NAME, "armed")]
    assert str(condition) == "not rich and exists option as o (o.strong)"
    assert value == []
    assert (FIELD, "option.double") not in reads.by_rule  # an entity field: all it mentions


def test_what_changed_reaches_the_derivations_reading_it_and_reuse_watches_every_input(reads):
    assert reads.readers[("judgment", "rich")] == {"j.bold", "j.armed"}
    assert reads.readers[("kind", "option")] == {"j.strong", "j.double", "j.armed"}
    assert reads.readers[("field", "option.strong")] == {"j.armed"}
    assert ("judgment", "actions_left") not in reads.readers  # only decision lines read it
    assert reads.derived_from.names == {"coins", "rich", "mode"}
    assert reads.derived_from.kinds == {"option"}


def test_what_a_judgment_or_an_entity_field_is_made_of_and_what_only_shows(reads):
    assert reads.judgment_inputs == {"rich": {"coins"}, "bold": {"rich", "mode", "coins"},
                                     "armed": {"rich", "coins"}}
    assert reads.judgment_fields["armed"] == {"strong"}
    assert reads.fields_behind["double"] == {"double", "strength"}
    assert reads.field_inputs["double"] == set()  # no board name: only the option's own
    assert reads.shown_fields == {"double"}  # `strong` is read by j.armed and act.spend


def test_a_line_reads_its_templates_target_and_its_named_preference(reads):
    spend = reads.rules["act.spend"]
    # the template's `where: not used` joins the line's own; the target is not optional, so
    # a candidate is part of the condition; `{use: strongest}` reads `strong`
    assert str(spend.condition) == "bold and a option with not used and strength >= 1"
    assert spend.names == ("bold",)
    assert spend.fields == {"used", "strength", "strong"}
    assert spend.outcome == ((KIND, "option"), (FIELD, "option.used"),
                             (FIELD, "option.strength"), (FIELD, "option.strong"))
    assert reads.rules["turn.act"].outcome == ()  # a fixed `goto` computes no page name
    assert reads.aliases == {"target": "option"}


def test_a_house_rule_replacing_a_derivation_changes_what_its_judgment_reads(root):
    reads = Engine(load_pack(root, "readers", [root / "house"])).reads
    assert "j.rich" not in reads.derivations
    assert reads.sources[(NAME, "rich")] == [(NAME, "coins"), (NAME, "mode")]
    assert reads.readers[("judgment", "mode")] == {"house.rich", "j.bold"}
    assert reads.judgment_inputs["armed"] == {"rich", "coins", "mode"}


def test_an_engine_from_the_cache_decides_with_the_analysis_it_was_built_with(
        root, tmp_path, monkeypatch):
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    folders = [root / "readers"]
    built = cached("engine", folders, rule_files, lambda: Engine(load_pack(root, "readers")))

    def again(*_):
        raise AssertionError("the analysis was worked out again")

    monkeypatch.setattr("whybot.engine.decide.pack_reads", again)
    engine = cached("engine", folders, rule_files, again)
    assert engine is not built
    assert engine.reads.sources == built.reads.sources
    assert engine.reads.readers == built.reads.readers
    situation = parse_snapshot("pack: readers\ncoins: 7\nmode: bold\n"
                               "options: [{action: tax, strength: 4}]\n", "s.yaml", engine.pack)
    trace = engine.decide(situation, seed=1, reading=Reading())  # reach reads the analysis
    assert [a.rule for a in trace.decision.actions] == ["act.spend"]
    assert trace.as_dict() == built.decide(situation, seed=1, reading=Reading()).as_dict()


CROWD = """\
pack: crowd
title: A derivation counts, inside arithmetic, the entities another derivation creates
start: turn
facts:
  board:
    seats: {type: integer, minimum: 0, maximum: 9, default: 0}
  entities:
    guest:
      created: true
      fields:
        name: {type: string}
  judgments:
    crowded: "Are there more than two guests, counting the host?"
"""
CROWD_RULES = """\
pack: crowd
procedure: judgments
kind: derivation
source: crowd § judgments
rules:
  - id: j.crowded
    when: count(guest) + 1 > 2
    then: {judge: crowded}
  - id: j.seat
    when: seats > 0
    then: {create: guest, with: {name: "'seated'"}}
"""
CROWD_PAGE = """\
pack: crowd
procedure: turn
source: crowd § turn
rules:
  - id: turn.full
    when: crowded
    then: {stop: full}
  - id: turn.room
    then: {stop: room}
"""


def test_an_aggregate_inside_arithmetic_waits_for_the_derivations_creating_its_kind(
        tmp_path: Path) -> None:
    (tmp_path / "crowd" / "pages").mkdir(parents=True)
    (tmp_path / "crowd" / "pack.yaml").write_text(CROWD, encoding="utf-8")
    (tmp_path / "crowd" / "judgments.yaml").write_text(CROWD_RULES, encoding="utf-8")
    (tmp_path / "crowd" / "pages" / "turn.yaml").write_text(CROWD_PAGE, encoding="utf-8")
    engine = Engine(load_pack(tmp_path, "crowd"))
    assert (("kind", "guest"), True) in engine.reads.derivations["j.crowded"].needs
    assert engine.strata.level["j.crowded"] > engine.strata.level["j.seat"]
