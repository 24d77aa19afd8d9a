"""What a bot's turn tells the later turns of its round (play.yaml `round:`).

A fact that holds for a whole round and that a bot's own decision settles (the card it led:
the suit and number every later player follows) is not asked of the bots after it. The pack
declares, as data, the decision points after which a new round starts (`starts:`) and what a
decision tells (`tells:` — like a `carry:`, expressions over the board the decision left,
with the entity it chose as `selected`, each with a `when:`). The log keeps what each turn
told (`Timeline.record`, evaluated as a carry is); `Table.turn` gives it to the later turns of
other bots in the same round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .playbook import Carry
    from .timeline import Timeline

KEY = "tells"  # a log entry's key for what its turn told


@dataclass(frozen=True)
class Round:
    """After which points a round starts, and what a decision tells the rest of it."""

    starts: tuple[str, ...] = ()
    tells: list[Carry] = field(default_factory=list)


def read_round(reader: Any, data: Any, points: set[str]) -> Round:
    """The `round:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.carry_spec`)."""
    spec = reader.mapping(data, ("round",))
    for key in spec:
        if key not in ("starts", "tells"):
            raise reader.fail(("round", key), f"unknown key {key!r} (one of: starts, tells)")
    starts = spec.get("starts") or []
    if not isinstance(starts, list):
        raise reader.fail(("round", "starts"), "expected a list of decision points")
    for index, point in enumerate(starts):
        if str(point) not in points:
            raise reader.fail(("round", "starts", index), f"{point!r} is no decision point")
    tells = spec.get("tells") or []
    if not isinstance(tells, list):
        raise reader.fail(("round", "tells"), "expected a list of {when, fact: expression}")
    return Round(tuple(map(str, starts)),
                 [reader.carry_spec("round", reader.mapping(one, ("round", "tells", i)),
                                    ("round", "tells", i)) for i, one in enumerate(tells)])


def told_this_round(table: Timeline, bot: str) -> dict[str, Any]:
    """What the other bots' turns of the round the log ends in told (the latest last)."""
    found: dict[str, Any] = {}
    starts = table.playbook.round.starts
    for entry in reversed(table.game.log):
        if str(entry.get("point")) in starts:
            break
        if entry["bot"] != bot:
            found = {**entry.get(KEY, {}), **found}
    return found


__all__ = ["KEY", "Round", "read_round", "told_this_round"]
