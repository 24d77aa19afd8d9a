"""`whybot fix GAME --turn N`: correct an answer given at a past turn.

On a terminal it lists the turn's answers, asks which to correct and its new value (the same
question as then), decides the turn again, shows which later turns now decide differently and
asks whether to keep them (decided again with their own answers) or drop them (to play them
again). An answers file gives the corrections (question id → answer) and `--later keep|drop`
the choice, needed only when a later turn now decides differently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from whybot.engine import WhybotError

from .cmd_play import AnswersOption, GameFile
from .options import one_of

# imported where `fix` uses them: any other command starts without the table companion
if TYPE_CHECKING:
    from whybot.facts.play.fix import FixPlan
    from whybot.facts.play.question import Question
    from whybot.facts.play.table import Table

    from .prompt import Terminal

LATER = ("keep", "drop")


def _later(value: str | None) -> str | None:
    return None if value is None else one_of("choice for the later turns", LATER)(value)


def _choose(table: Table, number: int, terminal: Terminal) -> dict[str, Any]:
    """On a terminal: which of turn `number`'s answers to correct, and its new value."""
    from whybot.facts.play.fix import asked_at

    from .prompt import BACK

    asked = asked_at(table, number)
    if not asked:
        raise WhybotError(f"turn {number} asked nothing: there is no answer to correct")
    typer.echo(f"turn {number} was asked:")
    for index, (question, value) in enumerate(asked, 1):
        said = question.answer_words(value) if question.kind in ("first", "names", "after") \
            else _said(value)  # a run's pick, the names, a page: each question in its words
        typer.echo(f"  {index}. {question.text} — {said}")
    while True:
        text = terminal.line(f"which answer to correct? (1..{len(asked)}) > ").strip()
        if text.isdigit() and 1 <= int(text) <= len(asked):
            break
        typer.echo(f"   give a number from 1 to {len(asked)}")
    question = asked[int(text) - 1][0]
    value = terminal(question, int(text))
    if value is BACK:
        raise typer.Exit(1)
    return {question.id: value}


def _said(value: Any) -> str:
    """An answer as it reads: yes/no, entries as field=value, none for an empty list."""
    from whybot.facts.play.wording import plain

    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):  # facts asked together
        return ", ".join(f"{plain(str(name))} {_said(item)}" for name, item in value.items())
    if isinstance(value, list):
        return "; ".join(", ".join(f"{plain(k)}={_said(v)}" for k, v in item.items())
                         if isinstance(item, dict) else _said(item) for item in value) or "none"
    return plain(str(value))


def _report(plan: FixPlan) -> None:
    from whybot.facts.play.ledger import summary

    now = summary(plan.entry["decision"])
    typer.echo(f"turn {plan.number} decided again: {now}"
               + (" (as before)" if now == plan.was else f" — was {plan.was}"))
    for later in plan.later:
        if later.blocked:
            typer.echo(f"  turn {later.number} ({later.bot}) cannot be decided again: a turn "
                       "before it could not")
        elif later.asks:
            typer.echo(f"  turn {later.number} ({later.bot}) cannot be decided again: it now "
                       f"asks {later.asks}")
        elif later.differs:
            how = "" if later.now != later.logged else " (the same moves, by other rules)"
            typer.echo(f"  turn {later.number} ({later.bot}) now decides differently{how}: "
                       f"{later.now} — was {later.logged}")
        else:
            typer.echo(f"  turn {later.number} ({later.bot}) decides the same: {later.now}")


def fix(game: GameFile,
        turn: Annotated[int, typer.Option("--turn", "-t", min=1, metavar="N",
                                          help="The turn whose answer to correct.")],
        answers: AnswersOption = None,
        later: Annotated[str | None, typer.Option(
            "--later", metavar="keep|drop", callback=_later,
            help="keep: the later turns decided again with their own answers; drop: taken "
                 "back, to play again. Needed when one now decides differently.")] = None,
        ) -> None:
    """Correct an answer of a past turn: decide it again, show the later turns that now
    decide differently, keep or drop them."""
    from whybot.facts.play.fix import apply_fix, plan_fix
    from whybot.facts.play.question import AnswerError
    from whybot.facts.play.table import Table

    from .played import answerer
    from .prompt import Terminal

    table = Table.open(game)
    ask, source = answerer(answers)
    # a terminal asks what a file does not say (the correction, a new question, keep or drop)
    terminal = ask if isinstance(ask, Terminal) else \
        source.fallback if source is not None and isinstance(source.fallback, Terminal) else None
    if source is None and terminal is not None:
        corrections = _choose(table, turn, terminal)
    else:
        corrections = dict(source.answers) if source is not None else {}
        if not corrections:
            raise AnswerError("no correction given", file=source.origin if source else None,
                              hint="give question id: new answer, as an answers file does")
    plan = plan_fix(table, turn, corrections, _asker(terminal))
    _report(plan)
    if plan.changed and later is None:
        if terminal is None:
            numbers = ", ".join(str(t.number) for t in plan.changed)
            raise AnswerError(f"turn(s) {numbers} now decide differently: nothing saved",
                              path="--later", hint="say --later keep or --later drop")
        later = _keep_or_drop(terminal)
    dropped = apply_fix(table, plan, keep=later != "drop")
    typer.echo(f"turn {turn} corrected and saved to {game}"
               + (f"; dropped turn(s) {', '.join(map(str, dropped))}: play them again"
                  if dropped else ""))


def _asker(terminal: Terminal | None) -> Any:
    """What the corrected turn now asks that nobody answered: the terminal, if there is one."""
    if terminal is None:
        return None
    return lambda question: _ask_once(terminal, question)


def _ask_once(terminal: Terminal, question: Question) -> Any:
    from .prompt import BACK

    value = terminal(question, 0)
    if value is BACK:
        raise typer.Exit(1)
    return value


def _keep_or_drop(terminal: Terminal) -> str:
    while True:
        text = terminal.line("keep the later turns as decided now, or drop them to play "
                             "again? (keep|drop) > ").strip().lower()
        if text in LATER:
            return text
        typer.echo("   answer keep or drop")


__all__ = ["fix"]
