"""The pack's computations: success faces (a pack setting) and counting successes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.sparta_athens.helpers import decide
from whybot.engine.dice import Dice


def _functions():
    import importlib.util

    from tests.conftest import KNOWLEDGE

    path = KNOWLEDGE / "sparta_athens" / "functions.py"
    spec = importlib.util.spec_from_file_location("sa_functions_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


F = _functions()


@dataclass
class Work:
    state: dict[str, Any]
    settings: dict[str, Any]
    dice: Dice
    entities: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.notes.append(text)


def test_default_success_faces_are_four_to_six(sa):
    """pack.yaml settings: the documented default."""
    assert F.success_faces(sa.pack.settings) == [4, 5, 6]
    assert F.success_faces({}) == [4, 5, 6]


def test_success_faces_follow_the_setting():
    """A game whose dice succeed on one face in three: success_faces [5, 6]."""
    work = Work({"dice_count": 3, "roll_for": "test"}, {"success_faces": [5, 6]},
                Dice(None, [4, 5, 6]))
    F.roll_successes(work)
    assert work.state["successes"] == 2 and work.state["all_success"] is False
    assert "success on 5, 6" in work.dice.rolls[0].purpose
    assert "success on 5, 6" in work.notes[0]


def test_zero_or_fewer_dice_roll_nothing():
    """Line 124 (zero dice: fight) and the new-mobilisation reading: no dice, nothing fails."""
    work = Work({"dice_count": -1, "roll_for": "test"}, {}, Dice(None, []))
    F.roll_successes(work)
    assert work.dice.rolls == [] and work.state["all_success"] is True


def test_every_roll_names_the_success_faces(sa):
    """Each roll's purpose text shows which faces counted."""
    trace = decide(sa, "raid", dice=[4, 3], land="tied")
    assert trace.dice[0]["for"].endswith("success on 4, 5, 6")


def test_fight_dice_floor_at_zero():
    """Lines 116-124: advantaged 0, tied 1, disadvantaged 2, one fewer for a raid, never < 0."""
    assert [F.fight_dice(s, False) for s in ("advantaged", "tied", "disadvantaged")] == [0, 1, 2]
    assert [F.fight_dice(s, True) for s in ("advantaged", "tied", "disadvantaged")] == [0, 0, 1]


def test_symbols_read_left_to_right():
    assert F.symbols("Navy, talent  elite") == ["navy", "talent", "elite"]
