"""`whybot new`, `play`, `undo`, `redo`, `log`: a whole game at the table (`fix`: cmd_fix.py).

Every command is a face on the table API (`facts/play/table.py`); this module only asks, reads
answers files and prints.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from whybot.engine import WhybotError

from .group import out, print_json
from .options import JsonOption, RulesOption, one_of

# The table companion's modules (and `played.py`, this module's side of them) are imported
# where a command uses them: any other command (a batch above all) starts without them.

GameFile = Annotated[Path, typer.Argument(metavar="GAME", help="The game file (YAML).")]
AnswersOption = Annotated[Path | None, typer.Option(
    "--answers", "-a", metavar="FILE",
    help="Answers (YAML/JSON: question id → answer) for the questions asked; - reads them "
         "from standard input, which is also read when it is not a terminal.")]


def _dice_mode(name: str) -> str:
    from whybot.facts.play.turn import DICE_MODES

    return one_of("dice mode", DICE_MODES)(name)


def new(pack: Annotated[str, typer.Argument(metavar="PACK", help="The knowledge pack.")],
        game: GameFile,
        seed: Annotated[int | None, typer.Option(
            "--seed", "-s", metavar="N",
            help="The game's dice seed (turn N rolls with seed + N; random if not given).")]
        = None,
        name: Annotated[str, typer.Option("--name", help="The game's name.")] = "",
        rules: RulesOption = None, answers: AnswersOption = None,
        include: Annotated[list[Path] | None, typer.Option(
            "--include", metavar="FILE", exists=True, dir_okay=False,
            help="A file every snapshot of the game includes (your map; repeatable).")]
        = None) -> None:
    """Start a game: ask the setup questions the pack declares, write the game file."""
    from whybot.facts.play.game import check_new
    from whybot.facts.play.setup import setup_questions
    from whybot.facts.play.table import Table

    from .played import answerer, ask_bots, report_unused
    from .prompt import BACK

    check_new(game)  # before any question: the answers would be lost
    ask, source = answerer(answers)
    folders = [str(r) for r in rules or []]
    bots_question = setup_questions(pack, None, tuple(folders))[0]
    bots = ask_bots(ask, bots_question)
    values: dict[str, Any] = {"bots": bots}
    names = [b.get("name") if isinstance(b, dict) else b for b in bots]
    for number, question in enumerate(setup_questions(pack, names, tuple(folders))[1:], 2):
        value = ask(question, number)
        values[question.id] = question.default if value is BACK else value
    table = Table.new(game, pack, values, name=name, seed=seed, rules=folders,
                      include=[str(i) for i in include or []])
    report_unused(source)
    typer.echo(f"new {pack} game {game} (seed {table.game.seed}), bots: "
               f"{', '.join(table.game.bots)}; next: whybot play {game}")


def play(game: GameFile,
         bot: Annotated[str | None, typer.Option(
             "--bot", metavar="NAME", help="The bot deciding (default: the next in turn "
                                           "order, or the one whose card was stopped).")] = None,
         at: Annotated[str | None, typer.Option(
             "--at", metavar="POINT", help="Jump to a decision point (a pack's `step`/"
                                           "`decision`: setup, chapter, ...); default: the "
                                           "one the pack's flow offers next.")]
         = None,
         dice: Annotated[str, typer.Option(
             "--dice", metavar="roll|table", callback=_dice_mode,
             help="roll: the game's seed rolls; table: ask the faces you rolled.")] = "roll",
         answers: AnswersOption = None, json_out: JsonOption = False,
         seed: Annotated[int | None, typer.Option(
             "--seed", "-s", metavar="N",
             help="Seed for this turn's dice (default: the game's seed + the turn number; "
                  "the log keeps the faces, so a replay is the same).")] = None,
         moves: Annotated[bool, typer.Option(
             "--moves", help="List every move you see for the bot (one entry each) instead "
                             "of answering the bot's own questions, as its flowchart asks "
                             "them.")] = False) -> None:
    """Run the next bot decision: ask only what the procedure reaches, decide, remember.

    Each question is the first fact the walk reads that the game file does not know, and the
    bot's moves are asked as its own flowchart asks them (a yes or no for each box it reads;
    `--moves` lists them instead); `?` shows why (the rule and page), `back`
    revisits the previous answer. The decision is printed with
    a short why, what the procedure changed is written back, and the turn is logged."""
    from whybot.facts.play.ledger import kept_given
    from whybot.facts.play.question import AnswerError
    from whybot.facts.play.table import Table

    from .answers_file import typed
    from .brief import render_brief
    from .played import answerer, follow, print_after, print_unasked, report_unused
    from .prompt import BACK, problem
    from .shown import shown

    table = Table.open(game)
    ask, source = answerer(answers)
    offer, flow = follow(table, at, ask, json_out)
    whose = bot or (offer.bot if offer is not None else table.next_bot())
    given = kept_given(table, source.answers, whose) if source else {}
    if source is not None:
        source.used |= set(given)
    moves = moves or (source is not None and any(key in source.answers
                                                 for key in table.move_lists))
    turn = table.turn(bot, at, dice, seed=seed, follow=True, given=given, moves=moves,
                      flow=flow)
    while (question := turn.next_question()) is not None:
        value, at_terminal = typed(ask, question, len(turn.answers) + 1)
        if value is BACK:
            turn.back()
            continue
        try:
            turn.answer(question.id, value)
        except AnswerError as exc:
            if not at_terminal:
                raise
            problem(exc)  # typed: asked again
    result = turn.decide()
    entry = table.record(result)
    report_unused(source)
    if json_out:
        print_json({"turn": entry["turn"], "bot": entry["bot"], "point": entry["point"],
                    "asked": entry["asked"], "decision": result.trace.decision.as_dict(),
                    "dice": [roll.as_dict() for roll in result.trace.dice],
                    "changes": entry["changes"],
                    "carried": entry["carried"].get("after")})
        return
    out.print(render_brief(replace(shown(table.engine, result.trace), hints=False)))
    print_unasked(table, entry)
    print_after(table, entry, game)


def undo(game: GameFile,
         turns: Annotated[int, typer.Option("--turns", "-n", min=1, metavar="N",
                                            help="How many turns to take back.")] = 1) -> None:
    """Take back the last turn (repeatable): the game file as it was before it."""
    from whybot.facts.play.ledger import summary
    from whybot.facts.play.table import Table

    table = Table.open(game)
    have = len(table.game.log)
    if turns > have:  # refused before any turn is taken back
        raise WhybotError("nothing to undo: the log is empty" if not have else
                          f"the game has only {have} turn{'s' if have != 1 else ''}: "
                          f"{turns} cannot be taken back, nothing changed", file=str(game),
                          path="--turns")
    for _ in range(turns):
        entry = table.undo()
        assert entry is not None  # the log holds `turns` turns
        typer.echo(f"took back turn {entry['turn']} ({entry['bot']}): "
                   f"{summary(entry['decision'])}")


def redo(game: GameFile,
         turns: Annotated[int, typer.Option("--turns", "-n", min=1, metavar="N",
                                            help="How many turns to put back.")] = 1) -> None:
    """Put back the turn `undo` took back last, as it was (until a new turn is played)."""
    from whybot.facts.play.ledger import summary
    from whybot.facts.play.table import Table

    table = Table.open(game)
    for _ in range(turns):
        entry = table.redo()
        if entry is None:
            raise WhybotError("nothing to redo: no turn was taken back since the last one "
                              "played", file=str(game))
        typer.echo(f"put back turn {entry['turn']} ({entry['bot']}): "
                   f"{summary(entry['decision'])}")


def log(game: GameFile, json_out: JsonOption = False) -> None:
    """The turns, one line each: number, bot, decision point, the decision, questions asked."""
    from whybot.facts.play.table import Table

    table = Table.open(game)
    lines = table.log_lines()
    if json_out:
        print_json(lines)
        return
    if not lines:
        typer.echo(f"{game}: no turns yet (whybot play {game})")
    for line in lines:
        point = f" {line['point']}" if line.get("point") else ""
        typer.echo(f"{line['turn']:>3}  {line['bot']:<8}{point:<9} {line['decision']}  "
                   f"({line['questions']} asked)")
