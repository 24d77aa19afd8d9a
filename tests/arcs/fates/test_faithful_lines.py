"""Every Fate line that selects a card for an action lets a Faithful card take it, on the side
whose page lists the action, before a card of the line's suit (§ Believer › Faithful Cards, L577:
"select that card"; Faithful Wisdom — Build | Repair | Secure, L1395; Faithful Zeal — Move |
Influence | Battle | Tax, L1412; readings R40, and R91 for a card ability "(Tax)")."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import KNOWLEDGE

SIDES = {"build": "faithful_wisdom", "repair": "faithful_wisdom", "secure": "faithful_wisdom",
         "move": "faithful_zeal", "influence": "faithful_zeal", "battle": "faithful_zeal",
         "tax": "faithful_zeal"}
BRACKETED = re.compile(r"\((Build|Repair|Secure|Move|Influence|Battle|Tax)\)")
FATES = KNOWLEDGE / "arcs" / "fates"


def action_kind(then: dict, says: str) -> str | None:
    """The kind of action a line takes: its own name, or for a card ability the kind in its
    brackets ("Claim Fief (Tax)", readings R63, R91), read from its goal, details, then says."""
    if then["action"] in SIDES:
        return then["action"]
    found = BRACKETED.search(f"{then.get('goal', '')} {then.get('details', '')} {says}")
    return found.group(1).lower() if found else None


def fate_action_lines(arcs) -> list:
    """The Fate rules whose outcome selects a played card for an action."""
    return [rule for rule in arcs.pack.rules()
            if FATES in Path(rule.file).parents
            and "action" in rule.then.raw
            and rule.then.raw.get("select", {}).get("from") == "play"]


def faithful_gaps(rule) -> list[str]:
    """What keeps a Faithful card from taking this line's action first (empty: nothing)."""
    kind = action_kind(rule.then.raw, rule.says)
    if kind is None:
        return [f"{rule.id}: a card ability with no (Action) in its goal, details or says"]
    side = SIDES[kind]
    other = ({"faithful_wisdom", "faithful_zeal"} - {side}).pop()
    select = rule.then.raw["select"]
    gaps = []
    if f"'{side}'" not in str(select.get("where", "")):
        gaps.append(f"{rule.id}: {kind} does not name {side}")
    if f"'{other}'" in str(select.get("where", "")):
        gaps.append(f"{rule.id}: {kind} names {other}, whose page does not list it")
    prefer = select.get("prefer") or [{}]
    first = prefer[0] if isinstance(prefer[0], dict) else {}
    if first.get("when") != f"card_suit == 'faithful' and suit == '{side}'":
        gaps.append(f"{rule.id}: {side} is not preferred first")
    return gaps


def test_every_fate_action_line_takes_the_faithful_card_first(arcs):
    lines = fate_action_lines(arcs)
    fate_pages = {page for page in arcs.pack.pages
                  if re.fullmatch(r"fate\.\w+\.act[12]", page)}
    assert {rule.page for rule in lines} == fate_pages  # every Act page has such lines
    assert len(lines) >= 129
    assert [gap for rule in lines for gap in faithful_gaps(rule)] == []


def test_a_card_ability_takes_the_side_of_its_bracketed_action(arcs):
    by_id = {rule.id: rule for rule in fate_action_lines(arcs)}
    claim_fief, call_bodies = by_id["warden.act2.claim-fief"], by_id["hegemon.act2.call-bodies"]
    assert action_kind(claim_fief.then.raw, claim_fief.says) == "tax"
    assert action_kind(call_bodies.then.raw, call_bodies.says) == "build"
    assert faithful_gaps(claim_fief) == []


def test_a_line_without_the_faithful_side_is_reported(arcs):
    rule = next(r for r in fate_action_lines(arcs) if r.id == "warden.act2.build-seat")
    bare_select = {"from": "play", "where": "suit == 'construction'"}
    bare = SimpleNamespace(id=rule.id, says=rule.says,
                           then=SimpleNamespace(raw={**rule.then.raw, "select": bare_select}))
    assert faithful_gaps(bare) == [
        "warden.act2.build-seat: build does not name faithful_wisdom",
        "warden.act2.build-seat: faithful_wisdom is not preferred first"]
