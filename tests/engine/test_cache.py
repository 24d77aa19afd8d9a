"""The compiled pack kept on disk: reused while its files are unchanged, rebuilt when one
changes, and an engine read back from it decides exactly as a freshly compiled one."""

from __future__ import annotations

import gc
import shutil

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import Engine, load_pack
from whybot.engine import decide as decide_module
from whybot.engine.compile.disk_cache import cached, load, store
from whybot.engine.decide import PartialDerivations
from whybot.engine.load.loader import rule_files
from whybot.facts.snapshot import parse_snapshot


def test_a_cached_engine_is_reused_until_a_file_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "toy"
    shutil.copytree(TOY_PACKS / "toy", pack)
    builds = []

    def build():
        builds.append(1)
        return Engine(load_pack(tmp_path, "toy"))

    first = cached("engine", [pack], rule_files, build)
    again = cached("engine", [pack], rule_files, build)
    assert len(builds) == 1
    snapshot = "mood: angry\nready: true\ncoins: 2\n"
    assert decide(again, snapshot).fired() == decide(first, snapshot).fired()
    page = pack / "pages" / "turn.yaml"
    page.write_text(page.read_text().replace("Pay a coin", "Pay one coin"))
    cached("engine", [pack], rule_files, build)
    assert len(builds) == 2


def test_a_pack_read_through_a_link_is_its_own_entry(tmp_path, monkeypatch):
    """The compiled pack keeps each rule's file as the loader named it (traces cite it), so
    the same files read through a linked folder must not hand back the other's names."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "real").mkdir()
    shutil.copytree(TOY_PACKS / "toy", tmp_path / "real" / "toy")
    (tmp_path / "linked").symlink_to(tmp_path / "real")

    def build(root):
        return lambda: Engine(load_pack(root, "toy"))

    direct = cached("engine", [tmp_path / "real" / "toy"], rule_files, build(tmp_path / "real"))
    linked = cached("engine", [tmp_path / "linked" / "toy"], rule_files,
                    build(tmp_path / "linked"))
    files = {rule.file for rule in linked.pack.rules()}
    assert files and all(str(tmp_path / "linked") in file for file in files)
    assert {rule.file for rule in direct.pack.rules()} != files


def test_no_cache_when_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("WHYBOT_CACHE", "0")
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path / "cache"))
    cached("engine", [TOY_PACKS / "toy"], rule_files, lambda: 1)
    assert not (tmp_path / "cache").exists()


def test_an_unreadable_cache_entry_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    assert cached("x", [TOY_PACKS / "toy"], rule_files, lambda: "built") == "built"
    for entry in tmp_path.glob("x-*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert cached("x", [TOY_PACKS / "toy"], rule_files, lambda: "again") == "again"


def test_a_rederives_ruleset_is_kept_beside_the_engine(tmp_path, monkeypatch):
    """The ruleset of the derivations a rederive asks about, compiled in one process, is read
    from disk by the next (a batch compiled each again in every process), and decides
    alike."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path / "cache"))
    partial_compiles = []
    real = decide_module.compile_derivations

    def counted(pack, strata, only=None):
        if only is not None:
            partial_compiles.append(only)
        return real(pack, strata, only)

    def engine():
        return cached("engine", [TOY_PACKS / "rederive"], rule_files,
                      lambda: Engine(load_pack(TOY_PACKS, "rederive")), Engine.keep_beside)

    def said(engine):
        situation = parse_snapshot("pack: rederive\nphase: pay\nmembers: [{name: Ann, purse: 4}, "
                                   "{name: Bob, purse: 1}]\n", "s.yaml", engine.pack)
        return engine.decide(situation, seed=1).decision.say

    monkeypatch.setattr(decide_module, "compile_derivations", counted)
    monkeypatch.setattr(PartialDerivations, "AFTER", 1)  # compiled when first asked for
    first = said(engine())
    assert len(partial_compiles) == 1
    again = engine()
    assert said(again) == first == ["Ann holds 7.", "Bob holds 4.", "1 rich, 2 named."]
    assert len(partial_compiles) == 1 and again.deriver.partial.made  # read, used, not compiled
    rules = {rule.id: rule for rule in again.pack.rules()}
    units = [unit for made in again.deriver.partial.made.values() for unit in made.units.values()]
    assert units and all(unit.rule is rules[unit.rule.id] for unit in units)  # not copies


def test_objects_stored_by_name_are_taken_from_the_reader_and_an_unknown_name_is_no_entry(
        tmp_path, monkeypatch):
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    held = {"a": ["the reader's own"]}
    store("x-named", {"kept": [1, 2], "held": held["a"]},
          named=lambda value: "a" if value is held["a"] else None)
    found = load("x-named", held.get)
    assert found == {"kept": [1, 2], "held": ["the reader's own"]}
    assert found["held"] is held["a"]
    assert load("x-named", {}.get) is None  # names nothing it holds: rebuilt, not half-read
    assert load("x-named") is None


def test_the_walks_pages_and_subsets_are_kept_beside_the_engine(tmp_path, monkeypatch):
    """The pages a decision can reach and the derivations behind them, worked out in one
    process, are read by the next (each process of a batch worked them out again), and the
    next one's decisions use them as they are."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path / "cache"))

    def engine():
        return cached("engine", [TOY_PACKS / "reach"], rule_files,
                      lambda: Engine(load_pack(TOY_PACKS, "reach")), Engine.keep_beside)

    def said(engine):
        situation = parse_snapshot("pack: reach\nmode: south\nwind: 5\nrain: 5\n", "s.yaml",
                                   engine.pack)
        return engine.decide(situation, seed=1).decision.result

    first = engine()
    assert said(first) == "shelter" and first.walk_subset.new == 2  # a page set, a subset
    again = engine()
    assert again.walk_subset.known == first.walk_subset.known
    assert again.walk_subset.graph.known == first.walk_subset.graph.known
    assert said(again) == "shelter" and again.walk_subset.new == 0  # nothing worked out again


def test_a_cache_entry_is_loaded_with_the_collector_paused_and_left_as_it_was(tmp_path,
                                                                               monkeypatch):
    """An engine's thousands of containers are unpickled with the cyclic collector paused
    (its passes over the growing heap took most of a load's time): at most the one pass
    its re-enabling sets off, where 200,000 new containers would set off hundreds."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    nested = [[[index]] for index in range(100_000)]
    store("many", nested)
    passes = []

    def counted(phase, info):
        passes.append(phase)

    gc.callbacks.append(counted)
    try:
        found = load("many")
        assert passes in ([], ["start", "stop"]) and gc.isenabled() and found == nested
        gc.disable()
        assert load("many") == nested and not gc.isenabled()
    finally:
        gc.enable()
        gc.callbacks.remove(counted)


def test_what_an_entry_shares_it_still_shares_when_read_back(tmp_path, monkeypatch):
    """Entries are written without the memo entries nothing refers to (`pickletools`): what
    is referred to twice is still one object when read."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    shared, alone = ["shared"], ["alone"]
    store("x-shares", {"a": shared, "b": shared, "c": alone, "d": ("t", shared)})
    found = load("x-shares")
    assert found == {"a": ["shared"], "b": ["shared"], "c": ["alone"], "d": ("t", ["shared"])}
    assert found["a"] is found["b"] is found["d"][1] and found["c"] is not found["a"]


def test_a_ruleset_read_back_registers_the_text_it_was_compiled_to(tmp_path, monkeypatch):
    """A cached ruleset keeps its definition as the text the C core is sent: read back, it
    sends the very same text and holds the same definition (read from that text)."""
    monkeypatch.setenv("WHYBOT_CACHE_DIR", str(tmp_path))
    compiled = Engine(load_pack(TOY_PACKS, "toy")).deriver.compiled.rulesets
    store("x-rulesets", compiled)
    found = load("x-rulesets")
    assert [r.text for r in found] == [r.text for r in compiled]
    assert all(isinstance(r.__getstate__()["text"], str) for r in found)
    assert [r.definition for r in found] == [r.definition for r in compiled]
    with found[0].state() as state:  # registered from the text alone
        assert state.ruleset is found[0] and found[0].handle
