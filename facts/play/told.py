"""What a bot's turn tells the later decisions of its round, and what else the game file holds
for a decision (play.yaml `round:`, `follows: other_bots:`).

A fact that holds for a whole round and that a bot's own decision settles (the card it led:
the suit and number every later player follows) is not asked of the bots after it. The pack
declares, as data, the decision points after which a new round starts (`starts:`) and what a
decision tells (`tells:` — like a `carry:`, expressions over the board the decision left,
with the entity it chose as `selected`, each with a `when:`, and why, `says:` and `cite:`;
every tell whose `when:` holds). The log keeps what each turn told (`Timeline.record`,
evaluated as a carry is); the later decisions of other bots in the same round are given it,
and so are the bot's own for the facts `teller:` names (its own Event card, at the round's
end); so is what the table said at the round's start (which bot holds a marker there is one
of: the flow's `at_round_start:`, logged with the round's first decision; round_start.py).
What the game keeps for the other bots (their hand counters: `follows: other_bots:`) is given
too. Each comes with its reason (`known_to_game`), shown when the walk read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from whybot.engine import open_facts

from .unasked import Unasked
from .wording import cited, plain

if TYPE_CHECKING:
    from whybot.engine import Reading, Situation, Trace

    from .playbook import Carry
    from .timeline import Timeline
    from .turn import Turn

KEY = "tells"  # a log entry's key for what its turn told


@dataclass(frozen=True)
class Teller:
    """Facts a card tells its own bot's later decisions of the round too, and why."""

    facts: tuple[str, ...] = ()
    why: str = ""  # the seed's words and citation


@dataclass(frozen=True)
class Round:
    """After which points a round starts, what a decision tells the rest of it, and why
    (`reasons`: each fact told → the seed's words and citation)."""

    starts: tuple[str, ...] = ()
    tells: list[Carry] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    teller: Teller = Teller()


def read_round(reader: Any, data: Any, points: set[str]) -> Round:
    """The `round:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.carry_spec`)."""
    spec = reader.mapping(data, ("round",))
    reader.names(list(spec), ("round",), {"starts", "tells", "teller"}, "key of round")
    starts = spec.get("starts") or []
    if not isinstance(starts, list):
        raise reader.fail(("round", "starts"), "expected a list of decision points")
    for index, point in enumerate(starts):
        if str(point) not in points:
            raise reader.fail(("round", "starts", index), f"{point!r} is no decision point")
    tells = spec.get("tells") or []
    if not isinstance(tells, list):
        raise reader.fail(("round", "tells"), "expected a list of {when, fact: expression, "
                                              "says, cite}")
    carries, reasons = [], {}
    for index, one in enumerate(tells):
        path = ("round", "tells", index)
        one = dict(reader.mapping(one, path))
        why = _why(reader, one.pop("says", None), one.pop("cite", None), path)
        carry = reader.carry_spec("round", one, path)
        carries.append(carry)
        reasons.update(dict.fromkeys(carry.facts, why))
    return Round(tuple(map(str, starts)), carries, reasons,
                 _teller(reader, spec.get("teller")))


def _why(reader: Any, says: Any, cite: Any, path: tuple) -> str:
    if not says or not cite:
        raise reader.fail(path, "say why the later decisions know it, with the seed's "
                                "citation (says:, cite:)")
    return f"{plain(str(says))} ({cited(str(cite), reader.pack)})"


def _teller(reader: Any, data: Any) -> Teller:
    """`teller:` — `facts:` a card tells its own bot too, `says:` why and `cite:`."""
    if data is None:
        return Teller()
    path = ("round", "teller")
    spec = reader.mapping(data, path)
    reader.names(list(spec), path, {"facts", "says", "cite"}, "key of teller")
    facts = reader.names(spec.get("facts"), (*path, "facts"), reader.board, "fact")
    return Teller(tuple(facts), _why(reader, spec.get("says"), spec.get("cite"), path))


def known_to_game(table: Timeline, bot: str) -> dict[str, Unasked]:
    """What the game file gives a decision of `bot` beyond its own state, each with its
    reason: what the turns of this round told it (the other bots' turns; its own for
    `teller:` facts, the latest last), what the table said at the round's start (before
    any turn told it otherwise), and the sums over the other bots' kept facts
    (`follows: other_bots:`)."""
    from .round_start import told_at_start  # it asks a question: question.py reads play.yaml

    found: dict[str, Unasked] = {}
    book = table.playbook
    for entry in reversed(table.game.log):
        if str(entry.get("point")) in book.round.starts:
            break
        own = entry["bot"] == bot
        for name, value in entry.get(KEY, {}).items():
            if name not in found and (not own or name in book.round.teller.facts):
                why = book.round.teller.why if own else book.round.reasons.get(name, "")
                found[name] = Unasked(name, 0, value, f"told by {entry['bot']}'s turn "
                                                      f"{entry['turn']} this round: {why}")
        if book.flow is not None:  # said before this entry's turn: after what it told
            for name, item in told_at_start(table.engine.pack, table.game.bots,
                                            book.flow.at_round_start, entry.get("flow", {}),
                                            bot).items():
                found.setdefault(name, item)
    others = [b for b in table.game.bots if b != bot]
    for name, spec in book.follows.items():
        kept = {b: table.game.state["bots"].get(b, {}).get(spec.other_bots) for b in others}
        if spec.other_bots and None not in kept.values():
            each = ", ".join(f"{b} {v}" for b, v in kept.items()) or "no other bot"
            found[name] = Unasked(name, 0, sum(kept.values()),
                                  f"{plain(spec.says)}: {each} ({spec.cite})")
    return found


def told_needed(turn: Turn, situation: Situation, trace: Trace, reading: Reading,
                ) -> list[Unasked]:
    """What the game file gave a turn (`turn.told`, unless the player gave it anew) that its
    decision needed (a fact the point requires) or read, in that order: each shown with its
    reason, as the table's other answers are."""
    told, inquiry = turn.told, turn.inquiry
    gave = {name for name, item in told.items()
            if situation.board.get(name) == item.value and name not in turn.given}
    if not gave:
        return []
    without = replace(inquiry, data={k: v for k, v in inquiry.data.items() if k not in gave})
    as_asked = replace(situation, defaulted=situation.defaulted | gave)
    needed = [*without.required(), *open_facts(inquiry.engine, trace, reading, as_asked,
                                               inquiry.instead)]
    return [told[name] for name in dict.fromkeys(
        o.name for o in needed if o.what == "fact" and o.name in gave)]


__all__ = ["KEY", "Round", "Teller", "known_to_game", "read_round", "told_needed"]
