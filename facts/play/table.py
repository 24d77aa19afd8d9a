"""The table API: a whole game at the table, with no printing, prompting or web in it.

`whybot new/play/undo/log/why GAME --turn N` and the web page (`whybot serve`) are two faces on
these calls; neither holds any decision logic of its own.

    from whybot.facts.play.setup import setup_questions
    from whybot.facts.play.table import Table

    questions = setup_questions("arcs")            # bots first; per-bot ones once named
    table = Table.new(Path("game.yaml"), "arcs", {"bots": ["red"], "difficulty": "none",
                                                   "red.fate": "none"}, seed=7)
    turn = table.turn()                            # the next bot (or bot="red"), point="turn"
    while (question := turn.next_question()) is not None:
        print(question.text, question.kind, question.why())   # as_dict() for JSON
        turn.answer(question.id, answers[question.id])         # AnswerError if it does not fit
        # turn.back() takes the last answer back
    result = turn.decide()                         # result.trace: the explained decision
    entry = table.record(result)                   # state written back, turn logged, saved
    table.undo()                                   # the last turn taken back, saved
    table.redo()                                   # ... and played again as it was
    plan = plan_fix(table, 1, {"power": 3})        # turn 1's answer corrected (fix.py):
    apply_fix(table, plan, keep=True)              # plan.changed: later turns now different
    table.log_lines()                              # one dict per turn
    table.past(1)                                  # turn 1 decided again, explained

Questions (`question.py`) carry their id, the seed's question text, the kind of answer
(`yes_no`, `number` in `minimum..maximum`, `choice` of `choices`, `text`, `entities` with their
`fields`, `dice`), the pack's help, a default only where the seed gives one, and why they are
asked (`rule`, `page`, `rule_says`, `cite`). A game starts in `setup.py`; the game file is
`game.py` (atomic saves; a stale or damaged file is never overwritten); what a turn reads and
writes back is the pack's `play.yaml` (`playbook.py`).
"""

from __future__ import annotations

import copy
from functools import cached_property
from pathlib import Path
from typing import Any

from whybot.engine import Reading, Situation, SnapshotError, Trace, asked_instead, did_you_mean

from ..packs import installed_engine
from ..snapshot import situation_from
from .consult import assumed_at_table
from .game import Game, in_game_file, logged_snapshot, read_game
from .ledger import compact, summary
from .naming import nameable, names_in, with_names
from .offer import main_log, next_point
from .playbook import load_playbook
from .question import AnswerError
from .setup import game_pack, new_game
from .timeline import Timeline
from .told import known_to_game
from .turn import Turn


class Table(Timeline):
    """One game file, open: its pack's engine and play.yaml, and the calls a table makes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = tuple(str(self._folder(r)) for r in game.rules)
        self.engine = installed_engine(game.pack, self.rules)
        self.playbook = load_playbook(self.engine.pack)
        self.instead = asked_instead(self.engine, self.playbook.consult)  # asked, not listed
        self.move_lists = {self.engine.pack.facts.entities[kind].key
                           for kind in self.playbook.consult}  # their snapshot keys

    @cached_property
    def nameable(self) -> frozenset[str]:
        """The judgments whose yes may name the target of the action it leads to."""
        return nameable(self.engine, self.playbook.consult)

    def _folder(self, rule: str) -> Path:
        base = self.game.path.parent if self.game.path else Path.cwd()
        return (base / rule).resolve()

    @classmethod
    def open(cls, path: Path) -> Table:
        return cls(read_game(Path(path), game_pack))

    @classmethod
    def new(cls, path: Path, pack: str, answers: dict[str, Any], *, name: str = "",
            seed: int | None = None, rules: list[str] | None = None,
            include: list[str] | None = None) -> Table:
        """Start a game from the setup answers and save it (`setup.new_game`)."""
        return cls(new_game(path, pack, answers, name=name, seed=seed, rules=rules,
                            include=include))

    # --- what a turn starts from -----------------------------------------------------------

    def snapshot_for(self, bot: str, point: Any = None) -> dict[str, Any]:
        """The snapshot a turn of `bot` starts from: what the game file knows."""
        self._check_bot(bot)
        book, state = self.playbook, self.game.state
        data: dict[str, Any] = {"pack": self.game.pack,
                                "name": f"{self.game.name} — turn {len(self.game.log) + 1}, "
                                        f"{bot}"}
        if self.game.include:
            data["include"] = list(self.game.include)
        data.update(copy.deepcopy(book.snapshot))
        data.update(copy.deepcopy(state["game"]))
        data.update(copy.deepcopy(state["bots"].get(bot, {})))
        if book.bot_fact:
            data[book.bot_fact] = bot
        if book.bots_list:
            kind = self._kind_of(book.bots_list)
            label = self.engine.pack.facts.entities[kind].naming_field or "name"
            kept = self.kept_labels(bot, kind)
            data[book.bots_list] = [{label: name, **kept.get(name, {})}
                                    for name in self.game.bots]
        if point is not None:
            if not book.point:
                raise AnswerError(f"pack {self.game.pack!r} has no decision points to choose")
            data[book.point] = point
        data.update(copy.deepcopy(self.game.pending.get(bot, {})))
        return data

    def _kind_of(self, key: str) -> str:
        return next(kind for kind, spec in self.engine.pack.facts.entities.items()
                    if spec.key == key)

    def kept_labels(self, bot: str, kind: str) -> dict[str, dict[str, Any]]:
        """Kept fields of listed `kind` entities, by label (what a list answer is filled
        with)."""
        scope = self.playbook.keep_fields.get(kind, ("game", []))[0]
        owner = "game" if scope == "game" else bot
        return copy.deepcopy(self.game.state["entities"].get(owner, {}).get(kind, {}))

    def said(self, bot: str) -> dict[str, Any]:
        """What the player said last that holds until the table changes (the pack's
        `remember:`), for a turn of `bot`: offered as defaults, never taken as known."""
        book, said = self.playbook, self.game.state.get("said", {})
        return {name: copy.deepcopy(value)
                for owner, scope in ((bot, "bot"), ("game", "game"))
                for name, value in said.get(owner, {}).items()
                if name in book.remember[scope]}

    def _check_bot(self, bot: str) -> None:
        if bot not in self.game.bots:
            raise AnswerError(f"no bot {bot!r} in this game", path="bot",
                              hint=did_you_mean(bot, set(self.game.bots))
                              or f"bots: {', '.join(self.game.bots)}")

    def next_bot(self) -> str:
        """A bot whose card stopped mid-way continues it; else the next in turn order (after
        the last decision that was no interlude: a Summit called between two turns leaves the
        turn order as it was)."""
        waiting = [bot for bot in self.game.bots if self.game.pending.get(bot)]
        if waiting:
            return waiting[0]
        played = main_log(self)
        if not played:
            return self.game.bots[0]
        last = played[-1]["bot"]
        return self.game.bots[(self.game.bots.index(last) + 1) % len(self.game.bots)]

    def turn(self, bot: str | None = None, point: Any = None, dice: str = "roll",
             answers: list[tuple[str, Any]] | None = None, seed: int | None = None,
             faces: list[int] | None = None, follow: bool = False,
             given: dict[str, Any] | None = None, moves: bool = False,
             flow: dict[str, Any] | None = None) -> Turn:
        """The next decision (of `bot`, else `next_bot()`); `answers` replays answers given
        so far, in order (a web form); `seed` replaces the game's seed for this turn; `faces`:
        dice rolled already (a turn decided again); `follow`: without a point (or with the
        one offered), the one the pack's flow offers next (`next_point`), with the facts it
        gives; what the game file holds for the decision (`told.py`: what the turns of this
        round told, the other bots' kept counters) comes with any point; `given`: kept facts
        given again (`kept_given`), replacing the kept values; `moves`: the bot's possible
        moves listed one by one, not asked as the seed's questions; `flow`: the answers to
        the flow's own questions (`offer.next_point`: asked before the turn, logged with
        it)."""
        offer = next_point(self, flow) if follow else None
        if offer is not None and offer.question is None and point in (None, offer.point) \
                and bot in (None, offer.bot):
            told = {**known_to_game(self, offer.bot), **offer.told}
            turn = Turn(self, offer.bot, offer.point, dice, answers, seed, faces, given, moves,
                        {**_values(told), **offer.facts})
            turn.flow, turn.told = offer.said, told
            return turn
        bot = bot or self.next_bot()
        told = known_to_game(self, bot)
        turn = Turn(self, bot, point, dice, answers, seed, faces, given, moves, _values(told))
        turn.told = told
        return turn

    def log_lines(self) -> list[dict[str, Any]]:
        """One line per turn: number, bot, decision point, the decision in short, questions."""
        return [{"turn": e["turn"], "bot": e["bot"], "point": e.get("point"),
                 "decision": summary(e["decision"]), "questions": len(e.get("asked", [])),
                 "changes": len(e.get("changes", []))} for e in self.game.log]

    def past(self, number: int, explain: bool = True) -> Trace:
        """Turn `number` decided again from its logged snapshot (dice included)."""
        return self.past_situation(number, explain)[1]

    def past_situation(self, number: int, explain: bool = True) -> tuple[Situation, Trace]:
        """Turn `number`'s situation (from its logged snapshot) and its decision, again."""
        if not 1 <= number <= len(self.game.log):
            raise AnswerError(f"no turn {number}: the log has {len(self.game.log)} turn(s)",
                              file=str(self.game.path or ""), path="--turn")
        try:
            situation = situation_from(logged_snapshot(self.game, number), self.engine.pack)
        except SnapshotError as exc:
            raise in_game_file(exc, self.game, number) from None
        reading = Reading()
        trace = self.engine.decide(situation, seed=self.game.seed + number, explain=explain,
                                   reading=reading)
        trace.assumed = assumed_at_table(self, situation, trace, reading)
        return situation, with_names(self.engine.pack, trace,
                                     names_in(self.game.log[number - 1].get("asked", []), trace))

    def replay(self) -> list[str]:
        """Every logged turn decided again: the turns whose decision differs (none, if the
        rules did not change)."""
        return [f"turn {e['turn']}: logged {summary(e['decision'])}, now {summary(now)}"
                for e in self.game.log
                if (now := compact(self.past(e["turn"], explain=False), self.engine.pack))
                != e["decision"]]


def _values(told: dict[str, Any]) -> dict[str, Any]:
    """What the game file gives a decision (`known_to_game`), as its snapshot's facts."""
    return {name: item.value for name, item in told.items()}


__all__ = ["Table"]
