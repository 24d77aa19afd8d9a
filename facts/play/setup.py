"""Starting a game: the setup questions (the bots, the game's setup facts, each bot's), and
the new game file their answers make.

A game names an installed pack (never a folder: its file must open on any machine with
whybot), whose engine the registry keeps (`whybot.facts.packs`).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, cast

from whybot.engine import Pack, did_you_mean

from ..packs import installed_engine
from .game import Game, write_game
from .playbook import Playbook, load_playbook
from .question import AnswerError, Question, field_question
from .wording import plain


def game_pack(name: str, rules: tuple[str, ...] = ()) -> Pack:
    """The pack a game names, with its house-rule folders (its compiled engine's)."""
    return installed_engine(name, rules).pack


def setup_questions(pack: str, bots: list[str] | None = None,
                    rules: tuple[str, ...] = ()) -> list[Question]:
    """What `Table.new` needs: the bots (ids `bots`), the game's setup facts, then — once the
    bots are named — each bot's (ids `BOT.FACT`)."""
    loaded = game_pack(pack, rules)
    book = load_playbook(loaded)
    name = Question(id="name", what="setup", kind="choice", text="",
                    choices=book.bot_names)  # the field of one entry of `bots`
    kept = _kept_bot_fields(loaded, book)
    extra = [field_question(loaded.facts.entities[kind].fields[f], loaded, f, "field")
             for kind, f in kept]
    also = f" (and, already in play: {', '.join(plain(f) for _, f in kept)})" if kept else ""
    questions = [Question(id="bots", what="setup", kind="entities", text=book.bots_says,
                          help=f"1 to {book.max_bots}" + (f" of: {', '.join(book.bot_names)}"
                                                          if book.bot_names else "") + also,
                          fields=[name], extra=extra, required=True, label="name")]
    for fact in book.setup["game"]:
        questions.append(field_question(loaded.facts.board[fact], loaded, fact, "setup",
                                        book.wording(fact)))
    for bot in bots or []:
        for fact in book.setup["bot"]:
            question = field_question(loaded.facts.board[fact], loaded, f"{bot}.{fact}",
                                      "setup", book.wording(fact))
            questions.append(question)
    return questions


def _kept_bot_fields(pack: Pack, book: Playbook) -> list[tuple[str, str]]:
    """The kept fields of the entity list the game's bots fill (a bot's captured count):
    what the bots question takes for a game already under way."""
    kind = next((k for k, s in pack.facts.entities.items()
                 if book.bots_list and s.key == book.bots_list), None)
    return [(kind, f) for f in book.keep_fields.get(kind, ("game", []))[1]] if kind else []


def _keep_bot_fields(game: Game, question: Question, raw: Any,
                     kept: list[tuple[str, str]], book: Playbook) -> None:
    """What the bots answer gives beside their names (a bot's captured count), kept where
    the pack's `keep:` says."""
    items = [i for i in raw if isinstance(i, dict)] if isinstance(raw, list) else []
    for item in question.parse(items) if items else []:
        for kind, fact in kept:
            if fact in item:
                owner = "game" if book.keep_fields[kind][0] == "game" else item["name"]
                game.state["entities"].setdefault(owner, {}).setdefault(kind, {}) \
                    .setdefault(item["name"], {})[fact] = item[fact]


def _bots(raw: Any, book: Playbook) -> list[str]:
    items = raw if isinstance(raw, list) else str(raw or "").replace(",", " ").split()
    given = [item.get("name") if isinstance(item, dict) else item for item in items]
    if not given or not all(isinstance(n, str) and n for n in given):
        raise AnswerError("name the bots (at least one)", path="bots")
    names = cast(list[str], given)  # each checked just above to be a name
    if len(names) > book.max_bots or len(set(names)) != len(names):
        raise AnswerError(f"1 to {book.max_bots} bots, each named once", path="bots")
    for name in names:
        if book.bot_names and name not in book.bot_names:
            raise AnswerError(f"{name!r} is not one of: {', '.join(book.bot_names)}",
                              path="bots", hint=did_you_mean(name, set(book.bot_names)))
    return names


def _relative(name: str, game: Path) -> str:
    """A path given on the command line, as the game file keeps it: from its own folder."""
    return os.path.relpath(Path(name).resolve(), Path(game).resolve().parent)


def new_game(path: Path, pack: str, answers: dict[str, Any], *, name: str = "",
             seed: int | None = None, rules: list[str] | None = None,
             include: list[str] | None = None) -> Game:
    """Start a game from the setup answers (see `setup_questions`) and save it (a file
    that exists is never overwritten). `include`: files every snapshot of the game
    includes (a map), relative to the game file."""
    folders = tuple(str(Path(r).resolve()) for r in rules or [])
    book = load_playbook(game_pack(pack, folders))
    bots = _bots(answers.get("bots"), book)
    questions = {q.id: q for q in setup_questions(pack, bots, folders)[1:]}
    for ident in answers:
        if ident not in questions and ident != "bots":
            raise AnswerError(f"no setup question {ident!r}", path=ident,
                              hint=did_you_mean(ident, set(questions)))
    game = Game(pack=pack, name=name or Path(path).stem, bots=bots,
                seed=secrets.randbelow(10**6) if seed is None else seed,
                rules=[_relative(r, path) for r in rules or []],
                include=[_relative(i, path) for i in include or []])
    for ident, question in questions.items():
        if ident not in answers and question.default is None:
            raise AnswerError(f"setup needs {ident!r}: {question.text}", path=ident)
        value = question.parse(answers.get(ident, question.default))
        bot, _, fact = ident.rpartition(".")
        target = game.state["bots"][bot] if bot else game.state["game"]
        target[fact] = value
    if book.bots_count:
        game.state["game"][book.bots_count] = len(bots)
    _keep_bot_fields(game, setup_questions(pack, None, folders)[0], answers.get("bots"),
                     _kept_bot_fields(game_pack(pack, folders), book), book)
    write_game(game, Path(path), game_pack, new=True)
    return game

