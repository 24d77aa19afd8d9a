"""Turns being answered, kept between requests so a form's answers are not replayed each time.

A form carries every answer given so far, and `Table.turn(answers=...)` rebuilds the turn from
them — but replaying k answers decides k times (each answer must be the question asked next),
so the twentieth question of a turn would cost twenty decisions. A turn is a pure function of
its game file's revision and its answers, so the Turn left by the last request is kept under
exactly those (and the bot, decision point and dice mode) and taken by the next request that
carries the same; any other request rebuilds it, which checks every answer again. A Turn is
taken out while a request uses it, so two tabs never share one.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from whybot.facts.table import Table
from whybot.facts.turn import DICE_MODES, Turn

from .forms import read_answers, write_answers

Key = tuple[str, int, str, str, str, str]


def _key(table: Table, bot: str, point: str, dice: str, answers: str) -> Key:
    return (str(table.game.path), table.game.revision, bot, point, dice, answers)


@dataclass
class Turns:
    """At most `size` turns in progress, the least recently used dropped first."""

    size: int = 64
    kept: OrderedDict[Key, Turn] = field(default_factory=OrderedDict)

    def take(self, table: Table, bot: str | None, point: str | None, dice: str | None,
             answers: str | None) -> Turn:
        """The turn of `bot` with these answers (the form's JSON), kept or rebuilt."""
        if dice not in DICE_MODES:
            from whybot.facts.question import AnswerError

            raise AnswerError(f"dice is one of: {', '.join(DICE_MODES)}", path="dice")
        bot = bot or table.next_bot()
        turn = self.kept.pop(_key(table, bot, point or "", dice, answers or "[]"), None)
        if turn is None:
            return table.turn(bot, point or None, dice, read_answers(answers))
        turn.table = table  # the same revision of the same file, just read again
        return turn

    def keep(self, turn: Turn, point: str | None) -> None:
        key = _key(turn.table, turn.bot, point or "", turn.dice, write_answers(turn.asked()))
        self.kept[key] = turn
        self.kept.move_to_end(key)
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)


__all__ = ["Turns"]
