"""Computations for the Sparta vs Athens/Thebes solo bot (seed 004) that rules express badly.

Counting successes on dice, marking the regions a target can aim at, reading reward symbols.
The bot's choices stay in the rule files; these only count and mark.
"""

from __future__ import annotations

import re
from typing import Any

ASSETS = ("elite", "skirmisher", "cavalry")
SYMBOLS = (*ASSETS, "navy")
NO_MATCH = 9
_TEMPLATE = re.compile(r"\{([a-z_][a-z0-9_.]*)\}")


def success_faces(settings: dict[str, Any]) -> list[int]:
    """The d6 faces counted as a success (pack.yaml `settings.success_faces`, default 4-6)."""
    faces = settings.get("success_faces", [4, 5, 6])
    return sorted({int(f) for f in faces if 1 <= int(f) <= 6})


def faces_text(faces: list[int]) -> str:
    return ", ".join(str(f) for f in faces) if faces else "no face"


def symbols(reward: str) -> list[str]:
    """Reward symbols left to right: 'elite, talent' → ['elite', 'talent']."""
    return [s for s in re.split(r"[\s,;/]+", reward.lower()) if s]


def _fill(text: str, state: dict[str, Any]) -> str:
    def plain(match: re.Match) -> str:
        value = state.get(match.group(1))
        return "" if value is None else str(value)
    return _TEMPLATE.sub(plain, text)


def count_successes(faces: list[int], good: list[int]) -> int:
    return sum(1 for face in faces if face in good)


def fight_dice(strength: str, raid_costs_control: bool) -> int:
    """Deployment #1: advantaged 0, tied 1, disadvantaged 2; one fewer if a raid costs control."""
    dice = {"advantaged": 0, "tied": 1, "disadvantaged": 2}[strength]
    return max(0, dice - (1 if raid_costs_control else 0))


def _objective_symbols(board: dict[str, Any], regions: list[dict[str, Any]]) -> list[str]:
    for region in regions:
        if region["objective"]:
            return symbols(region["reward"])
    return []


def sa_facts(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             data: dict[str, Any], settings: dict[str, Any]) -> None:
    """Fill in the computed observations of a snapshot, in place."""
    board["success_text"] = faces_text(success_faces(settings))
    regions = entities.setdefault("region", [])
    wanted = str(board.get("objective_region", "none")).strip().lower()
    for region in regions:
        shown = symbols(region["reward"])
        for symbol in SYMBOLS:
            region[symbol] = symbol in shown
        region["objective"] = region["name"].strip().lower() == wanted
        region["candidate"] = False
        region["least"] = False
    board["objective_taken"] = any(r["objective"] and r["control"] == "bot" for r in regions)
    objective = _objective_symbols(board, regions)
    for region in regions:
        shown = symbols(region["reward"])
        matches = [i for i, s in enumerate(objective, start=1) if s in shown]
        region["symbol_match"] = min(matches) if matches and not region["objective"] else NO_MATCH
    for asset in entities.setdefault("asset", []):
        asset["on_map"] = any(r[asset["category"]] and r["control"] != "bot" for r in regions)
    for force in entities.setdefault("enemy_force", []):
        strength = board["land"] if force["battle"] == "land" else board["sea"]
        force["fight_dice"] = fight_dice(strength, force["raid_costs_control"])
    for mobilisation in entities.setdefault("player_mobilisation", []):
        mobilisation["check_order"] = 1 if mobilisation["force"] == "navy" else 2
    for option in entities.setdefault("card_option", []):
        option["eligible"] = True


# --- called by `then.compute` ---------------------------------------------------------------


def roll_successes(work: Any) -> None:
    """Roll `dice_count` dice for `roll_for`; count the successes (`successes`, `all_success`).

    Zero or fewer dice: nothing is rolled, no successes, and "all dice are successes" holds.
    """
    good = success_faces(work.settings)
    count = int(work.state.get("dice_count") or 0)
    purpose = _fill(str(work.state.get("roll_for") or "test"), work.state)
    if count <= 0:
        work.state["successes"] = 0
        work.state["all_success"] = True
        work.note(f"{purpose}: no dice to roll ({count} after modifiers).")
        return
    dice = "1 die" if count == 1 else f"{count} dice"
    roll = work.dice.roll(count, 6, f"{purpose}: {dice}, success on {faces_text(good)}")
    hits = count_successes(roll.faces, good)
    work.state["successes"] = hits
    work.state["all_success"] = hits == count
    work.note(f"{purpose}: rolled {roll.faces} — {hits} success(es) out of {count} "
              f"(success on {faces_text(good)}).")


def mark_candidates(work: Any) -> None:
    """Mark the regions the target being generated can aim at, and those altered the least."""
    kind = work.state.get("target_kind")
    regions = work.entities.get("region", [])
    open_regions = [r for r in regions if r["control"] != "bot"]
    if kind == "economic":
        best = max((r["talents"] for r in open_regions), default=None)
        chosen = [r for r in open_regions if r["talents"] == best]
    elif kind == "army":
        category = work.state.get("asset_target.category")
        chosen = [r for r in open_regions if category in ASSETS and r[category]]
    elif kind == "navy":
        chosen = [r for r in open_regions if r["navy"]]
    else:
        chosen = []
    least = min((r["alteration"] for r in chosen), default=None)
    picked = {id(r) for r in chosen}
    for region in regions:
        region["candidate"] = id(region) in picked
        region["least"] = id(region) in picked and region["alteration"] == least
    names = ", ".join(r["name"] for r in chosen) or "none"
    work.note(f"{kind} target: candidate regions {names}"
              + (f"; least alteration {least}" if least is not None else "") + ".")


FUNCTIONS = {
    "sa_facts": sa_facts,
    "roll_successes": roll_successes,
    "mark_candidates": mark_candidates,
}
