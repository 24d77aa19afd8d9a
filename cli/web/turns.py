"""Turns being answered, kept between requests so a form's answers are not replayed each time.

A form carries every answer given so far, and `Table.turn(answers=...)` rebuilds the turn from
them — but replaying k answers decides k times (each answer must be the question asked next),
so the twentieth question of a turn would cost twenty decisions. A turn is a pure function of
its game file's revision and its answers, so the Turn left by the last request is kept under
exactly those (and the bot, decision point and dice mode) and taken by the next request that
carries the same; any other request rebuilds it, which checks every answer again. A Turn is
taken out while a request uses it, so two tabs never share one (two tabs with the same
answers so far each find one of theirs).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table
from whybot.facts.play.turn import DICE_MODES, Turn

from .forms import read_answers, write_answers, write_flow

Key = tuple[str, int, str, str, str, str, bool, str]


def _key(table: Table, bot: str, point: str, dice: str, answers: str, moves: bool,
         flow: str) -> Key:
    return (str(table.game.path), table.game.revision, bot, point, dice, answers, moves, flow)


@dataclass
class Turns:
    """At most `size` turns in progress, the least recently used dropped first."""

    size: int = 64
    kept: OrderedDict[Key, list[Turn]] = field(default_factory=OrderedDict)
    count: int = 0

    def take(self, table: Table, bot: str | None, point: str | None, dice: str | None,
             answers: str | None, moves: bool = False, flow: str | None = None) -> Turn:
        """The turn of `bot` with these answers (the form's JSON), kept or rebuilt; `moves`:
        the player lists every move rather than answering the bot's questions; `flow`: the
        answers to the flow's questions that offered it (the form's JSON)."""
        if dice not in DICE_MODES:
            raise AnswerError(f"dice is one of: {', '.join(DICE_MODES)}", path="dice")
        bot = bot or table.next_bot()
        flow_said = dict(read_answers(flow))
        key = _key(table, bot, point or "", dice, answers or "[]", moves, write_flow(flow_said))
        waiting = self.kept.get(key)
        if not waiting:
            # the point the game page offers (the flow's next) comes with what the flow knows
            return table.turn(bot, point or None, dice, read_answers(answers),
                              follow=bool(point), moves=moves, flow=flow_said)
        turn = waiting.pop()
        self.count -= 1
        if not waiting:
            del self.kept[key]
        turn.table = table  # the same revision of the same file, just read again
        return turn

    def keep(self, turn: Turn, point: str | None) -> None:
        key = _key(turn.table, turn.bot, point or "", turn.dice, write_answers(turn.asked()),
                   turn.moves, write_flow(turn.flow))
        self.kept.setdefault(key, []).append(turn)
        self.kept.move_to_end(key)
        self.count += 1
        while self.count > self.size:
            _, dropped = self.kept.popitem(last=False)
            self.count -= len(dropped)


__all__ = ["Turns"]
