"""Facts the table shows side by side, asked as one question (play.yaml `together:`).

A player reads the bot's resources off one board ("material 2, fuel 1, …"); asked one by one
they are five questions. A pack names such groups as data: `together: {resources: {facts:
[material, fuel, weapon, relic, psionic], ask: "…"}}`. The grouping stays lazy: when the next
question is a fact of a group, the group's other facts that the same walk read (and nobody
gave) come with it, in the group's order, and nothing else; a fact of a group read alone is
asked alone. Each value is checked as its own question checks it; the answer gives every
fact of the group, or, where the game offers last time's values, only what changed.

A group marked `whole: true` is one thing on the table (the card led: its suit and its number):
its facts nobody gave come together as soon as one of them is asked, read yet or not.

A group may name no facts but stand for the remembered ones (`remembered: true`, play.yaml
`remember:`, its facts and counts): the first time a turn reaches one that nobody said (a
bot's first turn), every one the decision point can read comes as one page (standing.py),
whatever their kinds, the groups among them kept side by side; a list stays its own question
(a table inside a form is no page a player can fill in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whybot.engine import did_you_mean

from .wording import as_name, plain

if TYPE_CHECKING:
    from .question import Question


@dataclass(frozen=True)
class Together:
    """A group: `name` is its question's id, `facts` in the order the player reads them;
    `help`: what a fact of it means, by the fact (the help names only the facts asked)."""

    name: str
    facts: tuple[str, ...]
    ask: str
    help: dict[str, str] = field(default_factory=dict)
    remembered: bool = False  # a page of the remembered facts (`facts`): standing.py
    whole: bool = False  # one thing on the table: every fact of it asked with the first

    def help_for(self, asked: Iterable[str]) -> str:
        """The help of the facts `asked` (of this group), in the group's order."""
        wanted = set(asked)
        return "; ".join(f"{plain(name)}: {plain(self.help[name])}" for name in self.facts
                         if name in wanted and name in self.help)


def said_together(said: dict[str, Any], groups: Iterable[Together],
                  say: Callable[[Any], str]) -> dict[str, str]:
    """What the player said, as the table reads it: a group's facts together under its name
    ("bot resources": "material 1, fuel 0, …", where the first of them was), the others
    each under its own; `say` puts a value in words."""
    of = {name: group for group in groups if not group.remembered for name in group.facts}
    listed: dict[str, str] = {}
    for name, value in said.items():
        group = of.get(name)
        if group is None:
            listed[plain(name)] = say(value)
        elif plain(group.name) not in listed:
            listed[plain(group.name)] = ", ".join(f"{plain(fact)} {say(said[fact])}"
                                                  for fact in group.facts if fact in said)
    return listed


def read_together(reader: Any, data: Any,
                  remembered: Mapping[str, list[str]] | None = None) -> dict[str, Together]:
    """The `together:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.names`): each group's `facts:` (board facts, each in one group) and `ask:`; a page of
    the `remembered` facts (by scope, `remembered: true`) holds their board facts and
    judgments (not the lists)."""
    found: dict[str, Together] = {}
    taken: set[str] = set()
    pack = reader.pack
    for name, spec in reader.mapping(data, ("together",)).items():
        path = ("together", name)
        if name in reader.board or name in pack.facts.judgments or name in reader.lists:
            raise reader.fail(path, f"{name!r} is a fact's own name: name the group otherwise")
        spec = reader.mapping(spec, path)
        keys = {"facts", "ask", "help", "remembered", "whole"}
        for key in spec:
            if key not in keys:
                raise reader.fail((*path, key), f"unknown key {key!r}",
                                  did_you_mean(str(key), keys))
        if not spec.get("ask"):
            raise reader.fail(path, "a group is asked in the player's words (ask:)")
        if spec.get("remembered") is True:
            if "facts" in spec or "help" in spec:
                raise reader.fail(path, "a group of the remembered facts names no facts (its "
                                        "facts are play.yaml `remember:`)")
            facts = [f for names in (remembered or {}).values() for f in names]
            found[str(name)] = Together(str(name), tuple(
                f for f in facts if f in reader.board or f in pack.facts.judgments),
                str(spec["ask"]), remembered=True)
            continue
        facts = reader.names(spec.get("facts"), (*path, "facts"), reader.board, "fact")
        if len(facts) < 2 or taken & set(facts):
            raise reader.fail((*path, "facts"), "two or more facts, none of another group")
        helps = reader.mapping(spec.get("help"), (*path, "help"))
        for fact in helps:
            if fact not in facts:
                raise reader.fail((*path, "help", fact), f"{fact!r} is not a fact of the group",
                                  did_you_mean(str(fact), set(facts)))
        taken |= set(facts)
        found[str(name)] = Together(str(name), tuple(facts), str(spec["ask"]),
                                    {str(k): str(v) for k, v in helps.items()},
                                    whole=spec.get("whole") is True)
    return found


def group_values(question: Question, raw: Any) -> dict[str, Any]:
    """A group question's answer (`question.parse`): `name 2, other name 1`, the values alone
    in order (`2 1 0`), or a mapping: a value for each field (with last time's values, only
    those that changed)."""
    from .question import AnswerError  # question.py imports this module: read at call time

    names = [f.id for f in question.fields]
    if isinstance(raw, str):
        raw = _typed(question, raw)
    if isinstance(raw, list):
        if len(raw) != len(names):
            raise AnswerError(f"{len(raw)} value(s) given for {len(names)}: "
                              f"{', '.join(map(plain, names))}", path=question.id)
        raw = dict(zip(names, raw, strict=True))
    if not isinstance(raw, dict):
        raise AnswerError(f"give a value for each of {', '.join(map(plain, names))}",
                          path=question.id)
    by_name = {f.id: f for f in question.fields}
    values = dict(question.default) if isinstance(question.default, dict) else {}
    for name, value in raw.items():
        field_ = by_name.get(as_name(str(name)))
        if field_ is None:
            raise AnswerError(f"{str(name)!r} is not asked here", path=question.id,
                              hint=did_you_mean(as_name(str(name)), set(names))
                              or f"one of: {', '.join(map(plain, names))}")
        try:
            values[field_.id] = field_.parse(value)
        except AnswerError as exc:
            raise AnswerError(f"{plain(field_.id)}: {exc.message}", path=question.id,
                              hint=exc.hint) from None
    missing = [name for name in names if name not in values]
    if missing:
        raise AnswerError(f"give {', '.join(map(plain, missing))} too", path=question.id)
    return {name: values[name] for name in names}

def _typed(question: Question, text: str) -> list[str] | dict[str, str]:
    """A typed group answer: `name value` parts separated by commas (a value may be several
    words: `imperial council in session`), or the values alone, in order, separated by commas
    or (none of several words) by spaces."""
    from .question import AnswerError

    first = question.fields[0]
    example = f"{plain(first.id)} {sample(first)}, …"
    parts = [part.strip() for part in re.split(r"[,;]", text) if part.strip()]
    named = [_named(question, part) for part in parts]
    if len(parts) == 1 and named[0] is None:  # the values alone, separated by spaces
        parts = parts[0].split()
        named = [None] * len(parts)
    values = [value for one, part in zip(named, parts, strict=True)
              for value in ([one[1]] if one else [part])]
    if any(_named(question, f"{word} x") for value in values for word in value.split()):
        raise AnswerError(f"separate each name and its value by commas ({example})",
                          path=question.id)
    if all(one is None for one in named):
        return parts
    if any(one is None and len(part.split()) < 2 for one, part in zip(named, parts,
                                                                         strict=True)):
        raise AnswerError(f"give each as a name and its value ({example}), or the "
                          "values alone in order", path=question.id)
    # a name not asked here: its last word taken as its value (group_values names it)
    return dict(one or tuple(part.rsplit(None, 1)) for one, part in zip(named, parts,
                                                                       strict=True))


def _named(question: Question, part: str) -> tuple[str, str] | None:
    """`part` as a field's name and its value (the longest name it starts with); None when it
    starts with none."""
    words = part.split()
    ids = {f.id for f in question.fields}
    return next(((" ".join(words[:cut]), " ".join(words[cut:]))
                 for cut in range(len(words) - 1, 0, -1)
                 if as_name(" ".join(words[:cut])) in ids), None)


def sample(field_: Question) -> str:
    """A value a field takes, for an example (its first choice, yes, or 1)."""
    if field_.kind == "choice" and field_.choices:
        return plain(str(field_.choices[0]))
    return "yes" if field_.kind == "yes_no" else "1"


__all__ = ["Together", "group_values", "read_together", "said_together", "sample"]
