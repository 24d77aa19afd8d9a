"""A pack's `play.yaml`: how a game of it is kept at the table (`whybot new`, `whybot play`).

A pack declares, in YAML and never in Python: its bots (`bots:`: names, the facts counting
and naming them, the list they fill), the decision point's fact (`point:`), what a new game
asks (`setup:`), what a turn writes back (`keep:`, per game, bot, or listed entity), what a card
stopped mid-way hands on (`carry:`; `as left`), what the player said that is offered again
(`remember:`), the decision points in order (`flow:`), the questions' words and seed-given
defaults (`questions:`), the stops that decide nothing (`undecided:`, never saved), the lists
of moves asked as the seed's questions (`consult:`) and the sections defining terms (`terms:`),
what the table answers unasked (`unchanged:`, `settled:`, `follows:`; unasked.py), the facts
asked as one question (`together:`), what a turn tells its round (`round:`) and the deck cards
are picked from (`deck:`). Every name is checked against the pack's fact schema: a typo is one
error naming its path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whybot.engine import (
    PLAY_FILE,
    Condition,
    ConditionSyntaxError,
    Document,
    Pack,
    RuleFileError,
    Value,
    did_you_mean,
    json_path,
    parse,
    parse_value,
    read_document,
)

from .deck import Deck, read_deck
from .flow import Flow, read_flow
from .together import Together, read_together
from .told import Round, read_round
from .unasked import Follows, Settled, Unchanged, read_follows, read_settled, read_unchanged

SCOPES = ("game", "bot")
AS_LEFT = "as left"  # a carried fact or list: as the walk left it


@dataclass(frozen=True)
class Wording:
    """How play asks one fact: the question, help, and a default only where the seed gives
    one (with its citation)."""

    ask: str = ""
    help: str = ""
    default: Any = None
    cite: str = ""


@dataclass(frozen=True)
class Carry:
    """A decision stopped by `rule`: the facts (and lists) the bot's next play starts from,
    each an expression over the board the walk left and the entities it chose (`selected`);
    a rule may list several, each with a `when:` condition on that board."""

    rule: str
    facts: dict[str, Value]
    lists: dict[str, list[dict[str, Value]]]
    when: Condition | None = None  # of several for one rule: the first whose `when` holds
    left: list[str] = field(default_factory=list)  # facts and lists carried as the walk left them


@dataclass
class Playbook:
    """Everything `play.yaml` says (a pack without one: one bot, nothing kept)."""

    pack: str
    bots_says: str = "the bots, in turn order"
    bot_names: list[str] | None = None
    max_bots: int = 4
    bots_count: str | None = None  # a board fact that holds how many bots play
    bot_fact: str | None = None  # a board fact that names the bot deciding
    bots_list: str | None = None  # an entity list the game's bots fill (by their label)
    point: str | None = None  # the board fact naming the decision point
    snapshot: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SCOPES})
    keep: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SCOPES})
    keep_fields: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # kind → scope
    # facts, judgments, lists the player said that hold until the table changes: defaults
    remember: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SCOPES})
    forget: dict[str, list[str]] = field(default_factory=dict)  # kind → fields not remembered
    ask: list[str] = field(default_factory=list)
    hidden: dict[str, list[str]] = field(default_factory=dict)  # kind → fields never asked
    carry: dict[str, list[Carry]] = field(default_factory=dict)
    questions: dict[str, Wording] = field(default_factory=dict)
    # a stop that is no decision (the snapshot lacks something) → what is asked again
    undecided: dict[str, list[str]] = field(default_factory=dict)
    flow: Flow | None = None  # the decision points in game order (flow.py)
    # entity lists of the bot's possible moves: their judgments, the seed's own questions, are
    # asked instead of the list (listing every move stays a choice: `play --moves`)
    consult: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)  # the seed's sections that define its terms
    # what the table answers: carried past an action, settled by the game, following from it
    unchanged: dict[str, Unchanged] = field(default_factory=dict)
    settled: list[Settled] = field(default_factory=list)
    follows: dict[str, Follows] = field(default_factory=dict)
    together: dict[str, Together] = field(default_factory=dict)  # facts asked as one
    round: Round = field(default_factory=Round)  # what a turn tells the rest of its round
    deck: Deck | None = None  # the cards a list is picked from, by name (deck.py)

    def scope_of(self, name: str) -> str | None:
        return next((s for s in SCOPES if name in self.keep[s]), None)

    def wording(self, name: str) -> Wording:
        return self.questions.get(name, Wording())


class _Reader:
    """Checks one play.yaml against its pack, naming the field path of every problem."""

    def __init__(self, document: Document, pack: Pack) -> None:
        self.document, self.pack = document, pack
        self.board = set(pack.facts.board)
        self.lists = {spec.key: kind for kind, spec in pack.facts.entities.items() if spec.key}

    def fail(self, path: tuple, message: str, hint: str | None = None) -> RuleFileError:
        return RuleFileError(message, **self.document.at(path), path=json_path(path), hint=hint)

    def mapping(self, value: Any, path: tuple) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(path, "expected a mapping")
        return value

    def names(self, value: Any, path: tuple, known: set[str], what: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(path, f"expected a list of {what}")
        for index, name in enumerate(value):
            if name not in known:
                raise self.fail((*path, index), f"unknown {what} {name!r}",
                                did_you_mean(name, known))
        return list(value)

    def fact(self, value: Any, path: tuple) -> str | None:
        if value is None:
            return None
        return self.names([value], path, self.board, "fact")[0]

    def expression(self, text: Any, path: tuple) -> Value:
        try:
            return parse_value(str(text), self.pack.kinds, aliases=frozenset({"selected",
                                                                               "target"}))
        except ConditionSyntaxError as exc:
            raise self.fail(path, f"not an expression: {exc}") from None

    def read(self) -> Playbook:
        data = self.mapping(self.document.data, ())
        known = {"pack", "bots", "point", "snapshot", "setup", "keep", "remember", "ask",
                 "hidden", "carry", "questions", "undecided", "flow", "consult", "terms",
                 "unchanged", "settled", "follows", "together", "round", "deck"}
        for key in data:
            if key not in known:
                raise self.fail((key,), f"unknown key {key!r}", did_you_mean(str(key), known))
        if data.get("pack") != self.pack.name:
            raise self.fail(("pack",), f"this play.yaml is for pack {data.get('pack')!r}, "
                                       f"not {self.pack.name!r}")
        book = Playbook(pack=self.pack.name)
        self._bots(book, self.mapping(data.get("bots"), ("bots",)))
        book.point = self.fact(data.get("point"), ("point",))
        book.snapshot = self.mapping(data.get("snapshot"), ("snapshot",))
        self.names(list(book.snapshot), ("snapshot",), self.board, "fact")
        for part, known in (("setup", self.board), ("keep", self.board | set(self.lists))):
            section = self.mapping(data.get(part), (part,))
            for scope in SCOPES:
                getattr(book, part)[scope] = self.names(section.get(scope), (part, scope),
                                                        known, "fact")
            for kind, spec in self.mapping(section.get("fields"), (part, "fields")).items():
                if part == "keep":
                    book.keep_fields[kind] = self._kept_fields(kind, spec, (part, "fields"))
        remember = self.mapping(data.get("remember"), ("remember",))
        for scope in SCOPES:
            book.remember[scope] = self.names(remember.get(scope), ("remember", scope), {
                *self.board, *self.lists, *self.pack.facts.judgments}, "fact, judgment or list")
        for kind, names in self.mapping(remember.get("except"), ("remember", "except")).items():
            entity = self._entity(kind, ("remember", "except", kind))
            book.forget[kind] = self.names(names, ("remember", "except", kind),
                                           set(entity.fields), "field")
        book.ask = self.names(data.get("ask"), ("ask",), self.board, "fact")
        book.terms = terms = data.get("terms") or []
        if not isinstance(terms, list) or not all(isinstance(t, str) and t for t in terms):
            raise self.fail(("terms",), "expected a list of the seed's section names")
        book.consult = [self.lists[key] for key in self.names(
            data.get("consult"), ("consult",), set(self.lists), "entity list")]
        book.unchanged = read_unchanged(self, data.get("unchanged"))
        book.settled = read_settled(self, data.get("settled"))
        book.follows = read_follows(self, data.get("follows"), set(book.keep["bot"]))
        book.together = read_together(self, data.get("together"), book.remember)
        book.deck = read_deck(self, data.get("deck"))
        for kind, names in self.mapping(data.get("hidden"), ("hidden",)).items():
            entity = self._entity(kind, ("hidden", kind))
            book.hidden[kind] = self.names(names, ("hidden", kind), set(entity.fields), "field")
        for rule, spec in self.mapping(data.get("carry"), ("carry",)).items():
            if self.pack.rule(rule) is None:
                raise self.fail(("carry", rule), f"no rule {rule!r} in pack {self.pack.name!r}")
            specs = spec if isinstance(spec, list) else [spec]
            book.carry[rule] = [self.carry_spec(rule, self.mapping(one, ("carry", rule, index)),
                                            ("carry", rule, index) if isinstance(spec, list)
                                            else ("carry", rule))
                                for index, one in enumerate(specs)]
        for result, names in self.mapping(data.get("undecided"), ("undecided",)).items():
            book.undecided[str(result)] = self.names(
                names, ("undecided", result), self.board | set(self.lists), "fact or list")
        for part in ("flow", "round"):
            if data.get(part) is not None and not book.point:
                raise self.fail((part,), f"a {part} needs the decision point's fact (point:)")
        points = set(map(str, self.pack.allowed(self.pack.facts.board[book.point]) or [])) \
            if book.point else set()
        book.flow = read_flow(self, data.get("flow"), points)
        book.round = read_round(self, data.get("round"), points)
        for name, spec in self.mapping(data.get("questions"), ("questions",)).items():
            path = ("questions", name)
            if name not in self.board | set(self.pack.facts.judgments) | set(self.lists):
                raise self.fail(path, f"unknown fact {name!r}",
                                did_you_mean(name, self.board | set(self.lists)))
            spec = self.mapping(spec, path)
            book.questions[name] = Wording(str(spec.get("ask", "")), str(spec.get("help", "")),
                                           spec.get("default"), str(spec.get("cite", "")))
            if "default" in spec and not spec.get("cite"):
                raise self.fail(path, "a default needs its citation (cite:): play offers a "
                                      "default only where the seed gives one")
        return book

    def _bots(self, book: Playbook, bots: dict[str, Any]) -> None:
        book.bots_says = str(bots.get("says", book.bots_says))
        names = bots.get("names")
        if names is not None:
            if not isinstance(names, list) or not names or \
                    not all(isinstance(n, str) and n for n in names):
                raise self.fail(("bots", "names"), "expected a list of names")
            book.bot_names = names
        book.max_bots = int(bots.get("max", len(names) if names else book.max_bots))
        book.bots_count = self.fact(bots.get("count"), ("bots", "count"))
        book.bot_fact = self.fact(bots.get("fact"), ("bots", "fact"))
        if bots.get("list") is not None:
            book.bots_list = self.names([bots["list"]], ("bots", "list"), set(self.lists),
                                        "entity list")[0]

    def _entity(self, kind: str, path: tuple) -> Any:
        entity = self.pack.facts.entities.get(kind)
        if entity is None or entity.created:
            raise self.fail(path, f"unknown listed entity kind {kind!r}",
                            did_you_mean(kind, set(self.lists.values())))
        return entity

    def _kept_fields(self, kind: str, spec: Any, path: tuple) -> tuple[str, list[str]]:
        entity = self._entity(kind, (*path, kind))
        spec = self.mapping(spec, (*path, kind))
        scope = spec.get("scope", "game")
        if scope not in SCOPES:
            raise self.fail((*path, kind, "scope"), f"scope is one of {', '.join(SCOPES)}")
        if not entity.naming_field or len(entity.naming_fields) > 1:
            raise self.fail((*path, kind), f"{kind} has no one-field label to keep its fields "
                                           "by (a game file keeps an entity under one name)")
        return scope, self.names(spec.get("fields"), (*path, kind, "fields"),
                                 set(entity.fields), "field")

    def carry_spec(self, rule: str, spec: dict[str, Any], path: tuple) -> Carry:
        facts, lists, when, left = {}, {}, None, []
        for name, text in spec.items():
            where = (*path, name)
            if text == AS_LEFT and (name in self.board or name in self.lists):
                left.append(name)
            elif name == "when":
                try:
                    when = parse(str(text), self.pack.kinds)
                except ConditionSyntaxError as exc:
                    raise self.fail(where, f"not a condition: {exc}") from None
            elif name in self.lists:
                if not isinstance(text, list) or not all(isinstance(i, dict) for i in text):
                    raise self.fail(where, "a list carried is a list of mappings of field: "
                                           "expression")
                lists[name] = [{f: self.expression(e, (*where, i, f)) for f, e in item.items()}
                               for i, item in enumerate(text)]
            elif name in self.board:
                facts[name] = self.expression(text, where)
            else:
                raise self.fail(where, f"unknown fact {name!r}", did_you_mean(name, self.board))
        return Carry(rule, facts, lists, when, left)


def load_playbook(pack: Pack) -> Playbook:
    """The pack's play.yaml, checked; a pack without one plays one bot and keeps nothing."""
    path = Path(pack.root) / PLAY_FILE
    if not path.is_file():
        return Playbook(pack=pack.name, max_bots=1)
    return _Reader(read_document(path, RuleFileError), pack).read()


__all__ = ["PLAY_FILE", "Carry", "Playbook", "Wording", "load_playbook"]
