"""`snapshot:` beside `say:`: the same instruction as the fields a snapshot gives. The table
reads the `say:`; the trace keeps both, each filled from the board; a `snapshot:` without a
`say:` is refused at load, naming the file, line and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import TOY_PACKS
from tests.engine.helpers import decide
from whybot.engine import Engine, RuleFileError, load_pack

SAID = '{say: "No luck."}'


def _toy(tmp_path: Path, then: str) -> Path:
    root = tmp_path / "packs"
    shutil.copytree(TOY_PACKS / "toy", root / "toy")
    page = root / "toy" / "pages" / "luck.yaml"
    page.write_text(page.read_text(encoding="utf-8").replace(SAID, then), encoding="utf-8")
    return root


def test_the_trace_keeps_both_words_and_the_table_reads_the_say(tmp_path: Path) -> None:
    root = _toy(tmp_path, '{say: "No luck: roll again.", snapshot: "dice: [{roll}]"}')
    engine = Engine(load_pack(root, "toy"))
    trace = decide(engine, "dice: [2]\n")
    assert trace.decision.say == ["No luck: roll again."]
    [said] = [step.as_dict() for step in trace.decision.steps]
    assert said == {"say": "No luck: roll again.", "page": "luck", "rule": "luck.lose",
                    "snapshot": "dice: [2]"}


def test_an_instruction_without_snapshot_words_keeps_its_old_shape(tmp_path: Path) -> None:
    trace = decide(Engine(load_pack(_toy(tmp_path, SAID), "toy")), "dice: [2]\n")
    assert [step.as_dict() for step in trace.decision.steps] == [
        {"say": "No luck.", "page": "luck", "rule": "luck.lose"}]


def test_snapshot_words_without_an_instruction_are_refused(tmp_path: Path) -> None:
    root = _toy(tmp_path, '{snapshot: "dice: [1]"}')
    refused = r"luck\.yaml:12 .*then\.snapshot.*snapshot: goes with say:"
    with pytest.raises(RuleFileError, match=refused):
        load_pack(root, "toy")
