"""What a bot's turn tells the later turns of its round (play.yaml `round:`).

A fact that holds for a whole round and that a bot's own decision settles (the card it led:
the suit and number every later player follows) is not asked of the bots after it. The pack
declares, as data, the decision points after which a new round starts (`starts:`) and what a
decision tells (`tells:` — like a `carry:`, expressions over the board the decision left,
with the entity it chose as `selected`, each with a `when:`). The log keeps what each turn
told (`Timeline.record`, evaluated as a carry is); `Table.turn` gives it to the later turns of
other bots in the same round. What a card tells its own bot's later decisions of the round too
(its own Event card, at the round's end: `teller:`), and what the game keeps for the other bots
(their hand counters: play.yaml `follows: other_bots:`), the game file answers when the walk
reads it, each with its reason (`known_to_game`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .unasked import Unasked
from .wording import cited, plain

if TYPE_CHECKING:
    from .playbook import Carry
    from .timeline import Timeline

KEY = "tells"  # a log entry's key for what its turn told


@dataclass(frozen=True)
class Teller:
    """Facts a card tells its own bot's later decisions of the round too, and why."""

    facts: tuple[str, ...]
    says: str
    cite: str


@dataclass(frozen=True)
class Round:
    """After which points a round starts, and what a decision tells the rest of it."""

    starts: tuple[str, ...] = ()
    tells: list[Carry] = field(default_factory=list)
    teller: Teller | None = None


def read_round(reader: Any, data: Any, points: set[str]) -> Round:
    """The `round:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.carry_spec`)."""
    spec = reader.mapping(data, ("round",))
    for key in spec:
        if key not in ("starts", "tells", "teller"):
            raise reader.fail(("round", key), f"unknown key {key!r} (one of: starts, tells, "
                                              "teller)")
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
                                    ("round", "tells", i)) for i, one in enumerate(tells)],
                 _teller(reader, spec.get("teller")))


def _teller(reader: Any, data: Any) -> Teller | None:
    """`teller:` — `facts:` a card tells its own bot too, `says:` why and `cite:`."""
    if data is None:
        return None
    path = ("round", "teller")
    spec = reader.mapping(data, path)
    reader.names(list(spec), path, {"facts", "says", "cite"}, "key of teller")
    facts = reader.names(spec.get("facts"), (*path, "facts"), reader.board, "fact")
    if not spec.get("says") or not spec.get("cite"):
        raise reader.fail(path, "say why its own bot knows it, with the seed's citation "
                                "(says:, cite:)")
    return Teller(tuple(facts), str(spec["says"]), cited(str(spec["cite"]), reader.pack))


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


def known_to_game(table: Timeline, bot: str) -> dict[str, Unasked]:
    """What the game file answers for a decision of `bot` beyond its own snapshot: what its
    own cards of this round told it (`teller:`), and the sums over the other bots' kept
    facts (`follows: other_bots:`), each with its reason; given when the walk reads it."""
    found: dict[str, Unasked] = {}
    teller = table.playbook.round.teller or Teller((), "", "")
    for entry in reversed(table.game.log):
        if str(entry.get("point")) in table.playbook.round.starts:
            break
        for name in teller.facts if entry["bot"] == bot else ():
            if name in entry.get(KEY, {}) and name not in found:
                found[name] = Unasked(name, 0, entry[KEY][name],
                                      f"{plain(teller.says)} (turn {entry['turn']}) "
                                      f"({teller.cite})")
    others = [b for b in table.game.bots if b != bot]
    for name, spec in table.playbook.follows.items():
        kept = {b: table.game.state["bots"].get(b, {}).get(spec.other_bots) for b in others}
        if spec.other_bots and None not in kept.values():
            each = ", ".join(f"{b} {v}" for b, v in kept.items()) or "no other bot"
            found[name] = Unasked(name, 0, sum(kept.values()),
                                  f"{plain(spec.says)}: {each} ({spec.cite})")
    return found


__all__ = ["KEY", "Round", "Teller", "known_to_game", "read_round", "told_this_round"]
