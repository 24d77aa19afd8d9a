"""Answers from an answers file, and the terminal behind it.

An answers file (YAML/JSON: question id → value) answers the questions it names (`include:`
merges in a map's file, as a snapshot does; `dice:` gives the faces rolled at the table, in
order); any other question is asked on the terminal, or, without one, refused with the
question's id and text.
"""

from __future__ import annotations

from typing import Any

from whybot.engine import WhybotError
from whybot.facts.play.after import AFTER
from whybot.facts.play.first import NONE
from whybot.facts.play.naming import TARGET, split
from whybot.facts.play.question import AnswerError, Question

from . import picks
from .prompt import Ask, Terminal, Typed, hint


class Unanswered(WhybotError):
    """A question neither the answers file nor a terminal can answer."""


def typed(ask: Ask, question: Question, number: int) -> tuple[Any, bool]:
    """`ask`'s answer to `question`, and whether it was typed at a terminal (a wrong one is
    asked again there) rather than taken from an answers file (a wrong one ends the run)."""
    fallback = ask.fallback if isinstance(ask, FromFile) else None
    if isinstance(fallback, Typed):
        fallback.answered = None
    value = ask(question, number)
    return value, isinstance(ask, Terminal) or (
        isinstance(fallback, Typed) and fallback.answered is question)


class FromFile:
    """Answers from a mapping (an answers file); what it lacks goes to `fallback`."""

    def __init__(self, answers: dict[str, Any], origin: str,
                 fallback: Ask | None = None) -> None:
        self.answers, self.origin, self.fallback = answers, origin, fallback
        self.used: set[str] = set()
        self.rolled = 0  # faces of `dice:` taken so far

    def _faces(self, question: Question) -> Any:
        """A roll's faces from the file's `dice:` list (as a snapshot gives them), in order;
        None when it has no more."""
        faces = self.answers.get("dice")
        if question.kind != "dice" or not isinstance(faces, list) or \
                len(faces) - self.rolled < question.count:
            return None
        self.used.add("dice")
        taken = faces[self.rolled:self.rolled + question.count]
        self.rolled += question.count
        return taken

    def __call__(self, question: Question, number: int) -> Any:
        if question.id not in self.answers and (faces := self._faces(question)) is not None:
            try:
                return question.parse(faces)
            except AnswerError as exc:
                raise AnswerError(exc.message, file=self.origin, path="$.dice",
                                  hint=exc.hint) from None
        if question.again and question.id in self.used:  # its answer left the turn undecided
            if self.fallback is not None:
                return self.fallback(question, number)
            raise Unanswered(f"not decided, nothing saved: {question.again}", file=self.origin,
                             hint=f"give {question.id}: as the procedure asks, then play again")
        if question.id in self.answers:
            self.used.add(question.id)
            raw, target = split(question, self._given(question))
            if target:  # a yes naming its target (`{yes: …}`)
                return {"answer": self._parsed(question, raw), TARGET: target}
            return picks.printed_from_file(question, self._parsed(question, raw), self.answers,
                                           self.used, self.origin)
        if question.what == "first" and (picked := self._first(question)) is not None:
            return picked
        if question.what == AFTER:
            return self._page(question)
        if question.kind == "group" and (members := {
                f.id: self._given(f) for f in question.fields if f.id in self.answers}):
            self.used.update(members)  # a group's facts given one by one (`FACT: 2`; a count
            # asked again after an action, its first value: `starports: [0, 1]`), each checked
            # where the file gives it
            return self._parsed(question, {f.id: self._parsed(f, members[f.id])
                                           for f in question.fields if f.id in members})
        if question.kind == "names":  # each target's name from the file, if it gives one
            self.used.update(f.id for f in question.fields if f.id in self.answers)
            return self._parsed(question, {f.id: self.answers.get(f.id, "")
                                           for f in question.fields})
        if question.what == "name":  # the table's name for a target: unnamed if not given
            return question.default
        if question.what == "review":  # still so, unless the file gives one of them anew
            return self._still_so(question)
        if question.last:  # what the player said last time holds: the file changes nothing
            return question.default
        if self.fallback is not None:
            return self.fallback(question, number)
        raise Unanswered(f"no answer to {question.id!r}: {question.text}", file=self.origin,
                         hint=f"add `{question.id}:` ({hint(question)}), or play on a terminal")

    def _given(self, question: Question) -> Any:
        """The file's answer to `question`; a judgment given a list (asked again after each
        action) takes its values in order: the one after those the player said of it before,
        this turn (`times_said`)."""
        given = self.answers[question.id]
        if question.what != "answer" or not isinstance(given, list):
            return given
        count = question.times_said
        if count >= len(given):
            raise AnswerError(f"{question.id} is asked {count + 1} times: the list gives "
                              f"{len(given)} value(s)", file=self.origin,
                              path=f"$.{question.id}",
                              hint="give one value for each time it is asked")
        return given[count]

    def _parsed(self, question: Question, given: Any) -> Any:
        try:
            return question.parse(given)
        except AnswerError as exc:
            raise AnswerError(exc.message, file=self.origin, path=f"$.{question.id}",
                              hint=exc.hint) from None

    def _still_so(self, question: Question) -> bool:
        """The review of what was said last time: still so unless the file gives one of them
        anew. A judgment the file gives as the procedure asks it (a list: a value each time)
        whose first value is the one offered is no change: that value is taken."""
        given = {name: self.answers[name] for name in question.known if name in self.answers}
        same = {name: value for name, value in given.items()
                if question.known[name].get("judged") and (value[0] if isinstance(
                    value, list) and value else value) == question.known[name]["value"]}
        if len(same) < len(given):
            return False
        self.used.update(same)  # a list's first value said so (counted: `times_said`)
        return True

    def _first(self, question: Question) -> Any:
        """A run of yes/no questions asked as one (first.py), from the file's answer to each
        as it would be asked alone, down to the first yes; None if the file gives none of
        them."""
        if not any(member.id in self.answers for member in question.fields):
            return None
        picked: Any = NONE
        for member in question.fields:
            if member.id not in self.answers:
                raise Unanswered(f"no answer to {member.id!r}: {member.text}",
                                 file=self.origin, hint=f"add `{member.id}:` (y/n); the file "
                                 "answers no to each question the procedure reads before it")
            self.used.add(member.id)
            raw, target = split(member, self._given(member))
            if self._parsed(member, raw):
                picked = {"answer": member.id, TARGET: target} if target else member.id
                break
        return picked

    def _page(self, question: Question) -> Any:
        """The judgments an action may have changed, asked on one page (after.py): each from
        the file's answer to it as it would be asked alone (a list: its next value); one the
        file does not give, or whose values are used up, keeps its last answer."""
        given, targets = {}, {}
        for member in question.fields:
            values = self.answers.get(member.id)
            if member.id not in self.answers or (isinstance(values, list) and
                                                 member.times_said >= len(values)):
                continue
            self.used.add(member.id)
            given[member.id], target = split(member, self._given(member))
            if target:
                targets[member.id] = target
        value = self._parsed(question, given)
        return {"answer": value, TARGET: targets} if targets else value

    def unused(self) -> list[str]:
        return [name for name in self.answers if name not in self.used]


def answers_from(text: str, origin: str) -> dict[str, Any]:
    """An answers file's mapping, with what its `include:` names merged in (a map kept in
    its own file, included as a snapshot includes it; the file's own answers win)."""
    from whybot.engine import SnapshotError, parse_text
    from whybot.facts.includes import with_includes

    document = parse_text(text, origin, AnswerError)
    if document.data is None:
        return {}
    if not isinstance(document.data, dict):
        raise AnswerError("an answers file is a mapping of question id: answer", file=origin)
    try:
        data = with_includes(document).data
    except SnapshotError as exc:
        raise AnswerError(exc.message, file=exc.file, line=exc.line, path=exc.path,
                          hint=exc.hint) from None
    return data if isinstance(data, dict) else {}


__all__ = ["FromFile", "Unanswered", "answers_from", "typed"]
