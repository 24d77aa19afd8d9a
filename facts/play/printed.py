"""What a game was told its cards show: asked the first time a card is seen, kept for the game.

The seeds leave some of what is printed on a card to the card itself (play.yaml `deck:
printed:`). A card new to the game is asked it once, with the pick that names it
(`with_pick`: a terminal asks it right after the line, a web page beside the card, an
answers file gives it in the entry or as `FIELD.CARD`); a pick that still lacks it is asked it
next, on its own. The turn that told it keeps it in the game file (a change of the game's
entities, so `undo` takes it back and `whybot fix` of that turn corrects it); every later turn
fills it in and never asks it again. A card the board shows on the table cannot be drawn, and a
value given again that differs from the one told is refused, naming the turn that told it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from whybot.engine import Pack

from ..values import ValueProblem
from .deck import Deck, Printed
from .question import AnswerError, Question, field_question
from .wording import plain

if TYPE_CHECKING:
    from .table import Table


def kept_printed(deck: Deck, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What the game was told each card shows (kept with the game's entities, by name)."""
    fields = deck.printed_fields()
    kept = state.get("entities", {}).get("game", {}).get(deck.kind, {})
    return {name: {f: v for f, v in values.items() if f in fields}
            for name, values in kept.items() if fields & set(values)}


def told_on(deck: Deck, log: list[dict[str, Any]]) -> dict[str, int]:
    """The turn that told the game what each card shows, by the card's name."""
    fields = deck.printed_fields()
    return {change["path"][3]: entry["turn"] for entry in log
            for change in entry.get("changes", [])
            if change["path"][:3] == ["entities", "game", deck.kind]
            and change["path"][4] in fields}


def printed_changes(deck: Deck, snapshot: dict[str, Any], state: dict[str, Any],
                    answered: bool) -> list[dict[str, Any]]:
    """What a turn told the game its cards show (only of a list the player answered: a card
    carried into a resumed turn was told before): a change each, as the ledger keeps them."""
    known = kept_printed(deck, state)
    changes = []
    for entry in snapshot.get(deck.key, []) if answered else []:
        name = deck.name_of(entry)
        for printed in deck.printed if name else ():
            if printed.field in entry and printed.field not in known.get(name or "", {}):
                changes.append({"path": ["entities", "game", deck.kind, name, printed.field],
                                "after": entry[printed.field]})
    return changes


def printed_question(deck: Deck, pack: Pack, name: str, printed: Printed) -> Question:
    """A card's printed value, asked on its own (its pick gave none: `with_pick`
    asks it with the pick)."""
    spec = pack.facts.entities[deck.kind].fields[printed.field]
    return printed_asked(field_question(spec, pack, printed.field, "field"), printed, name)


def printed_asked(field_: Question, printed: Printed, name: str) -> Question:
    """What card `name` prints (`field_`: the card's field question), asked once in a game,
    in the pack's words for it (its id `FIELD.CARD`, as an answers file gives it)."""
    spec = field_.spec
    if spec is not None and printed.minimum is not None:
        spec = replace(spec, minimum=printed.minimum)
    return replace(field_, id=f"{printed.field}.{name}", what="printed",
                   text=plain(printed.ask.format(card=name)), label=name,
                   minimum=spec.minimum if spec is not None else printed.minimum, spec=spec,
                   help=f"Asked once: the game keeps it for {name} from now on. "
                        f"{plain(printed.says)}")


def with_pick(question: Question, entries: list[dict[str, Any]]) -> list[Question]:
    """For each card of `entries` (a card pick's answer) new to the game, what it prints that
    its entry does not give: asked with the pick itself (a terminal: right after the line
    that picked it)."""
    if question.deck is None:
        return []
    by_id = {f.id: f for f in [*question.fields, *question.extra]}
    return [printed_asked(by_id[printed.field], printed, name)
            for entry in entries if (name := question.deck.name_of(entry))
            for printed in question.deck.printed
            if printed.field in by_id and printed.field not in entry
            and printed.field not in question.printed.get(name, {})]


def printed_field(deck: Deck, field_: Question) -> Question:
    """A card's field as a pick gives it: what the card prints held to its own bounds."""
    printed = next((p for p in deck.printed if p.field == field_.id), None)
    if printed is None or printed.minimum is None or field_.spec is None:
        return field_
    return replace(field_, minimum=printed.minimum,
                   spec=replace(field_.spec, minimum=printed.minimum))


def refuse_drawn(deck: Deck, entries: list[dict[str, Any]], board: dict[str, Any],
                 known: dict[str, dict[str, Any]], told: dict[str, int]) -> None:
    """An answer's cards held to the game: a card on the table cannot be drawn (the fact
    naming it may be answered after the cards), and a value the game was told for a card
    stays (correcting it is `whybot fix` of the turn that told it, `told`: name → turn)."""
    try:
        deck.drawable(entries, deck.on_table(board))
    except ValueProblem as exc:
        raise AnswerError(plain(str(exc)), path=deck.key) from None
    for entry in entries:
        name = deck.name_of(entry)
        for printed in deck.printed if name else ():
            kept = known.get(name or "", {}).get(printed.field)
            if kept is not None and printed.field in entry and entry[printed.field] != kept:
                turn = told.get(name or "")
                raise AnswerError(f"{name} shows {kept} {plain(printed.field)} in this game"
                                  + (f" (told on turn {turn})" if turn else ""),
                                  path=deck.key,
                                  hint=f"to correct it: whybot fix GAME --turn {turn}"
                                  if turn else None)


def unprinted(table: Table, data: dict[str, Any]) -> Question | None:
    """The question for the first card of a turn's snapshot `data` that shows what neither
    the answer nor the game gives (asked before the walk reads the card)."""
    deck = table.playbook.deck
    if deck is None:
        return None
    found = deck.unprinted(data.get(deck.key), kept_printed(deck, table.game.state))
    return printed_question(deck, table.engine.pack, *found) if found else None


def check_drawn(table: Table, question: Question, value: Any, trial: dict[str, Any],
                answers: list[tuple[Question, Any]]) -> None:
    """Cards the player names held to the game, once they and what `in_play:` reads are
    given (a fact naming a card on the table may be answered after the cards)."""
    deck = table.playbook.deck
    if deck is None:
        return
    facts = {fact for item in deck.in_play for fact in item.values()}
    given = value if question.id == deck.key else next(
        (v for q, v in reversed(answers) if q.id == deck.key), None) \
        if question.id in facts else None
    if given is not None:
        refuse_drawn(deck, given, trial, kept_printed(deck, table.game.state),
                     told_on(deck, table.game.log))


def said_this_turn(deck: Deck, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What the cards already in a turn's snapshot show (a list asked again keeps it)."""
    fields = deck.printed_fields()
    return {name: {f: v for f, v in entry.items() if f in fields}
            for entry in data.get(deck.key, []) if (name := deck.name_of(entry))}


def give_printed(deck: Deck | None, data: dict[str, Any], question: Question,
                 value: Any) -> None:
    """An answer to a printed question, written onto the card it names in a snapshot."""
    if deck is not None:
        printed_on(deck, data.get(deck.key, []), question, value)


def printed_on(deck: Deck, entries: list[dict[str, Any]], question: Question,
               value: Any) -> None:
    """What a card prints (the answer to `question`, `FIELD.CARD`), written onto the card it
    names among `entries`."""
    for item in entries:
        if deck.name_of(item) == question.label:
            item[question.id.partition(".")[0]] = value


__all__ = [
    "check_drawn",
    "give_printed",
    "kept_printed",
    "printed_asked",
    "printed_changes",
    "printed_field",
    "printed_on",
    "printed_question",
    "refuse_drawn",
    "said_this_turn",
    "told_on",
    "unprinted",
    "with_pick",
]
