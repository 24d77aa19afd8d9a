"""The pack's deck (play.yaml `deck:`): cards picked by name, and what only the card shows.

A pack that plays with a deck declares it as data: the entity list a turn's cards go in, the
field whose value starts a card's name (its group: a colour, a suit) and the field that ends
it (a number, in each group's range), the groups whose cards go by a name of their own
instead, what the seeds leave to the printed card (asked the first time a card is seen in a
game, kept for the game, never asked again: `printed:`), and the board facts that name a card
on the table, which no one can draw (`in_play:`). A card is then entered as its name (`red
6`); a name not in the deck is refused with the nearest one. Nothing here names a game, a
group or a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whybot.engine import EntitySpec, did_you_mean

from ..values import ValueProblem
from .wording import as_name, cited

PICK = "card"  # an entry's key for the card's name (a form's pick list, an answers file)


@dataclass(frozen=True)
class Printed:
    """What a card shows that the seeds do not fix: asked once per card and game."""

    field: str
    ask: str  # `{card}` is the card's name
    says: str  # why it is asked (the seeds do not say it), in the player's words
    minimum: int | None = None


@dataclass(frozen=True)
class Deck:
    """The cards a list of `kind` entities (snapshot key `key`) is picked from."""

    key: str
    kind: str
    group: str  # the field a name starts with
    number: str  # the field a numbered card's name ends with
    numbers: dict[str, tuple[int, int]]  # group → its numbers, lowest and highest
    named: dict[str, str]  # group → the field holding a card's own name (free text)
    printed: tuple[Printed, ...] = ()
    in_play: tuple[dict[str, str], ...] = ()  # deck field → the board fact naming a card
    in_play_says: str = ""  # why such a card cannot be drawn, with its citation
    cite: str = ""

    def names(self) -> list[str]:
        """The deck list, as a player picks from it."""
        return [f"{group} {n}" if group in self.numbers else group
                for group in self.groups() for n in self._range(group)]

    def example(self) -> str:
        """A name from the deck, for a hint: its first numbered card's."""
        return next((n for n in self.names() if n not in self.named), self.names()[0])

    def printed_fields(self) -> set[str]:
        """The fields the seeds leave to the printed card (asked once a game)."""
        return {p.field for p in self.printed}

    def name_fields(self) -> set[str]:
        """The fields a card's name gives, and those asked apart (what it prints)."""
        return {self.group, self.number, *(p.field for p in self.printed)}

    def groups(self) -> list[str]:
        return [*self.numbers, *self.named]

    def _range(self, group: str) -> range:
        low, high = self.numbers.get(group, (0, 0))
        return range(low, high + 1)

    def name_of(self, entry: dict[str, Any]) -> str | None:
        """A numbered card's name (`red 6`): what its printed values are kept by."""
        group, number = entry.get(self.group), entry.get(self.number)
        if group in self.numbers and isinstance(number, int) and not isinstance(number, bool):
            return f"{group} {number}"
        return None

    def pick(self, text: str) -> dict[str, Any]:
        """A card's name as typed (`red 6`, `re 6`, a named card with its name) → its
        fields; ValueProblem naming the nearest card."""
        word, _, rest = " ".join(str(text).split()).partition(" ")
        group = self._group(word, text)
        if group in self.named:
            return {self.group: group, **({self.named[group]: rest} if rest else {})}
        if not rest.isdigit() or int(rest) not in self._range(group):
            low, high = self.numbers[group]
            raise ValueProblem(f"{text!r} is not in the deck: {group} runs from {low} to {high}",
                               hint=did_you_mean(str(text), set(self.names())))
        return {self.group: group, self.number: int(rest)}

    def _group(self, word: str, text: str) -> str:
        groups = self.groups()
        if word.lower() in groups:
            return word.lower()
        starting = [g for g in groups if word and g.startswith(word.lower())]
        if len(starting) == 1:
            return starting[0]
        raise ValueProblem(f"{text!r} is not in the deck",
                           hint=did_you_mean(str(text), set(self.names()))
                           or f"a card is one of: {', '.join(groups)}, with its number")

    def checked(self, entry: dict[str, Any]) -> dict[str, Any]:
        """An entry given by its fields (an answers file), held to the deck's numbers."""
        group = entry.get(self.group)
        number = entry.get(self.number)
        if group in self.numbers and number is not None and number not in self._range(group):
            low, high = self.numbers[group]
            raise ValueProblem(f"{group} {number} is not in the deck: {group} runs from {low} "
                               f"to {high}")
        return entry

    def line(self, text: str) -> list[dict[str, Any]]:
        """Cards typed on one line (`red 6, bonus=yes, blue 2`): each name
        starts an entry, `field=value` adds to the one before (a line of fields alone is one
        card given by its fields)."""
        entries: list[dict[str, Any]] = []
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if parts and "=" in parts[0]:  # one card by its fields, `suit=…, number=…`, as before
            entries.append({})
        for part in parts:
            name, equals, value = part.partition("=")
            if not equals:
                entries.append({PICK: part})
            elif entries and name.strip():
                entries[-1][as_name(name)] = value.strip().strip("\"'")
            else:
                raise ValueProblem(f"{part!r}: name the card first ({self.example()}, {part})")
        return entries

    def entry(self, item: Any) -> Any:
        """A list answer's entry: a name picked (text, or a mapping's `card`), as its fields."""
        if isinstance(item, str):
            return self.pick(item)
        if isinstance(item, dict) and PICK in item:
            rest = {k: v for k, v in item.items() if k != PICK}
            return {**rest, **self.pick(str(item[PICK]))}
        return item

    def drawable(self, entries: list[dict[str, Any]], on_table: Any = (),
                 ) -> list[dict[str, Any]]:
        """The cards, unless one is listed twice or the table shows it in play: the deck
        holds one of each, and a card in play is not in the stack."""
        seen: set[str] = set()
        for entry in entries:
            name = self.name_of(entry)
            if name in seen:
                raise ValueProblem(f"{name} is listed twice: the deck has one {name}")
            if name in on_table:
                raise ValueProblem(f"{name} cannot be drawn: {self.in_play_says}")
            if name:
                seen.add(name)
        return entries

    def on_table(self, board: dict[str, Any]) -> list[str]:
        """The cards the board names as in play (`in_play:`)."""
        named = (self.name_of({field: board.get(fact) for field, fact in item.items()})
                 for item in self.in_play)
        return [name for name in named if name]

    def unprinted(self, entries: Any, known: dict[str, dict[str, Any]],
                  ) -> tuple[str, Printed] | None:
        """The first card of `entries` whose printed value neither it nor the game gives."""
        for entry in entries if isinstance(entries, list) else []:
            name = self.name_of(entry) if isinstance(entry, dict) else None
            for printed in self.printed if name is not None else ():
                if printed.field not in entry and printed.field not in known.get(name or "", {}):
                    return name or "", printed
        return None


def read_deck(reader: Any, data: Any) -> Deck | None:
    """The `deck:` section, checked by a playbook reader (`reader.fail`, `.mapping`,
    `.names`, `.lists`, `.board`): every field, group and fact names one of the pack's."""
    if data is None:
        return None
    path = ("deck",)
    spec = reader.mapping(data, path)
    known = {"list", "group", "number", "groups", "printed", "in_play", "cite"}
    reader.names(list(spec), path, known, "key of a deck")
    key = _one(reader, spec.get("list"), (*path, "list"), set(reader.lists), "entity list")
    kind = reader.lists[key]
    entity: EntitySpec = reader.pack.facts.entities[kind]
    fields = set(entity.fields)
    group, number = (_one(reader, spec.get(k), (*path, k), fields, "field")
                     for k in ("group", "number"))
    numbers: dict[str, tuple[int, int]] = {}
    named: dict[str, str] = {}
    allowed = reader.pack.allowed(entity.fields[group]) or []
    for name, value in reader.mapping(spec.get("groups"), (*path, "groups")).items():
        where = (*path, "groups", name)
        _one(reader, name, where, set(map(str, allowed)), f"value of {group}")
        if isinstance(value, dict) and set(value) == {"named"}:
            named[name] = _one(reader, value["named"], (*where, "named"), fields, "field")
        elif isinstance(value, list) and len(value) == 2 and \
                all(isinstance(v, int) and not isinstance(v, bool) for v in value) and \
                value[0] <= value[1]:
            numbers[name] = (value[0], value[1])
        else:
            raise reader.fail(where, "a group is its numbers, [lowest, highest], or "
                                     "{named: FIELD} for cards that go by a name of their own")
    missing = [str(v) for v in allowed if str(v) not in numbers and str(v) not in named]
    if missing:
        raise reader.fail((*path, "groups"), f"the deck has no group for {', '.join(missing)}")
    printed = [_printed(reader, name, value, fields)
               for name, value in reader.mapping(spec.get("printed"), (*path, "printed")).items()]
    in_play, says = _in_play(reader, spec.get("in_play"), {group, number})
    if not spec.get("cite"):
        raise reader.fail(path, "a deck cites where the seeds describe it (cite:)")
    return Deck(key, kind, group, number, numbers, named, tuple(printed), in_play, says,
                cited(str(spec["cite"]), reader.pack))


def _one(reader: Any, name: Any, path: tuple, known: set[str], what: str) -> str:
    """One name of the pack's, or the error naming its field path (with the nearest)."""
    if not isinstance(name, str) or name not in known:
        raise reader.fail(path, f"unknown {what} {name!r}", did_you_mean(str(name), known))
    return name


def _printed(reader: Any, name: str, value: Any, fields: set[str]) -> Printed:
    where = ("deck", "printed", name)
    _one(reader, name, where, fields, "field")
    value = reader.mapping(value, where)
    reader.names(list(value), where, {"ask", "says", "minimum"}, "key of a printed value")
    if "{card}" not in str(value.get("ask", "")):
        raise reader.fail((*where, "ask"), "the question names the card: {card}")
    if not value.get("says"):
        raise reader.fail(where, "say why it is asked: what the seeds leave to the card (says:)")
    return Printed(name, str(value["ask"]), str(value["says"]), value.get("minimum"))


def _in_play(reader: Any, data: Any, naming: set[str]) -> tuple[tuple[dict[str, str], ...], str]:
    """`in_play:` — `cards:` (each a card's name fields → the board facts naming it), `says:`
    why no one can draw such a card, and `cite:`."""
    if data is None:
        return (), ""
    where = ("deck", "in_play")
    spec = reader.mapping(data, where)
    reader.names(list(spec), where, {"cards", "says", "cite"}, "key of in_play")
    cards = []
    for index, raw in enumerate(spec.get("cards") or []):
        item = {str(k): str(v) for k, v in reader.mapping(raw, (*where, "cards", index)).items()}
        reader.names(list(item), (*where, "cards", index), naming, "field of a card's name")
        reader.names(list(item.values()), (*where, "cards", index), reader.board, "fact")
        cards.append(item)
    if not spec.get("says") or not spec.get("cite"):
        raise reader.fail(where, "say why such a card cannot be drawn (says:, cite:)")
    return tuple(cards), f"{spec['says']} ({cited(str(spec['cite']), reader.pack)})"


__all__ = ["PICK", "Deck", "Printed", "read_deck"]
