"""The consultation's own questions: what `play` asks beyond the facts the walk reached.

A player at the table answers the bot's flowchart ("Can bot Tax to contend a declared
ambition?", `reach.Instead`) instead of listing every move. Two questions come with that
(and the targets' names, naming.py):
- after an action restarts the card's page, a question answered before it is asked again of
  the table the action left, the last answer offered (`after_action`; several of them are
  asked on one page, after.py);
- everything said on an earlier turn that holds until the table changes is offered at once,
  "Is all of this still so?" (`review`): yes keeps it all, no asks each as the walk reads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from whybot.engine import (
    FIELD,
    KIND,
    NAME,
    NOTHING_INSTEAD,
    Open,
    Reading,
    Situation,
    Trace,
    open_facts,
    tree_items,
)

from .naming import action_what
from .question import Question
from .together import Together, said_together
from .wording import cited, plain

if TYPE_CHECKING:
    from whybot.engine import Engine, Pack

    from .playbook import Playbook
    from .table import Table

REVIEW = "unchanged"  # the review question's id (an answers file may give it)
STILL_SO = " Is it still so on the table now? "  # after the last answer, before the help


def after_action(question: Question, item: Open, trace: Trace | None) -> Question:
    """A question of the walk read again after action `item.layer`: asked of the table as
    that action left it; if answered before it, the last answer offered."""
    text = f"{action_words(trace, item.layer)}: {question.text}"
    if not item.again:
        return replace(question, text=text)
    return replace(question, text=text, default=item.value, last=True,
                 help=f"Before that action: {shown(item.value)}.{STILL_SO}{question.help}"
                      .strip())


def review(said: dict[str, Any], groups: Iterable[Together] = (),
           judged: Iterable[str] = ()) -> Question:
    """What the player said on earlier turns, offered at once (see the module docstring); the
    facts of a group (`together:`) together, as the table shows them; `judged`: the
    judgments among them (a count said of the card's start, asked again after an action)."""
    judgments = set(judged)
    listed = "; ".join(f"{name}: {value}"
                       for name, value in said_together(said, groups, shown).items())
    return Question(id=REVIEW, what="review", kind="yes_no",
                    text=f"Since the last turn: {listed}. Is all of this still so?",
                    help="yes: keep them all; no: each is asked as the procedure reads it, "
                         "the last value offered", default=True, last=True,
                    known={name: {"value": value, **({"judged": True} if name in judgments
                                                     else {})} for name, value in said.items()})


def asked_as(book: Playbook, pack: Pack, name: str) -> str:
    """A judgment as the player is asked it (play.yaml's wording, else the seed's)."""
    spec = pack.facts.judgments.get(name)
    return plain(book.wording(name).ask or (spec.says if spec is not None else "") or name)


def assumed_at_table(table: Table, situation: Situation, trace: Trace,
                     reading: Reading) -> list[dict[str, Any]]:
    """What a decision at the table read and nobody gave: the moves, unless listed, were
    asked as the seed's questions (the judgments a consultation asks), so they are none."""
    listed = any(kind not in situation.unlisted for kind in table.playbook.consult)
    return [o.as_dict() for o in open_facts(table.engine, trace, reading, situation,
                                            NOTHING_INSTEAD if listed else table.instead)]


def definitions(engine: Engine, name: str, sections: list[str]) -> str:
    """The seed's words for what a judgment asked as a question is made of: the `says:` of the
    rules deriving the entity fields and judgments its own derivations read ("contend: take
    an action causing bot to improve its position ..."), those citing one of the seed's
    `sections` of definitions (the pack's play.yaml `terms:`), for the question's help."""
    reads = engine.reads.sources.get((NAME, name), [])
    fields = {item.partition(".")[2] for what, item in reads if what == FIELD}
    judged = {item for what, item in reads if what == NAME}
    found: list[str] = []
    for rule in engine.pack.derivations():
        what, concluded = engine.reads.derivations[rule.id].source_of or (KIND, "")
        made_of = (what == NAME and concluded in judged) or \
            (what == FIELD and concluded.partition(".")[2] in fields)
        if made_of and rule.says and plain(rule.says) not in found and \
                any(section in rule.cite for section in sections):
            found.append(plain(rule.says))
    return "; ".join(found)


def read_for(engine: Engine, items: Iterable[tuple[str, str]], most: int = 3) -> str:
    """What facts or lists (`(NAME, fact)`, `(KIND, kind)`) asked before any rule reads them
    (a decision point needs them) are for: the seed's words of the rules that read them, each
    with its citation ("give the bot some additional advantages when it does not have more
    power than the player (SUPERCAT v0.9 § Difficulty modifiers (Optional))"), for `?`: those
    reading more of them first (what compares the two powers), derivations before uses."""
    pack, wanted = engine.pack, set(items)
    derivations = engine.reads.derivations
    by_id = {rule.id: rule for rule in pack.rules()}
    ranked: list[tuple[int, bool, str]] = []
    for rule_id, reads in engine.reads.rules.items():
        rule = by_id.get(rule_id)
        derived = derivations.get(rule_id)
        read = wanted & {*tree_items(reads.condition, engine.reads.aliases), *reads.outcome,
                         *(derived.when_items + derived.value_items if derived else ())}
        if rule is None or not rule.says or not read:
            continue
        source = pack.pages[rule.page].source if rule.page in pack.pages else ""
        ranked.append((-len(read), derived is None,
                       f"“{plain(rule.says)}” ({cited(rule.cite or source, pack)})"))
    found = list(dict.fromkeys(line for *_, line in sorted(ranked, key=lambda r: r[:2])))
    return f"the procedure reads it: {'; '.join(found[:most])}" if found else ""


def by_reason(book: Playbook, pack: Pack,
              unasked: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """A turn's logged answers the table gave, as the player reads them: each reason once,
    with the questions it answered in their words ("Can bot Tax to take captives? no")."""
    found: dict[str, list[str]] = {}
    for item in unasked:
        line = f"{asked_as(book, pack, item['id'])} {shown(item['value'])}"
        if line not in found.setdefault(item["why"], []):
            found[item["why"]].append(line)
    return found


def shown(value: Any) -> str:
    """A value said at the table, in a line: yes/no, the names of a list, or in words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        names = [str(next(iter(item.values()))) if isinstance(item, dict) and item else
                 str(item) for item in value]
        return ", ".join(map(plain, names)) if names else "none"
    return plain(str(value))


def action_words(trace: Trace | None, layer: int) -> str:
    """"After action 2 (tax — take captives)": the table an action left, in plain words."""
    actions = trace.decision.actions if trace is not None else []
    taken = action_what(actions[layer - 1]) if len(actions) >= layer else ""
    return f"After action {layer}" + (f" ({taken})" if taken else "")


__all__ = ["REVIEW", "STILL_SO", "action_words", "after_action", "asked_as",
           "assumed_at_table", "by_reason", "definitions", "read_for", "review", "shown"]
