"""What the walk reaches, as the question a player is asked: in the seed's words, with the
choices the table offers, and the last answer offered again where the pack remembers it.

`turn.py` decides what to ask next; this module only says how one open item reads, and how
facts the pack asks together (`together:`, together.py) read as one question (the page of a
bot's standing: standing.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from whybot.engine import KIND, NAME, Open, Reading, Trace

from .consult import after_action, definitions, read_for
from .inquiry import first_unrolled
from .printed import kept_printed, printed_field
from .question import Question, field_question, list_question
from .together import Together
from .wording import cited, plain, reason

if TYPE_CHECKING:
    from .table import Table


def question_for(table: Table, bot: str, data: dict[str, Any], item: Open,
                 trace: Trace | None) -> Question:
    """The question `item` (a fact, list or judgment the walk read that nobody gave) is asked
    as, in a turn of `bot` whose snapshot so far is `data`; `trace`: the decision the open
    items came from."""
    return _remembered(table, bot, _asked(table, bot, data, item, trace))


def _asked(table: Table, bot: str, data: dict[str, Any], item: Open,
           trace: Trace | None) -> Question:
    pack, book = table.engine.pack, table.playbook
    why = reason(pack, item.rule, item.page)
    if item.what == "list":
        entity = pack.facts.entities[item.kind]
        deck = book.deck if book.deck is not None and book.deck.key == item.name else None
        question = list_question(item.name, entity, pack, book.hidden.get(item.kind, []),
                                 book.wording(item.name),
                                 table.kept_labels(bot, item.kind) if deck is None else {},
                                 **why)
        question = replace(question, meaning="" if item.rule else
                           read_for(table.engine, [(KIND, item.kind)]))
        if deck is None:
            return question
        return replace(question, deck=deck, printed=kept_printed(deck, table.game.state),
                       on_table=tuple(deck.on_table(data)),
                       fields=[printed_field(deck, f) for f in question.fields])
    if item.what == "answer":
        spec = pack.facts.judgments[item.name]
        question = field_question(spec, pack, item.name, "answer",
                                  book.wording(item.name), layer=item.layer,
                                  meaning="" if item.rule else _meaning(table, item.name),
                                  **why)
        if item.name in table.instead and (terms := definitions(
                table.engine, item.name, book.terms)):
            question = replace(question, help=f"In the seed's words: {terms}")
        return after_action(question, item, trace) if item.layer else question
    spec = pack.facts.board[item.name]
    question = field_question(spec, pack, item.name, "fact", book.wording(item.name),
                              meaning="" if item.rule else read_for(table.engine,
                                                                    [(NAME, item.name)]),
                              **why)
    if spec.refers:  # it names a listed entity: those listed are the choices
        names = [e.get(f) for kind, f in spec.refers
                 for e in data.get(pack.facts.entities[kind].key or "", [])
                 if isinstance(e, dict) and e.get(f)]
        question = replace(question, kind="choice", choices=[*(spec.enum or []), *names])
    return question


def _meaning(table: Table, judgment: str) -> str:
    """What `?` says of a judgment asked before any rule reads it: the rules that read it,
    else (a judgment only a decision's words show) the rules that work it out."""
    if found := read_for(table.engine, [(NAME, judgment)]):
        return found
    pack, derivations = table.engine.pack, table.engine.reads.derivations
    derived = dict.fromkeys(
        f"“{plain(rule.says)}” ({cited(rule.cite or pack.pages[rule.page].source, pack)})"
        for rule in pack.derivations()
        if rule.says and derivations[rule.id].source_of == (NAME, judgment))
    return f"the procedure works it out: {'; '.join(list(derived)[:3])}" if derived else ""


def unread_of(table: Table, bot: str, data: dict[str, Any],
              trace: Trace | None) -> Callable[[str], Question | None]:
    """A fact's (or judgment's) question before the walk reads it (None: `data` gives it), in
    a turn of `bot`: what a whole group (together.py) asks with its first fact, and the page
    of the bot's standing (standing.py) with the first it reads."""
    judgments = table.engine.pack.facts.judgments

    def unread(name: str) -> Question | None:
        if name in judgments:
            if name in data.get("answers", {}):
                return None
            item = Open("answer", name, judgments[name].default, judgments[name].says, "", "")
        elif name in data:
            return None
        else:
            item = Open("fact", name, None, table.engine.pack.facts.board[name].says, "", "")
        return question_for(table, bot, data, item, trace)
    return unread


def _remembered(table: Table, bot: str, question: Question) -> Question:
    """A fact or list the player said on an earlier turn (the pack's `remember:`): asked
    again, the last answer offered as the default to keep or change."""
    said = table.said(bot).get(question.id)
    if said is None or question.again or question.layer:  # after an action: this card's
        return question
    if isinstance(said, list):
        said = [{**item, **question.known.get(label_of(item, question), {})}
                for item in said]
        shown = f"{len(said)} entr{'y' if len(said) == 1 else 'ies'}"
    else:
        shown = plain(str(said)) if not isinstance(said, bool) else \
            ("yes" if said else "no")
    return replace(question, default=said, last=True,
                   help=f"Last time: {shown}. Anything changed? Keep it or give the new "
                        f"value. {question.help}".strip())


def grouped(table: Table, questions: list[Question],
            unread: Callable[[str], Question | None] | None = None) -> list[Question]:
    """The open questions with the next one, a fact of a group (the pack's `together:`),
    asked together with the group's other open facts read before any roll (what the walk
    reads after a roll depends on its faces); a whole group, with its facts not read yet."""
    if not questions or questions[0].what != "fact":
        return questions
    first, book = questions[0], table.playbook
    group = _group_of(book.together.values(), first.id)
    if group is None:
        return questions
    roll = next((i for i, q in enumerate(questions) if q.what == "dice"), len(questions))
    members = {q.id: q for q in questions[:roll] if q.what == "fact" and q.id in group.facts}
    if group.whole and unread is not None:
        members.update((name, found) for name in group.facts
                       if name not in members and (found := unread(name)) is not None)
    if len(members) < 2:
        return questions
    return as_one(table, group, [members[name] for name in group.facts if name in members],
                  questions[1:])


def _group_of(groups: Iterable[Together], name: str) -> Together | None:
    """The group (not the page of remembered facts) `name` is asked with."""
    return next((g for g in groups if not g.remembered and name in g.facts), None)


def unit_of(groups: Iterable[Together], name: str) -> str:
    """What a fact is asked with: its group's name, else its own."""
    group = _group_of(groups, name)
    return group.name if group else name


def side_by_side(groups: Iterable[Together], fields: list[Question]) -> list[Question]:
    """`fields` in the order the walk read them, a group's facts together at its first."""
    by_id = {f.id: f for f in fields}
    ordered: dict[str, Question] = {}
    for found in fields:
        group = _group_of(groups, found.id)
        names = [n for n in group.facts if n in by_id] if group else [found.id]
        ordered.update((name, by_id[name]) for name in names)
    return list(ordered.values())


def as_one(table: Table, group: Together, fields: list[Question],
           rest: list[Question]) -> list[Question]:
    """`fields` asked as `group`'s one question, then the `rest` it does not give."""
    asked = {f.id for f in fields}
    read = dict.fromkeys(f"“{f.rule_says}”" + (f" ({f.cite})" if f.cite else "")
                         for f in fields if f.rule_says)
    meaning = f"the procedure reads them here: {'; '.join(read)}" if read else \
        read_for(table.engine, [(NAME, name) for name in asked])
    return [group_question(group, fields, meaning), *(q for q in rest if q.id not in asked)]


def group_question(group: Together, fields: list[Question], meaning: str = "") -> Question:
    """One question for `fields` (each a fact's own question): last time's values offered
    when the game has every one of them."""
    last = all(f.last for f in fields)
    shown = ", ".join(f"{plain(f.id)} {_word(f.default)}" for f in fields)
    help_text = (f"Last time: {shown}. Anything changed? Change only what changed. "
                 if last else "") + group.help_for(f.id for f in fields)
    return Question(id=group.name, what="group", kind="group", text=plain(group.ask),
                    help=help_text.strip(), fields=fields, last=last,
                    default={f.id: f.default for f in fields} if last else None,
                    rule=fields[0].rule, page=fields[0].page, rule_says=fields[0].rule_says,
                    cite=fields[0].cite, meaning=meaning)


def facts_of(question: Question) -> list[str]:
    """The facts a question gives: a group's, a run's (first.py) or an after-action page's
    (after.py), else its own id."""
    return [f.id for f in question.fields] if question.what in ("group", "first", "after") \
        else [question.id]


def _word(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else plain(str(value))


def dice_question(roll: dict[str, Any], given: int) -> Question:
    """The faces of `roll` asked at the table (dice rolled there); `given`: how many faces the
    snapshot has already."""
    count, _, sides = str(roll["dice"]).partition("d")
    return Question(id=f"dice.{given}", what="dice", kind="dice",
                    text=plain(f"Roll {int(count) - roll['skip']}d{sides}: {roll['for']}"),
                    help=plain(str(roll["for"])), count=int(count) - roll["skip"],
                    sides=int(sides))


def with_dice(opened: list[Open], questions: list[Question], trace: Trace, reading: Reading,
              given: int) -> list[Question]:
    """Dice rolled at the table are asked where the walk rolls them: after the facts it read
    before the roll (what it reads after may depend on the faces); `given`: the faces the
    snapshot has already."""
    roll = first_unrolled(trace, given)
    if roll is None:
        return questions
    index = next((i for i, r in enumerate(trace.dice) if r is roll["roll"]), None)
    step = reading.roll_steps[index] if index is not None and \
        index < len(reading.roll_steps) else len(trace.steps)
    pairs = list(zip(opened, questions, strict=True))
    return [*(q for o, q in pairs if o.step <= step), dice_question(roll, given),
            *(q for o, q in pairs if o.step > step)]


def label_of(item: dict[str, Any], question: Question) -> str:
    """The label an entry of a list answer goes by (its `name`, say; a card its deck name)."""
    if question.deck is not None:
        return question.deck.name_of(item) or ""
    return str(item.get(question.label, ""))
