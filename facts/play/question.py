"""A question `whybot play` (or its web page) asks, and the checking of an answer to it.

A question is built from what the walk reached and the pack declares: the fact or judgment
(`engine/walk/facts_read.py` `Open`), its spec in the pack's fact schema, and the pack's wording in
`play.yaml`. Its `kind` says what answer it takes — `yes_no`, `number` (in `minimum..maximum`),
`choice` (one of `choices`), `text`, `entities` (a list of mappings of `fields`, each field a
question itself), `group` (one value for each of `fields`: facts asked together, together.py),
`first` (which of `fields`, yes/no questions in the procedure's order, is the first answered
yes: first.py), `names` (a text for each of `fields`: the targets' names) or `dice` (`count`
faces of a d`sides`) — so a terminal and a web form can render the right input. `parse` reads
typed text ("y", "3", a unique prefix of a choice) or an already typed value (a YAML answers
file, a form) and checks it against the same field specs the snapshot reader uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whybot.engine import EntitySpec, FieldSpec, Pack, WhybotError, did_you_mean

from ..values import ValueProblem, check_value
from .playbook import Wording
from .together import group_values
from .wording import as_name, cited, plain

if TYPE_CHECKING:
    from .deck import Deck

YES = {"y", "yes", "true", "t", "1", "on"}
NO = {"n", "no", "false", "f", "0", "off"}


class AnswerError(WhybotError):
    """An answer that does not fit its question (the message says what would)."""


@dataclass(frozen=True)
class Question:
    """One question, JSON-ready through `as_dict`.

    `id`: where the answer goes (a fact, a judgment, an entity list's key, `dice.N`); `what`:
    fact | answer (a judgment) | list | dice | setup; `rule`, `page`, `rule_says`, `cite`: why
    it is asked (the first rule that read it); `default` only where the seed gives one
    (`default_cite`); `known`: kept fields of listed entities, by the value of their `label`
    field (a list question: an entry given without them gets them from the game)."""

    id: str
    what: str
    kind: str
    text: str
    help: str = ""
    default: Any = None
    default_cite: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: list[Any] | None = None
    fields: list[Question] = field(default_factory=list)
    extra: list[Question] = field(default_factory=list)  # fields taken if given, never asked
    required: bool = False
    count: int = 0
    sides: int = 0
    rule: str = ""
    page: str = ""
    rule_says: str = ""
    cite: str = ""
    known: dict[str, dict[str, Any]] = field(default_factory=dict)
    label: str = ""
    again: str = ""  # asked again: the procedure could not decide without it (why)
    last: bool = False  # `default` is what the player said last time (kept by the game)
    layer: int = 0  # a judgment: said of the table as this many actions of the card left it
    meaning: str = ""  # what `?` says when no one rule read it (needed first, or a group)
    spec: FieldSpec | None = field(default=None, compare=False, repr=False)
    # a list of cards picked from the pack's deck by name (deck.py); `printed`: what the game
    # was told each card shows, by its name
    deck: Deck | None = field(default=None, compare=False, repr=False)
    printed: dict[str, dict[str, Any]] = field(default_factory=dict)
    on_table: tuple[str, ...] = ()  # cards in play, by name: not in the stack to draw
    nameable: tuple[str, ...] = ()  # its judgments whose yes may name the target (naming.py)

    def why(self) -> str:
        """What `?` shows: the rule that needs the answer, on which page, in the seed's words
        (asked before any rule reads it, or several facts asked together: `meaning`)."""
        if self.again:
            return self.again
        if self.what == "dice":
            return f"the procedure rolls {self.count}d{self.sides} here: {self.help}"
        if self.meaning:
            return self.meaning
        if not self.rule:
            return self.help or "the procedure cannot start without it"
        text = "the procedure reads it here"
        if self.rule_says:
            text += f": “{self.rule_says}”"
        return text + (f" ({self.cite})" if self.cite else "")

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "what": self.what, "kind": self.kind,
                                "text": self.text}
        for name in ("help", "default", "default_cite", "minimum", "maximum", "choices",
                     "count", "sides", "rule", "page", "rule_says", "cite", "known", "label",
                     "again", "last", "layer", "nameable"):
            value = getattr(self, name)
            if value is not None and (name in ("minimum", "maximum", "default")
                                      or value not in ("", 0, {}, [], ())):
                data[name] = list(value) if isinstance(value, tuple) else value
        if self.required:
            data["required"] = True
        if self.fields:
            data["fields"] = [f.as_dict() for f in self.fields]
        if self.deck is not None:
            data["deck"] = self.deck.names()
            if self.printed:
                data["printed"] = self.printed
        if self.rule or self.meaning or self.what == "dice":
            data["why"] = self.why()
        return data

    def parse(self, raw: Any) -> Any:
        """The answer as a value of the right type, or AnswerError saying what would fit."""
        if self.kind == "entities":
            return self._entities(raw)
        if self.kind == "dice":
            return self._dice(raw)
        if self.kind == "group":
            return group_values(self, raw)
        if self.kind == "first":  # first.py imports this module: read at call time
            from .first import pick

            return pick(self, raw)
        if self.kind == "names":
            from .naming import names_given

            return names_given(self, raw)
        if isinstance(raw, str):
            raw = self._from_text(raw.strip())
        if self.spec is None:
            return raw
        try:
            return check_value(raw, self.spec, self.choices if self.kind == "choice" else None)
        except ValueProblem as exc:
            raise AnswerError(str(exc), path=self.id, hint=exc.hint) from None

    def _from_text(self, text: str) -> Any:
        if self.kind == "yes_no":
            if text.lower() in YES | NO:
                return text.lower() in YES
            raise AnswerError(f"{text!r}: answer yes or no", path=self.id)
        if self.kind == "number":
            try:
                return float(text) if "." in text else int(text)
            except ValueError:
                raise AnswerError(f"{text!r} is not a number", path=self.id) from None
        if self.kind == "choice" and self.choices:
            names = [str(c) for c in self.choices]
            for typed in (text, as_name(text)):  # `round end` is the choice round_end
                if typed in names:
                    return self.choices[names.index(typed)]
            starting = [c for c, n in zip(self.choices, names, strict=True)
                        if n.lower().startswith(text.lower())] if text else []
            if len(starting) == 1:
                return starting[0]
            hint = did_you_mean(text, set(names)) or f"one of: {', '.join(map(plain, names))}"
            raise AnswerError(f"{text!r} is not one of the choices", path=self.id, hint=hint)
        return text

    def answer_words(self, value: Any) -> str:
        """An answer as the player reads it: a pick of the first of several questions (the
        question picked), names given to the targets (each with its action), else the value."""
        if self.kind == "first":
            return next((m.text for m in self.fields if m.id == value), "none of these")
        if self.kind == "names" and isinstance(value, dict):
            return "; ".join(f"{f.text}: {value.get(f.id) or 'unnamed'}" for f in self.fields)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return plain(str(value))

    def _dice(self, raw: Any) -> list[int]:
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = [raw]
        if not isinstance(raw, list):
            raise AnswerError(f"give the {self.count} face(s) rolled", path=self.id)
        faces = []
        for face in raw:
            try:
                value = int(face)
            except (TypeError, ValueError):
                raise AnswerError(f"{face!r} is not a die face", path=self.id) from None
            if isinstance(face, bool) or not 1 <= value <= self.sides:
                raise AnswerError(f"{face!r} is not a face of a d{self.sides}", path=self.id)
            faces.append(value)
        if len(faces) != self.count:
            raise AnswerError(f"{len(faces)} face(s) given; the roll is {self.count}d"
                              f"{self.sides}", path=self.id)
        return faces

    def _entities(self, raw: Any) -> list[dict[str, Any]]:
        if raw is None:
            return []
        if self.deck is None and self.fields:  # plain values (`tycoon, warlord`) are entries
            named = self.label or self.fields[0].id  # by their naming field
            if isinstance(raw, str):
                raw = [part.strip() for part in raw.split(",") if part.strip()]
            if isinstance(raw, list):
                raw = [item if isinstance(item, dict) else {named: item} for item in raw]
        if isinstance(raw, str) and self.deck is not None:  # `red 6, blue 2`
            raw = self._in_deck(self.deck.line, raw, self.id)
        if not isinstance(raw, list):
            raise AnswerError("give a list of entries, each a mapping of its fields",
                              path=self.id)
        by_name = {f.id: f for f in [*self.fields, *self.extra]}
        items = []
        for index, item in enumerate(raw):
            if self.deck is not None:  # a card picked by its name
                item = self._in_deck(self.deck.entry, item, f"{self.id}[{index}]")
            if not isinstance(item, dict):
                raise AnswerError("give a list of entries, each a mapping of its fields",
                                  path=self.id)
            checked = {}
            for name, value in item.items():
                sub = by_name.get(name) or by_name.get(as_name(str(name)))
                if sub is None:
                    raise AnswerError(f"unknown field {name!r}", path=f"{self.id}[{index}]",
                                      hint=did_you_mean(str(name), set(by_name)))
                try:
                    checked[sub.id] = sub.parse(value)
                except AnswerError as exc:
                    raise AnswerError(exc.message, path=f"{self.id}[{index}].{name}",
                                      hint=exc.hint) from None
            missing = [f.id for f in self.fields if f.required and f.id not in checked]
            if missing:
                raise AnswerError(f"each entry needs its {', '.join(map(plain, missing))}",
                                  path=f"{self.id}[{index}]")
            items.append(checked if self.deck is None else
                         self._in_deck(self.deck.checked, checked, f"{self.id}[{index}]"))
        if self.deck is not None:
            self._in_deck(lambda cards: self.deck and self.deck.drawable(cards, self.on_table),
                          items, self.id)
        return items

    def _in_deck(self, check: Any, value: Any, path: str) -> Any:
        """A deck's check of a card (deck.py), its problem as this question's."""
        try:
            return check(value)
        except ValueProblem as exc:
            raise AnswerError(str(exc), path=path, hint=exc.hint) from None


def kind_of(spec: FieldSpec, choices: list[Any] | None) -> str:
    if spec.type == "boolean":
        return "yes_no"
    if spec.type in ("integer", "number"):
        return "number"
    return "choice" if choices else "text"


def field_question(spec: FieldSpec, pack: Pack, ident: str, what: str,
                   wording: Wording = Wording(), **why: Any) -> Question:
    """A question about one fact, judgment or entity field (`why`: rule, page, rule_says,
    cite). A field that names listed entities (`refers`) takes text: which names are listed
    is known only with the whole snapshot."""
    choices = None if spec.refers else pack.allowed(spec)
    return Question(id=ident, what=what, kind=kind_of(spec, choices),
                    text=plain(wording.ask or spec.says or ident.split(".")[-1]),
                    help=plain(wording.help or (spec.says if wording.ask else "")),
                    default=wording.default, default_cite=cited(wording.cite, pack),
                    minimum=spec.minimum, maximum=spec.maximum,
                    choices=list(choices) if choices else None, required=spec.required,
                    spec=spec, **why)


def list_question(key: str, entity: EntitySpec, pack: Pack, hidden: list[str],
                  wording: Wording = Wording(), known: dict[str, dict[str, Any]] | None = None,
                  **why: Any) -> Question:
    """A question whose answer is a list of entities: its fields are questions too (not the
    derived ones, nor those the pack hides: the rules mark them — yet an answer may give
    them, as a snapshot may)."""
    fields: list[Question] = []
    extra: list[Question] = []
    for name, spec in entity.fields.items():
        asked = not spec.derived and name not in hidden
        (fields if asked else extra).append(field_question(spec, pack, name, "field"))
    return Question(id=key, what="list", kind="entities",
                    text=plain(wording.ask or entity.says or key),
                    help=plain(wording.help or (entity.says if wording.ask else "")),
                    fields=fields, extra=extra, known=known or {},
                    label=entity.naming_field or "", **why)


__all__ = ["AnswerError", "Question", "field_question", "kind_of", "list_question"]
