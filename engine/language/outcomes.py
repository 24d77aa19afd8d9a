"""What a rule does when it fires: typed objects, parsed once at load (`outcome_parser.py`).

The compiler, the walk and the explainer all read these objects; nobody reads the YAML dict of
an outcome again. Effects apply in the order the rule file writes them, then the action is
recorded, then control moves (stop, call, goto, or read on). A derivation's outcome judges a
value (of the board, or of the entity bound to an alias) or creates an entity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .expressions import Condition, Exists, Value

DIE = "die"  # the scope of one die in a roll's `success` condition: its `face`


def scope_alias(role: str, kind: str) -> str:
    """The alias under which a choice, loop or spread reads one candidate's fields."""
    return f"{role}_{kind}"


# --- templates ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """Text with `{value}` placeholders filled from the board (`"Raid {target.name}"`)."""

    text: str
    parts: tuple[str | Value, ...]

    @property
    def static(self) -> bool:
        return all(isinstance(p, str) for p in self.parts)

    def __str__(self) -> str:
        return self.text


# --- the parts of an outcome --------------------------------------------------------------


@dataclass(frozen=True)
class OrderKey:
    """Sort by a value: highest first when `descending` (`-number`), else lowest first."""

    value: Value
    descending: bool

    def __str__(self) -> str:
        return f"{'highest' if self.descending else 'lowest'} {self.value}"


@dataclass(frozen=True)
class Preference:
    """One line of the seed's "Prefer:" list; with `when` it narrows, else it guides."""

    says: str
    when: Condition | None = None


@dataclass(frozen=True)
class Choice:
    """`select:` (the card) or `target:` (what the action aims at) among entities of a kind."""

    role: str
    kind: str
    alias: str
    where: Condition | None
    prefer: tuple[Preference, ...] = ()
    order: tuple[OrderKey, ...] = ()
    says: str = ""
    optional: bool = False  # the rule applies without a candidate; then nothing is chosen

    @property
    def scope(self) -> str:
        return scope_alias(self.role, self.kind)

    def candidates(self) -> Exists:
        """The rule applies only if a candidate exists (the seed's "if ... available")."""
        return Exists(self.kind, self.scope, self.where)


@dataclass(frozen=True)
class Roll:
    """Roll dice; `as` gets their total, or with `success` the number of dice whose `face`
    satisfies it (`face >= 4`, `face in [5, 6]`). `says` (what the roll decides) may name
    board values: `"fight test against {force.name}"`."""

    count: Value
    sides: int
    alias: str
    says: Template
    text: str
    success: Condition | None = None


@dataclass(frozen=True)
class Draw:
    """Draw one item at random from a counted pool (`{yellow: cubes_y, red: cubes_r}`): one
    d(total) over the items counted in the order listed; `as` gets the name drawn. The pool's
    counts are values read from the board when the rule fires."""

    pool: tuple[tuple[str, Value], ...]
    alias: str
    says: Template


@dataclass(frozen=True)
class Assign:
    name: str
    value: Value | Condition
    text: str


@dataclass(frozen=True)
class Update:
    """Change fields of a bound entity (`current`, `target`, a chosen one); `target?` if the
    rule may have chosen none (then nothing changes, and the trace says so)."""

    alias: str
    fields: tuple[Assign, ...]
    optional: bool = False


@dataclass(frozen=True)
class Distribute:
    """Spread an amount evenly over entities; leftovers one each in `order`; caps respected.
    With `even`, only the even shares: the leftovers go to `rest` with what found no room."""

    amount: Value
    kind: str
    where: Condition | None
    order: tuple[OrderKey, ...]
    field: str
    cap: Value | None
    rest: str | None
    says: str
    even: bool = False

    @property
    def scope(self) -> str:
        return scope_alias("spread", self.kind)


@dataclass(frozen=True)
class Each:
    """Read a page once per entity, its fields bound under `alias`."""

    kind: str
    alias: str
    where: Condition | None
    order: tuple[OrderKey, ...]
    page: Template

    @property
    def scope(self) -> str:
        return scope_alias("each", self.kind)


@dataclass(frozen=True)
class Say:
    text: Template
    # the same instruction for whoever writes snapshots by hand (the fields to give);
    # `decide` and `why` show it, the table (`play`, `serve`) writes those fields itself
    snapshot: Template | None = None


@dataclass(frozen=True)
class Rederive:
    pass


@dataclass(frozen=True)
class Remove:
    alias: str
    optional: bool = False


Effect = Roll | Draw | Assign | Choice | Say | Each | Update | Distribute | Rederive | Remove


@dataclass(frozen=True)
class Action:
    name: Template
    texts: tuple[tuple[str, Template], ...] = ()
    guidance: tuple[str, ...] = ()


@dataclass(frozen=True)
class Judge:
    """A derivation's conclusion: `name` on the board, or `field` of the entity `alias`."""

    name: str
    alias: str | None
    value: Value | Condition

    @property
    def target(self) -> str:
        return f"{self.alias}.{self.name}" if self.alias else self.name


@dataclass(frozen=True)
class Create:
    kind: str
    fields: tuple[Assign, ...]


@dataclass(frozen=True)
class Outcome:
    effects: tuple[Effect, ...] = ()
    action: Action | None = None
    stop: Template | None = None
    call: Template | None = None
    missing: Template | None = None  # a called page that does not exist: this note, read on
    goto: Template | None = None
    choose: tuple[str, ...] = ()  # with `call`: read that page only to make these choices
    reads_on: bool = False
    judge: Judge | None = None
    create: Create | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def choices(self) -> list[Choice]:
        return [e for e in self.effects if isinstance(e, Choice)]

    def page_links(self) -> list[tuple[str, Template]]:
        """(how, page) for every page this outcome leads to."""
        links = [(how, t) for how, t in (("call", self.call), ("goto", self.goto)) if t]
        links += [("each", e.page) for e in self.effects if isinstance(e, Each)]
        return links

    @property
    def ends_page(self) -> bool:
        """After this fires, the page is not read further (unless a call returns)."""
        return not self.reads_on and self.call is None


