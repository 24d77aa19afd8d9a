"""What the flow asks the table once at each round's start (play.yaml `flow: at_round_start:`).

Some facts hold for a whole round and only the table knows them: which bot holds a marker
there is one of (the initiative marker of a trick-taking game). Rather than ask each bot's
turn "Does the bot hold it?", the flow asks once, as a round begins (a transition marked
`new_round:`), "Which bot holds it?" — the bots by colour, or `none` (a player holds it). The
answer is logged with the round's first decision (its `flow:` answers, as the flow's other
questions are) and told to every decision of that round: yes to the bot named (`holder:`, a
yes/no fact of the board), no to every other bot, each with the question, the answer and why
(`says:`, `cite:`). A game jumped into (`--at`) was asked nothing: its turns ask their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .flow import FLOW
from .question import AnswerError, Question
from .unasked import Unasked
from .wording import cited, plain

if TYPE_CHECKING:
    from whybot.engine import Pack

    from .flow import RoundQuestion

NONE = "none"  # the answer naming no bot


def round_question(pack: Pack, bots: list[str], asked: RoundQuestion) -> Question:
    """The seed's question, with the bots and `none` to choose from."""
    return Question(id=asked.key, what=FLOW, kind="choice",
                    text=f"{asked.ask} ({NONE}: {asked.none})",
                    help=f"the seed: {cited(asked.cite, pack)}", choices=[*bots, NONE])


def holder_named(question: Question, bots: list[str], value: Any) -> str | None:
    """The bot an answer names (None: none, or a no), or AnswerError."""
    value = question.parse(value)
    if value in (NONE, False, "no", None):
        return None
    if value in bots:
        return str(value)
    raise AnswerError(f"{value!r}: answer one of the bots or {NONE}", path=question.id,
                      hint=f"one of: {', '.join([*bots, NONE])}")


def told_by(pack: Pack, bots: list[str], asked: RoundQuestion, answer: Any,
            bot: str) -> Unasked:
    """What the answer tells a decision of `bot`: yes if it names the bot, else no; why."""
    question = round_question(pack, bots, asked)
    holder = holder_named(question, bots, answer)
    why = (f"answered at the round's start, “{asked.ask}”: {holder or f'{NONE}, {asked.none}'}"
           f" ({plain(asked.says)}; {cited(asked.cite, pack)})")
    return Unasked(asked.holder, 0, holder == bot, why)


def told_at_start(pack: Pack, bots: list[str], asked: dict[str, RoundQuestion],
                  answers: dict[str, Any], bot: str) -> dict[str, Unasked]:
    """What the answers given at a round's start (`flow.ID` → answer) tell `bot`."""
    return {one.holder: told_by(pack, bots, one, answers[one.key], bot)
            for one in asked.values() if one.key in answers}


__all__ = ["NONE", "holder_named", "round_question", "told_at_start", "told_by"]
