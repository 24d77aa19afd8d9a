"""Computations for the Yellow Scarves pack that rules express badly.

Seed: 002_9cbd25616f62d60b.txt (Conquest of the Three Kingdoms, co-op "The Yellow Scarves
Uprising"). The map is data (the snapshot's `provinces:` and `borders:`); these functions only
read it: neighbours by compass direction, north-to-south order, even distribution with ordered
leftovers and unit caps, roll-offs. The bot's choices (which action, which fallback, when to
stop) stay in the rule files; every die goes through `work.dice` so it is traced.

Pure helpers (`distribute`, `ordered`, `neighbours`, `eligible_targets`, `pick_direction`,
`invasion_over`) are tested on their own in tests/yellow_scarves/test_functions.py.
"""

from __future__ import annotations

from typing import Any

DIRECTIONS = ("N", "E", "S", "W")
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
WORD = {"N": "North", "E": "East", "S": "South", "W": "West"}
MAX_GENERALS = 3  # § Bot Generals: "up to 3 Generals"

PROVINCE_FIELDS = ("name", "owner", "units", "ruler", "generals", "cap", "north_rank", "gold",
                   "acted", "blocked", "capture_number", "captured_round", "side", "mine",
                   "locked", "targets")


# --- pure helpers ------------------------------------------------------------------------


def ordered(provinces: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """'top_down' = northernmost first (north_rank 1 is the top of the board); else bottom up."""
    return sorted(provinces, key=lambda p: p["north_rank"], reverse=order == "bottom_up")


def order_of(roll: int) -> str:
    """§ Bot Turn Behavior: an even d6 is 'top down', an odd one 'bottom up'."""
    return "top_down" if roll % 2 == 0 else "bottom_up"


def room(province: dict[str, Any]) -> int | None:
    """Units the province can still take under its unit cap (None: no cap given)."""
    cap = province.get("cap") or 0
    if cap <= 0:
        return None
    return max(0, cap - province.get("units", 0))


def distribute(count: int, slots: list[dict[str, Any]]) -> tuple[list[int], int]:
    """Spread `count` units evenly over `slots` (already in leftover priority order).

    Each slot gets the same share; the leftovers go one each to the first slots in order
    (the d6's 'top down' or 'bottom up'). A slot at its unit cap takes no more; what it cannot
    take is shared again among the others. Returns (units added per slot, units that fit
    nowhere).

    >>> distribute(11, [{"units": 0}] * 5)
    ([3, 2, 2, 2, 2], 0)
    """
    added = [0] * len(slots)
    remaining = count
    while remaining > 0:
        open_ = [i for i, s in enumerate(slots) if _room_left(s, added[i]) != 0]
        if not open_:
            break
        share, extra = divmod(remaining, len(open_))
        given = 0
        for rank, i in enumerate(open_):
            want = share + (1 if rank < extra else 0)
            left = _room_left(slots[i], added[i])
            take = want if left is None else min(want, left)
            added[i] += take
            given += take
        remaining -= given
        if given == 0:
            break
    return added, remaining


def _room_left(slot: dict[str, Any], added: int) -> int | None:
    left = room(slot)
    return None if left is None else left - added


def neighbours(name: str, borders: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(direction, neighbour) pairs of a province; a border given once works both ways."""
    found: list[tuple[str, str]] = []
    for border in borders:
        if border["from"] == name:
            pair = (border["direction"], border["to"])
        elif border["to"] == name:
            pair = (OPPOSITE[border["direction"]], border["from"])
        else:
            continue
        if pair not in found:
            found.append(pair)
    return found


def can_invade(attacking_units: int, defenders: int) -> bool:
    """§ Bot Invasion Rules: at least twice the defenders, plus one (one unit stays behind)."""
    return attacking_units >= 2 * defenders + 1


def eligible_targets(province: dict[str, Any], by_name: dict[str, dict[str, Any]],
                     borders: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Adjacent neutral or player provinces the province is strong enough to invade."""
    result = []
    for direction, name in neighbours(province["name"], borders):
        other = by_name.get(name)
        if other is None or other["side"] == "bot":  # bots do not invade bots
            continue
        if can_invade(province["units"], other["units"]):
            result.append((direction, other))
    return result


def pick_direction(candidates: list[tuple[str, dict[str, Any]]], priority: list[str]
                   ) -> tuple[str | None, list[dict[str, Any]]]:
    """The first direction of the D4 list with a candidate; there, players before neutrals.

    Returns the direction and the provinces still tied (more than one: the players choose).
    """
    for direction in priority:
        here = [p for d, p in candidates if d == direction]
        if not here:
            continue
        players = [p for p in here if p["side"] == "player"]
        return direction, players or here
    return None, []


def invasion_over(attackers_left: int, defenders_left: int) -> str:
    """'won', 'stopped' (attackers reduced to equal or fewer than defenders) or 'continue'."""
    if defenders_left <= 0:
        return "won"
    if attackers_left <= defenders_left:
        return "stopped"
    return "continue"


def roll_off(players: list[dict[str, Any]], dice: Any, purpose: str) -> dict[str, Any] | None:
    """All players roll a d6 and re-roll ties; the lowest roller is returned."""
    if not players:
        return None
    if len(players) == 1:
        return players[0]
    rolling = list(players)
    while True:
        rolls = [(dice.roll(1, 6, f"{purpose} roll-off: {p['name']}").total, p)
                 for p in rolling]
        low = min(r for r, _ in rolls)
        lowest = [p for r, p in rolls if r == low]
        if len(lowest) == 1:
            return lowest[0]
        rolling = lowest


# --- the facts of a snapshot ---------------------------------------------------------------


def ys_facts(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
             data: dict[str, Any], settings: dict[str, Any]) -> None:
    """Computed observations: whose each province is, locked provinces, the bot's totals."""
    provinces = entities.setdefault("province", [])
    borders = entities.setdefault("border", [])
    bots = {b["name"] for b in entities.setdefault("bot", [])}
    players = {p["name"] for p in entities.setdefault("player", [])}
    names = [p["name"] for p in provinces]
    if len(set(names)) != len(names):
        raise ValueError("provinces: two provinces have the same name")
    for border in borders:
        for end in ("from", "to"):
            if border[end] not in names:
                raise ValueError(f"borders: {border[end]!r} is not a listed province")
    if board.get("step") in ("turn", "invasion_continue") and not board.get("bot"):
        raise ValueError(f"step {board['step']}: say whose turn it is with bot: NAME")
    if board.get("bot") and board["bot"] not in bots and board.get("step") != "setup":
        raise ValueError(f"bot {board['bot']!r} is not listed under bots:")
    if board.get("step") == "invasion_continue":
        for end in ("invasion_from", "invasion_to"):
            if board.get(end) not in names:
                raise ValueError(f"step invasion_continue: {end} {board.get(end)!r} is not a "
                                 "listed province")
    for province in provinces:
        owner = province["owner"]
        if owner == "neutral":
            province["side"] = "neutral"
        elif owner in bots:
            province["side"] = "bot"
        elif owner in players:
            province["side"] = "player"
        else:
            raise ValueError(f"province {province['name']!r}: owner {owner!r} is neither "
                             "neutral nor a listed bot or player")
    _refresh(board, entities)


def _refresh(board: dict[str, Any], entities: dict[str, list[dict[str, Any]]]) -> None:
    provinces = entities.get("province", [])
    borders = entities.get("border", [])
    by_name = {p["name"]: p for p in provinces}
    bot = board.get("bot", "")
    for province in provinces:
        province["mine"] = province["owner"] == bot and province["side"] == "bot"
        around = [by_name[n] for _, n in neighbours(province["name"], borders) if n in by_name]
        province["locked"] = province["side"] == "bot" and all(
            p["side"] == "bot" for p in around)
        province["targets"] = len(eligible_targets(province, by_name, borders)) \
            if province["side"] == "bot" else 0
    mine = [p for p in provinces if p["mine"]]
    record = _bot(entities, bot)
    board["bot_provinces"] = len(mine)
    board["bot_units"] = sum(p["units"] for p in mine)
    board["bot_generals"] = sum(p["generals"] for p in mine) + (
        record["reserve_generals"] if record else 0)
    board["reserve_generals"] = record["reserve_generals"] if record else 0
    board["ruler_in_play"] = any(p["ruler"] for p in mine)
    board["province_gold"] = sum(p["gold"] for p in mine)
    board["open_provinces"] = sum(1 for p in mine if not p["locked"])
    board["player_count_listed"] = len(entities.get("player", []))
    board["bots_provinces_left"] = sum(1 for p in provinces if p["side"] == "bot")
    board["bots_units_left"] = sum(p["units"] + p["generals"] + (1 if p["ruler"] else 0)
                                   for p in provinces if p["side"] == "bot") + sum(
        b["reserve_generals"] for b in entities.get("bot", []))


def _bot(entities: dict[str, list[dict[str, Any]]], name: str) -> dict[str, Any] | None:
    return next((b for b in entities.get("bot", []) if b["name"] == name), None)


# --- computations called by rules (`then: {compute: NAME}`) --------------------------------


def _push(work: Any) -> dict[str, Any] | None:
    """Write the `each` loop's current.* board values into the current province."""
    if not work.state.get("current"):
        return None
    current = _province(work, work.state.get("current.name"))
    if current is not None:
        for name in PROVINCE_FIELDS:
            key = f"current.{name}"
            if key in work.state:
                current[name] = work.state[key]
    return current


def _pull(work: Any) -> None:
    """Recompute the totals; bring the current province's fields back to the board."""
    _refresh(work.state, work.entities)
    if work.state.get("current"):
        current = _province(work, work.state.get("current.name"))
        if current is not None:
            for name in PROVINCE_FIELDS:
                work.state[f"current.{name}"] = current.get(name)


def _province(work: Any, name: Any) -> dict[str, Any] | None:
    return next((p for p in work.entities.get("province", []) if p["name"] == name), None)


def _mine(work: Any) -> list[dict[str, Any]]:
    return [p for p in work.entities.get("province", []) if p["mine"]]


def _place_order(work: Any, purpose: str) -> str:
    roll = work.dice.roll(1, 6, purpose).total
    order = order_of(roll)
    work.note(f"d6 = {roll} ({'even' if roll % 2 == 0 else 'odd'}): "
              f"{order.replace('_', ' ')} — {purpose}.")
    return order


def _spread(work: Any, count: int, targets: list[dict[str, Any]], purpose: str,
            what: str, report: bool = True) -> int:
    """Even distribution over targets (unit caps respected), leftovers by a d6; returns lost."""
    if count <= 0 or not targets:
        return count
    order = "top_down"
    if _outcome(count, targets, "top_down") != _outcome(count, targets, "bottom_up"):
        order = _place_order(work, purpose)  # only when the leftovers' order matters
    slots = ordered(targets, order)
    added, lost = distribute(count, slots)
    for province, n in zip(slots, added, strict=True):
        province["units"] += n
        if n and report:
            work.note(f"{what}: {n} Infantry to {province['name']} "
                      f"(now {province['units']}).")
    return lost


def _outcome(count: int, targets: list[dict[str, Any]], order: str) -> dict[str, int]:
    row = ordered(targets, order)
    return {p["name"]: n for p, n in zip(row, distribute(count, row)[0], strict=True)}


def refresh(work: Any) -> None:
    """Recompute locked provinces, eligible targets and the bot's totals."""
    _push(work)
    _pull(work)


def place_reserve_generals(work: Any) -> None:
    """§ Bot Generals: a General held in reserve is placed at the start of the next turn."""
    _push(work)
    record = _bot(work.entities, work.state["bot"])
    while record and record["reserve_generals"] > 0:
        if not _place_general(work, "reserve General placement"):
            work.note("The General still cannot be placed: it stays in reserve.")
            break
        record["reserve_generals"] -= 1
    _pull(work)


def _place_general(work: Any, purpose: str) -> bool:
    """d6 top down / bottom up, preferring provinces with neither a General nor the Ruler."""
    candidates = [p for p in _mine(work) if not p["blocked"]]
    if not candidates:
        return False
    unlocked = [p for p in candidates if not p["locked"]]
    candidates = unlocked or candidates
    order = _place_order(work, purpose)
    row = ordered(candidates, order)
    free = [p for p in row if not p["generals"] and not p["ruler"]]
    chosen = (free or row)[0]
    chosen["generals"] += 1
    reason = "the first without a General or the Ruler" if free else \
        "every province already has a General or the Ruler: the first in order"
    work.note(f"Place a bot General in {chosen['name']} ({reason}).")
    return True


def deploy(work: Any) -> None:
    """§ Bot Turn Behavior, Deployment: even spread, leftovers by d6; caps; the rest is lost."""
    _push(work)
    income = work.state["income"]
    targets = [p for p in _mine(work) if not p["locked"] and not p["blocked"]]
    if not targets:
        targets = [p for p in _mine(work) if not p["blocked"]]
    lost = _spread(work, income, targets, "deployment leftovers", "Deploy")
    work.state["units_lost"] = lost
    if lost:
        work.note(f"{lost} Infantry cannot be placed (every province at its unit cap): "
                  "they are lost.")
    _pull(work)


def roll_off_players(work: Any) -> None:
    """Assassination / Bribe: all players roll a d6, re-roll ties; the lowest is checked."""
    _push(work)
    purpose = work.state.get("roll_off_for") or "roll-off"
    player = roll_off(work.entities.get("player", []), work.dice, purpose)
    if player is None:
        work.state["lowest_player"] = ""
        work.state["lowest_ruler"] = False
        work.state["lowest_generals"] = 0
    else:
        work.state["lowest_player"] = player["name"]
        work.state["lowest_ruler"] = bool(player["ruler"])
        work.state["lowest_generals"] = player["generals"]
        work.note(f"Lowest roller: {player['name']} (Ruler in play: "
                  f"{'yes' if player['ruler'] else 'no'}, Generals: {player['generals']}).")
    _pull(work)


def bribe_general(work: Any) -> None:
    """A bribed General joins the bot in the province it captured most recently."""
    _push(work)
    mine = _mine(work)
    latest = max(mine, key=lambda p: (p["capture_number"], -p["north_rank"]), default=None)
    if latest is not None:
        latest["generals"] += 1
        work.note(f"Add a bot General to {latest['name']} (the province the bot captured "
                  "most recently).")
    _pull(work)


def rally_troops(work: Any) -> None:
    """D8 = 3: two Infantry join the province at once (a full province loses the rest)."""
    current = _push(work)
    if current is not None:
        left = room(current)
        added = 2 if left is None else min(2, left)
        current["units"] += added
        work.note(f"Add {added} Infantry to {current['name']} (now {current['units']}).")
        if added < 2:
            work.note(f"{2 - added} Infantry cannot be placed ({current['name']} is at its "
                      "unit cap): lost.")
    _pull(work)


def rally_options(work: Any) -> None:
    """Neutral provinces adjacent to the bot's Ruler."""
    _push(work)
    ruler = next((p for p in _mine(work) if p["ruler"]), None)
    options = []
    if ruler is not None:
        by_name = {p["name"]: p for p in work.entities["province"]}
        options = [n for _, n in neighbours(ruler["name"], work.entities["border"])
                   if by_name[n]["side"] == "neutral"]
    work.state["rally_count"] = len(options)
    work.state["ruler_province"] = ruler["name"] if ruler else ""
    _pull(work)


def rally_neutral(work: Any) -> None:
    """Rally: the chosen neutral province joins the bot, its Ruler moves in (§ Rallying)."""
    _push(work)
    by_name = {p["name"]: p for p in work.entities["province"]}
    ruler = by_name[work.state["ruler_province"]]
    candidates = [(d, by_name[n]) for d, n in neighbours(ruler["name"], work.entities["border"])
                  if by_name[n]["side"] == "neutral"]
    if len(candidates) == 1:
        direction, chosen = candidates[0][0], [candidates[0][1]]
    else:
        roll = work.state["direction_roll"]
        priority = work.data["directions"][roll]
        direction, chosen = pick_direction(candidates, priority)
        work.note(f"D4 = {roll}: directions in order {', '.join(priority)}; "
                  f"first with a neutral neighbour: {WORD[direction]}.")
    if len(chosen) > 1:
        names = " or ".join(p["name"] for p in chosen)
        work.state["ask"] = True
        work.note(f"More than one neutral province lies {WORD[direction]}: the players choose "
                  f"which one is rallied ({names}); then move the Ruler and turn its units as "
                  "below.")
    target = chosen[0]
    work.state["rally_target"] = " or ".join(p["name"] for p in chosen)
    if len(chosen) == 1:
        target["owner"] = work.state["bot"]
        target["side"] = "bot"
        target["acted"] = True
        ruler["ruler"] = False
        target["ruler"] = True
    _pull(work)


def choose_target(work: Any) -> None:
    """The D4 direction list, then players before neutrals; several left: the players choose."""
    current = _push(work)
    assert current is not None
    by_name = {p["name"]: p for p in work.entities["province"]}
    candidates = eligible_targets(current, by_name, work.entities["border"])
    roll = work.state["direction_roll"]
    priority = work.data["directions"][roll]
    direction, chosen = pick_direction(candidates, priority)
    listed = ", ".join(f"{p['name']} ({WORD[d]}, {p['units']} units)" for d, p in candidates)
    work.note(f"Invasion targets of {current['name']}: {listed}. D4 = {roll}: "
              f"{', '.join(WORD[d] for d in priority)} → {WORD[direction or 'N']}.")
    work.state["target_name"] = " or ".join(p["name"] for p in chosen)
    work.state["target_direction"] = WORD[direction or "N"]
    work.state["target_units"] = chosen[0]["units"] if chosen else 0
    work.state["ask"] = len(chosen) > 1
    work.state["attackers"] = current["units"] - 1
    work.state["invasion_from"] = current["name"]
    work.state["invasion_to"] = work.state["target_name"]
    current["acted"] = True
    _pull(work)
    work.state["acted_list"] = ", ".join(
        p["name"] for p in _mine(work) if p["acted"]) or "none"


def resolve_invasion(work: Any) -> None:
    """Players reported attackers and defenders left: won, stopped, or fight on."""
    _push(work)
    source = _province(work, work.state["invasion_from"])
    target = _province(work, work.state["invasion_to"])
    if source is None or target is None:
        raise_missing = work.state["invasion_from"] if source is None else \
            work.state["invasion_to"]
        work.state["invasion_state"] = "unknown"
        work.note(f"No province named {raise_missing!r}: check invasion_from / invasion_to.")
        return
    source["acted"] = True
    work.state["invasion_state"] = invasion_over(work.state["attackers_left"],
                                                 work.state["defenders_left"])
    _pull(work)


def capture(work: Any) -> None:
    """A won invasion: every available unit moves in; one stays behind (§ Bot Gameplay Rules)."""
    _push(work)
    source = _province(work, work.state["invasion_from"])
    target = _province(work, work.state["invasion_to"])
    assert source is not None and target is not None
    record = _bot(work.entities, work.state["bot"])
    moving = work.state["attackers_left"]
    target.update(owner=work.state["bot"], side="bot", units=moving, acted=True,
                  ruler=source["ruler"], generals=source["generals"])
    source.update(units=1, ruler=False, generals=0)
    if record is not None:
        record["captured"] += 1
        target["capture_number"] = record["captured"]
        target["captured_round"] = work.state["round"]
        work.state["captured_total"] = record["captured"]
    work.note(f"Move all {moving} attacking Infantry"
              + (", the Ruler" if target["ruler"] else "")
              + (f", {target['generals']} General(s)" if target["generals"] else "")
              + f" into {target['name']}; 1 Infantry stays in {source['name']}. "
              f"{target['name']} is now the bot's (capture no. {target['capture_number']}: "
              f"write capture_number: {target['capture_number']} and captured_round: "
              f"{work.state['round']} on it, and bot captured: "
              f"{target['capture_number']}).")
    _pull(work)


def end_invasion(work: Any) -> None:
    """The invasion stops: the attackers left return to (stay in) the invading province."""
    _push(work)
    source = _province(work, work.state["invasion_from"])
    target = _province(work, work.state["invasion_to"])
    assert source is not None and target is not None
    source["units"] = 1 + work.state["attackers_left"]
    target["units"] = work.state["defenders_left"]
    work.note(f"{source['name']} keeps {source['units']} Infantry; {target['name']} keeps "
              f"{target['units']} defenders.")
    _pull(work)


def reposition(work: Any) -> None:
    """§ Bot Repositioning: even spread, leftovers by d6; locked provinces keep 1 unit."""
    _push(work)
    mine = _mine(work)
    locked = [p for p in mine if p["locked"]]
    open_ = [p for p in mine if not p["locked"]]
    if not open_:
        work.note("Every bot province is locked: no province can receive units; they stay.")
        _pull(work)
        return
    pool = 0
    for province in open_:
        pool += province["units"]
        province["units"] = 0
    sent = {}
    for province in locked:
        sent[province["name"]] = max(0, province["units"] - 1)
        pool += sent[province["name"]]
        province["units"] = min(province["units"], 1)
    lost = _spread(work, pool, open_, "repositioning leftovers", "Reposition", report=False)
    for province in ordered(mine, "top_down"):
        work.note(f"After repositioning {province['name']} holds {province['units']} "
                  "Infantry" + (" (locked: keeps 1, sends the rest)" if province["locked"]
                                else "") + ".")
    for province in ordered(locked, "top_down"):  # units that cannot move stay
        if lost <= 0:
            break
        back = min(lost, sent[province["name"]])
        province["units"] += back
        lost -= back
        if back:
            work.note(f"{back} Infantry stay in locked {province['name']}: no province has "
                      "room under its unit cap.")
    leaders = [(p, "Ruler") for p in locked if p["ruler"]] + [
        (p, "General") for p in locked for _ in range(p["generals"])]
    if leaders:
        order = _place_order(work, "Ruler/General repositioning from a locked province")
        row = ordered(open_, order)
        for source, kind in leaders:
            empty = [p for p in row if not p["ruler"] and not p["generals"]]
            chosen = (empty or row)[0]
            if kind == "Ruler":
                source["ruler"], chosen["ruler"] = False, True
            else:
                source["generals"] -= 1
                chosen["generals"] += 1
            work.note(f"Move the bot's {kind} from locked {source['name']} to "
                      f"{chosen['name']}.")
    _pull(work)


def turn_general(work: Any) -> None:
    """§ Bot Generals: the 3rd-turn General at the end of the turn, or into reserve."""
    _push(work)
    if not _place_general(work, "3rd-turn General placement"):
        record = _bot(work.entities, work.state["bot"])
        if record is not None:
            record["reserve_generals"] += 1
        work.note("The General cannot be placed this turn: hold it in reserve; it is placed at "
                  "the start of the next turn (write reserve_generals on the bot).")
    _pull(work)


def capture_generals(work: Any) -> None:
    """§ Bot Generals: every 3rd province captured pays for a General placed in it."""
    _push(work)
    for province in _mine(work):
        number = province["capture_number"]
        if province["captured_round"] == work.state["round"] and number and number % 3 == 0:
            if work.state["bot_generals"] >= MAX_GENERALS:
                work.note(f"{province['name']} is capture no. {number}, but the bot already "
                          "has 3 Generals: none is added.")
                continue
            province["generals"] += 1
            work.note(f"{province['name']} is the bot's capture no. {number}: place a bot "
                      "General there.")
            _refresh(work.state, work.entities)
    _pull(work)


FUNCTIONS = {
    "ys_facts": ys_facts,
    "refresh": refresh,
    "place_reserve_generals": place_reserve_generals,
    "deploy": deploy,
    "roll_off_players": roll_off_players,
    "bribe_general": bribe_general,
    "rally_troops": rally_troops,
    "rally_options": rally_options,
    "rally_neutral": rally_neutral,
    "choose_target": choose_target,
    "resolve_invasion": resolve_invasion,
    "capture": capture,
    "end_invasion": end_invasion,
    "reposition": reposition,
    "turn_general": turn_general,
    "capture_generals": capture_generals,
}
