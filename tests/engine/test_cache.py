"""The compiled pack kept on disk: reused while its files are unchanged, rebuilt when one
changes, and an engine read back from it decides exactly as a freshly compiled one."""

from __future__ import annotations

import shutil

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import Engine, load_pack
from whybot.engine import decide as decide_module
from whybot.engine.compile.disk_cache import cached
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
                      lambda: Engine(load_pack(TOY_PACKS, "rederive")), Engine.store_partials)

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
