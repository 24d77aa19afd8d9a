"""The log of a game as turns are recorded, taken back (`undo`) and put back (`redo`).

`record` writes back what the procedure changed, logs the turn and saves; `undo` reverts the
last turn exactly (state and carried card as before it) and keeps it under the game file's
`undone:` (newest last), so `redo` puts it back as it was — until a new turn is recorded,
which starts another line of play and forgets what was undone. Every call saves the game file
or changes nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .game import Game, GameFileError, write_game
from .ledger import apply_changes, carried, carry_values, compact, revert_changes, turn_changes
from .told import KEY as TOLD

if TYPE_CHECKING:
    from whybot.engine import Engine

    from .playbook import Playbook
    from .turn import TurnResult


class Timeline:
    """Recording, undo and redo for a `Table` (which supplies the game, engine and playbook)."""

    game: Game
    engine: Engine
    playbook: Playbook

    def record(self, result: TurnResult) -> dict[str, Any]:
        """Write back what the procedure changed, log the turn, save; the log entry."""
        if result.trace.decision.result in self.playbook.undecided:
            raise GameFileError(f"turn {result.number} was not decided ("
                                f"{result.trace.decision.result}): nothing saved")
        if result.number != len(self.game.log) + 1:
            raise GameFileError(f"turn {result.number} was decided, but the game is at turn "
                                f"{len(self.game.log) + 1}: nothing saved",
                                hint="another window saved a turn: reload")
        entry = self._entry(result)
        undone = self.game.undone
        self.game.undone = []
        self._apply(entry, lambda: setattr(self.game, "undone", undone))
        return entry

    def _entry(self, result: TurnResult) -> dict[str, Any]:
        """The log entry of a decided turn, against the state as it is now."""
        changes = turn_changes(self, result)
        before, after = self.game.pending.get(result.bot), carried(self, result)
        return {"turn": result.number, "bot": result.bot, "point": result.point,
                "asked": result.asked,
                **({"unasked": [u.as_dict() for u in result.unasked]} if result.unasked else {}),
                **({"given": result.given} if result.given else {}),
                **({"flow": result.flow} if result.flow else {}),
                "snapshot": result.snapshot,
                "decision": compact(result.trace, self.engine.pack),
                "dice": [roll.total for roll in result.trace.dice], "changes": changes,
                "carried": {k: v for k, v in (("before", before), ("after", after))
                            if v is not None},
                **({TOLD: tells} if (tells := self._told(result)) else {})}

    def _told(self, result: TurnResult) -> dict[str, Any]:
        """What the turn tells the later turns of its round (play.yaml `round:`): every tell
        whose `when` holds."""
        told: dict[str, Any] = {}
        for tell in self.playbook.round.tells:
            told.update(carry_values(self.engine.pack, [tell], result) or {})
        return told

    def _append(self, entry: dict[str, Any]) -> None:
        """A turn onto the log, in memory: its changes and carried card applied."""
        apply_changes(self.game.state, entry.get("changes", []))
        self._carry(entry["bot"], entry.get("carried", {}).get("after"))
        self.game.log.append(entry)

    def _apply(self, entry: dict[str, Any], also_undo: Callable[[], None]) -> None:
        saved = copy.deepcopy(self.game.state), copy.deepcopy(self.game.pending)
        self._append(entry)

        def undo() -> None:
            self.game.log.pop()
            also_undo()
        self._save(saved, undo)

    def _carry(self, bot: str, values: dict[str, Any] | None) -> None:
        if values:
            self.game.pending[bot] = values
        else:
            self.game.pending.pop(bot, None)

    def _save(self, saved: tuple[dict[str, Any], dict[str, Any]],
              undo: Callable[[], Any]) -> None:
        if self.game.path is None:
            return
        from .setup import game_pack

        try:
            write_game(self.game, self.game.path, game_pack)
        except BaseException:
            undo()
            self.game.state, self.game.pending = saved
            raise

    def _take_back(self) -> dict[str, Any]:
        """The last turn off the log, in memory: state and carried card as before it."""
        entry = self.game.log.pop()
        revert_changes(self.game.state, entry.get("changes", []))
        self._carry(entry["bot"], entry.get("carried", {}).get("before"))
        return entry

    def undo(self) -> dict[str, Any] | None:
        """Take the last turn back (state and carried card as before it; `redo` puts it
        back); the entry, or None when the log is empty."""
        if not self.game.log:
            return None
        saved = copy.deepcopy(self.game.state), copy.deepcopy(self.game.pending)
        entry = self._take_back()
        self.game.undone.append(entry)

        def restore() -> None:
            self.game.undone.pop()
            self.game.log.append(entry)
        self._save(saved, restore)
        return entry

    def redo(self) -> dict[str, Any] | None:
        """Put back the turn `undo` took back last, as it was; the entry, or None when
        nothing was undone since the last turn played."""
        if not self.game.undone:
            return None
        entry = self.game.undone.pop()
        self._apply(entry, lambda: self.game.undone.append(entry))
        return entry


__all__ = ["Timeline"]
