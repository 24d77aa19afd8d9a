"""Computations for the SUPERCAT pack that rules express badly: counting, ranking, card plays.

Called by name from pack.yaml (`facts.computed`); the bot's choices stay in the rule files.
"""

from __future__ import annotations

import math
from typing import Any

RESOURCES = ("material", "fuel", "weapon", "relic", "psionic")


def _place(bot: int, best: int, second: int) -> int:
    """The bot's place in an ambition, ties taking the better place; 0 if it has nothing."""
    if bot <= 0:
        return 0
    if bot >= best:
        return 1
    if bot >= second:
        return 2
    return 3


def _ambitions(board: dict[str, Any], ambitions: list[dict[str, Any]],
               by_number: dict[int, str]) -> None:
    number_of = {name: number for number, name in by_number.items()}
    for ambition in ambitions:
        bot, best = ambition["bot"], ambition["best_rival"]
        ambition["card_number"] = int(number_of.get(ambition["name"], 0))
        ambition["winning"] = bot > 0 and bot > best
        ambition["tied_first"] = bot > 0 and bot == best
        ambition["place"] = _place(bot, best, ambition["second_rival"])
    board["undeclared_winning"] = sum(
        1 for a in ambitions
        if a["winning"] and not a["declared"] and board["ambition_markers_available"])


def _plays(board: dict[str, Any], cards: list[dict[str, Any]],
           by_number: dict[int, str]) -> list[dict[str, Any]]:
    """Every way to play each card: lead, or (following) surpass, pivot, copy."""
    leading = board["initiative"] or board["lead_suit"] == "none"
    plays = []
    for index, card in enumerate(cards):
        base = {"card": index, "number": card["number"], "card_suit": card["suit"],
                "ambition": by_number.get(card["number"], "none"), "bonus": card["bonus"],
                "event": card["event"]}
        if card["event"]:
            plays.append({**base, "suit": "event", "mode": "event", "actions": 0})
            continue
        if leading:
            plays.append({**base, "suit": card["suit"], "mode": "lead",
                          "actions": card["pips"]})
            continue
        if card["suit"] == board["lead_suit"] and card["number"] > board["lead_number"]:
            plays.append({**base, "suit": card["suit"], "mode": "surpass",
                          "actions": card["pips"]})
        elif card["suit"] != board["lead_suit"]:
            plays.append({**base, "suit": card["suit"], "mode": "pivot", "actions": 1})
        plays.append({**base, "suit": board["lead_suit"], "mode": "copy", "actions": 1})
    for play in plays:
        play["fate_budget"] = math.ceil(play["actions"] / 2)
    return plays


def _declarations(plays: list[dict[str, Any]], ambitions: list[dict[str, Any]],
                  markers: bool) -> None:
    """Clarifications: declare if winning; if only tied for first, only an undeclared one."""
    by_name = {a["name"]: a for a in ambitions}
    for play in plays:
        ambition = by_name.get(play["ambition"])
        leading = play["mode"] == "lead" and ambition is not None and markers
        play["winning_ambition"] = bool(leading and ambition["winning"])
        play["declare_ok"] = bool(leading and (ambition["winning"] or (
            ambition["tied_first"] and not ambition["declared"])))


def arcs_facts(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               data: dict[str, Any], settings: dict[str, Any]) -> None:
    """Fill in the computed observations of a SUPERCAT snapshot, in place."""
    by_number = {int(n): name for n, name in data["ambition_by_card_number"].items()}
    board["resources"] = sum(board[r] for r in RESOURCES)
    board["half_unbuilt_cities"] = board["unbuilt_cities"] // 2
    cards = entities.setdefault("card", [])
    for card in cards:
        card["event"] = card["suit"] == "event"
    board["cards_in_hand"] = len(cards)
    _ambitions(board, entities.setdefault("ambition", []), by_number)
    entities["play"] = _plays(board, cards, by_number)
    _declarations(entities["play"], entities["ambition"], board["ambition_markers_available"])


def declare_selected_ambition(work: Any) -> None:
    """The declaration happens before the actions: the suit page sees the ambition declared."""
    name = work.state.get("selected.ambition")
    for ambition in work.entities.get("ambition", []):
        if ambition["name"] == name:
            ambition["declared"] = True
    work.state["undeclared_winning"] = sum(
        1 for a in work.entities.get("ambition", [])
        if a["winning"] and not a["declared"] and work.state["ambition_markers_available"])


FUNCTIONS = {"arcs_facts": arcs_facts, "declare_selected_ambition": declare_selected_ambition}
