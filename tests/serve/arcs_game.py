"""A scripted two-turn Arcs game for the web tests: the answers a player gives, by question.

Turn 1 is the README's demo situation (the bot cannot surpass, Taxes to contend Tycoon); turn
2 is the same table a round later, so the game file already knows the hand and seize counters
and the ambitions declared, and does not ask for them again. Facts the demo leaves out are
answered 0 / no, as a player with nothing of them would.
"""

from __future__ import annotations

from typing import Any

CARDS = [{"card": "administration 3"}, {"card": "construction 5"}]  # picked from the deck
PIPS = {"pips.administration 3": 3, "pips.construction 5": 2}  # left out: asked next, once
PICKED = [{"card": "administration 3", "pips": 3},  # the pips of a card new to the game,
          {"card": "construction 5", "pips": 2}]  # given beside it on the pick's page
AMBITIONS = [{"name": "tycoon", "declared": True, "bot": 1, "best_rival": 3, "second_rival": 1},
             {"name": "tyrant", "declared": False, "bot": 2, "best_rival": 1}]
OPTIONS = [{"action": "tax", "ambition": "tycoon", "resource": "material",
            "target": "Blue's city in Hexy 2"}]

# the bot's resources, asked as one question (play.yaml together:), or on the first turn
# with the bot's other remembered facts: each by its own id
RESOURCES = {"material": 0, "fuel": 0, "weapon": 0, "relic": 0, "psionic": 0}
# what else the game remembers that the rules of a bot turn can read (the demo leaves it out):
# asked on the bot's first page with its bonus cards and resources (facts/play/standing.py);
# the moves listed, the board's counts, else the seed's ("counting those it built this card")
STANDING = {"imperial_council": "in_session", "ships_available": 0, "starports": 1,
            "unbuilt_cities": 0, "flagship": False, "claims": 0, "agents_supply": 10,
            "damaged_ships": 0, "starports_now": 1, "cities_left": 0, "open_claims": 0}

TURN_1: dict[str, Any] = {  # in the order the procedure reaches them
    "hand_counter": 4, "bonus_cards": 0, **STANDING, "initiative": False, "cards": CARDS,
    **PIPS,
    "lead_suit": "aggression", "lead_number": 4,  # the card led, one question (led_card)
    "seize_counter": 1,
    "initiative_seized_this_round": False, "event_played_this_round": False,
    "ambitions": AMBITIONS, "ambition_markers_available": False, "options": OPTIONS,
    "bot_resources": RESOURCES, **RESOURCES, "weapon_guild_cards": 0, "union_cards": 0,
    "golems": [], "rival_controlled": 0,
}
TURN_2 = {k: v for k, v in TURN_1.items()  # the game file knows the counters and pips now
          if k not in ("hand_counter", "seize_counter", *PIPS)}
# what the player said last turn (bonus cards first) is offered at once, before the first of
# it is read; the script gives it anew, so: changed
TURN_2 = {"unchanged": False, **TURN_2}

# the questions the two turns ask: on the bot's first, every fact the game remembers that the
# rules of a bot turn can read (from its bonus cards on: the ambition markers, the resources,
# the Guild counts, …) is one page; on the second, what was said is offered as it was said
# (the script changes it: each asked as the walk reads it, those it does not read not at all)
PAGE = ("bonus_cards", "ambition_markers_available", *STANDING, *RESOURCES,
        "weapon_guild_cards", "union_cards", "rival_controlled")
ASKED_1 = [{"bonus_cards": "standing", "lead_suit": "led_card"}.get(q, q) for q in TURN_1
           if q not in (*PAGE[1:], "bot_resources", "lead_number")]
ASKED_2 = [("led_card" if q == "lead_suit" else q) for q in TURN_2
           if q not in (*RESOURCES, *STANDING, "rival_controlled", "lead_number")]

SETUP = {"pack": "arcs", "seat0": "red", "seat0.fate": "none", "act": "1",
         "difficulty": "none", "seed": "7"}  # seed 7: turn 2's seize roll fails too


def as_text(value: Any) -> str:
    """A value as a player types it into the page."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def group_cells(values: dict[str, Any]) -> dict[str, str]:
    """Facts asked together as the page's fields send them (`value.FACT`)."""
    return {f"value.{name}": as_text(v) for name, v in values.items()}


def cells(rows: list[dict[str, Any]]) -> dict[str, str]:
    """An entity list as the page's table sends it (`value.ROW.FIELD`)."""
    return {f"value.{i}.{name}": as_text(v) for i, row in enumerate(rows)
            for name, v in row.items()}

# A normal-difficulty turn answered as the bot's flowchart asks it (no list of moves): the
# bot leads, Taxes twice to contend Tycoon (declared, 1 against 3), then nothing applies.
# A list gives a question's answers in the order it is asked (again after each action).
CONSULT: dict[str, Any] = {
    "hand_counter": 4, "power": 2, "player_power": 3, "bonus_cards": 0, **STANDING,
    "ambition_markers_available": True,
    "initiative": True, "cards": PICKED, "seize_counter": 0, "ambitions": AMBITIONS[:1],
    "can.secure.contend_declared": False, "can.tax.contend_declared": [True, True, False],
    "bot_resources": RESOURCES, **RESOURCES, "weapon_guild_cards": 0, "union_cards": 0,
    "golems": [], "loyal_buildings_rival_controlled": False, "guild_cards": [],
    "can.tax.contend_undeclared": False, "can.tax.captives": False, "can.influence.card": False,
    "trust_contends_declared": False, "can.repair.rival_building": False,
    "can.repair.any": False, "can.tax.grow_lead": False, "can.tax.any": False,
    "named.1": "Blue's city in Hexy 2", "named.2": "Yellow's city in Arrow 1",
}
