"""A pack compiled onto durable_rules: rules packed into bands, bands into rulesets.

A *band* is a run of consecutive rules of one page (or one stratum of derivations) whose
carrier chain starts with its own `band` test, so an evaluate event meets only its band's
tests. Bands are packed into as few rulesets as the alpha-network budgets allow
(`alpha_network.py`), and a caller may start a ruleset where it wants one (pages: one per family of
pages); a page of a thousand house rules is spread over several, evaluated top band first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..budget import Costed, Grouped, grouped
from ..errors import RuleFileError, WhybotError
from ..language.expressions import All, Condition, Value
from ..language.pack import Pack, Rule
from ..language.tree_queries import kinds_read, scopes
from ..limits import LimitError
from ..limits import current as limits
from .alpha_network import PROPERTIES_BUDGET, AlphaModel, Overflow
from .alternatives import alternatives
from .codes import board_code
from .conditions import Unit, compile_unit
from .durable_core import Ruleset
from .fields_tested import FactFields, FieldTests, changed_by_default, pattern_fields, same_as

LOWEST = 65535
END = "-end-"  # the name of a band's fallthrough rule


@dataclass
class Band:
    """Consecutive rules of one page (or stratum) compiled into one ruleset."""

    number: int
    group: str
    ruleset: int
    first: int
    last: int = 0
    names: set[str] = field(default_factory=set)
    hoisted: dict[str, Value | Condition] = field(default_factory=dict)
    keys: list[tuple[str, str]] = field(default_factory=list)  # (board name, fact key)
    costs: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # budget.Costed

    def seal(self, codes: dict[str, str]) -> None:
        """Remember the fact key of every board name the band reads (carriers are built
        for every evaluation): its code (`board_code`)."""
        self.keys = [(n, board_code(n, codes)) for n in sorted(self.names)
                     if n not in self.hoisted]


@dataclass
class _Building:
    model: AlphaModel = field(default_factory=AlphaModel)
    definition: dict[str, Any] = field(default_factory=dict)
    patterns: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    kinds: set[str] = field(default_factory=set)
    judgments: set[str] = field(default_factory=set)


@dataclass
class Compiled:
    """Rulesets and bands of one kind of procedure (all pages, or all derivations)."""

    carrier: str
    rulesets: list[Ruleset] = field(default_factory=list)
    kinds: list[set[str]] = field(default_factory=list)
    judgments: list[set[str]] = field(default_factory=list)
    bands: dict[str, list[Band]] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    fields_read: set[tuple[str, str]] = field(default_factory=set)  # (kind, field) in patterns
    group_fields: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # by page/stratum
    # kind → each field its facts hold: its name, code (codes.field_code), values left out
    fields: dict[str, FactFields] = field(default_factory=dict)
    judgment_readers: dict[str, tuple[int, ...]] = field(default_factory=dict)  # see below
    later_fields: dict[int, dict[str, FactFields]] = field(
        default_factory=dict)  # see fields_from
    read: frozenset[str] | None = None  # see judgments_read
    told: frozenset[tuple[str, str]] | None = None  # see defaults_told
    costs: dict[str, tuple[Costed, Grouped]] = field(default_factory=dict)  # see costs_of

    def judgments_read(self) -> frozenset[str]:
        """The judgments some pattern reads: a default no pattern reads is told to none."""
        if self.read is None:
            self.read = frozenset().union(*self.judgments)
        return self.read

    def defaults_told(self, defaults: Iterable[tuple[str, str, Any]],
                      ) -> frozenset[tuple[str, str]]:
        """(kind, field) whose default (`defaults`: field, kind, default) changes a fact when
        given (`fields_tested.changed_by_default`; once: a compiled set serves one pack)."""
        if self.told is None:
            self.told = changed_by_default(self.fields, defaults)
        return self.told

    def readers(self, judgment: str) -> tuple[int, ...]:
        """The rulesets whose patterns read a judgment (most read none of a given one: a
        judgment fact is built only for those that do)."""
        found = self.judgment_readers.get(judgment)
        if found is None:
            found = self.judgment_readers[judgment] = tuple(
                index for index, judgments in enumerate(self.judgments) if judgment in judgments)
        return found

    def costs_of(self, group: str) -> tuple[Costed, Grouped]:
        """What the rules of a group of bands (a stratum) cost the budget, and by kinds."""
        found = self.costs.get(group)
        if found is None:
            rules = [cost for band in self.bands.get(group, ()) for cost in band.costs]
            found = self.costs[group] = (rules, grouped(rules))
        return found

    def fields_from(self, stratum: int) -> dict[str, FactFields]:
        """What an entity fact must hold from `stratum` on: the fields the rules of that
        stratum and the later ones test (an earlier stratum's rules fire no more: its phase
        facts are retracted). Most of an option's fields are read in the first strata only,
        and every byte of a fact is encoded, parsed and sent back with each firing."""
        found = self.later_fields.get(stratum)
        if found is None:
            tested = set().union(*(fields for group, fields in self.group_fields.items()
                                   if int(group) >= stratum))
            known = [self.fields, *self.later_fields.values()]
            found = self.later_fields[stratum] = {
                kind: same_as(tuple(item for item in items if (kind, item[0]) in tested),
                               [fields[kind] for fields in known])
                for kind, items in self.fields.items()}
        return found


def rule_condition(rule: Rule) -> Condition:
    """What must hold for a rule to apply: its `when`, and a candidate for each choice that is
    not optional."""
    choices = [c.candidates() for c in rule.then.choices if not c.optional]
    return All((rule.when, *choices)) if choices else rule.when


class Packer:
    """Packs rules into bands and rulesets, keeping every budget (see alpha.py)."""

    def __init__(self, carrier: str, name: str, judgments_as_facts: frozenset[str],
                 register: bool = True) -> None:
        self.register = register
        self.result = Compiled(carrier)
        self.name = name
        self.judgments_as_facts = judgments_as_facts
        self.building = _Building()
        self.band: Band | None = None
        self.hoist: dict[Value | Condition, str] = {}
        self.codes: dict[str, str] = {}  # entity field → its code in facts and patterns
        self.field_tests = FieldTests()
        self.band_count = 0
        self.units = 0  # durable_rules rules so far: each alternative of a rule is one

    def start_ruleset(self) -> None:
        """Place what follows in a ruleset of its own."""
        if self.building.patterns:
            self._close_ruleset()
        self.band = None

    def add(self, group: str, rank: int, rule: Rule) -> None:
        """Compile one rule and place all its alternatives in one band."""
        units = [compile_unit(rule, rank, conjunction, index, self.judgments_as_facts,
                              self.hoist, self.codes)
                 for index, conjunction in enumerate(alternatives(rule, rule_condition(rule)))]
        if not units:
            return  # it can never apply; the explainer says why
        self.units += len(units)  # what compiling costs: the rules limit counts them all
        limits().check("rules", self.units, f"rules compiled, each alternative of a "
                       f"condition counted as one (passed at rule {rule.id})", file=rule.file,
                       line=rule.line)
        for attempt in ("same band", "new band", "new ruleset"):
            fresh = attempt != "same band" or self.band is None or self.band.group != group \
                or self._too_many_names(units)
            if fresh:
                self._new_band(group, rank, attempt == "new ruleset")
            try:
                self._place(units)
                return
            except Overflow as exc:
                if attempt == "new ruleset":
                    raise RuleFileError(
                        f"rule {rule.id} is too large for durable_rules on its own "
                        f"({exc.what})", file=rule.file, line=rule.line,
                        hint="split its condition into several rules") from None

    def _too_many_names(self, units: list[Unit]) -> bool:
        assert self.band is not None
        names = set(self.band.names).union(*(u.carrier_names for u in units))
        return len(names) > PROPERTIES_BUDGET

    def _new_band(self, group: str, rank: int, new_ruleset: bool) -> None:
        if new_ruleset and self.building.patterns:
            self._close_ruleset()
        self.band_count += 1
        band = Band(self.band_count, group, len(self.result.rulesets), rank)
        if self.result.carrier == "evaluate":  # an event nothing else takes ends here
            end = [{"e": self._carrier(band, None, [])}]
            try:
                self.building.model.add_unit(end)
            except Overflow:  # the ruleset is full (3,000 rules, 400 bands): start the next
                self._close_ruleset()
                band.ruleset = len(self.result.rulesets)
                self.building.model.add_unit(end)
            self.building.definition[f"{END}{band.number}"] = {"all": end, "pri": LOWEST}
            self.building.patterns[f"{END}{band.number}"] = end
        self.band = band
        self.result.bands.setdefault(group, []).append(band)

    def _carrier(self, band: Band, rank: int | None, tests: list[dict[str, Any]],
                 ) -> dict[str, Any]:
        head: list[dict[str, Any]] = [{"t": self.result.carrier}, {"band": band.number}]
        if rank is not None and self.result.carrier == "evaluate":
            head.append({"$lte": {"from": rank}})
        return {"$and": [*head, *tests]}

    def _place(self, units: list[Unit]) -> None:
        """Add every alternative of a rule to the current band, or none (Overflow)."""
        band = self.band
        assert band is not None
        compiled = {unit.name: [{"e": self._carrier(band, unit.rank, unit.carrier_tests)},
                                *({alias: pattern} for alias, pattern in unit.patterns)]
                    for unit in units}
        mark = self.building.model.mark()
        try:
            for name, patterns in compiled.items():
                self.building.patterns[name] = patterns
                self.building.model.add_unit(patterns)
        except Overflow:
            for name in compiled:
                self.building.patterns.pop(name, None)
            self.building.model.rollback(mark)
            raise
        for unit in units:
            # dist 0: one entity may satisfy two `exists` of a rule, as the evaluator reads it
            self.building.definition[unit.name] = {"all": compiled[unit.name],
                                                   "pri": unit.rank, "dist": 0}
            self.result.units[unit.name] = unit
            band.names |= unit.carrier_names
            band.hoisted.update(unit.hoisted)
            band.last = unit.rank
            condition = rule_condition(unit.rule)
            self.building.kinds |= set(kinds_read(condition))
            aliases = scopes(condition)
            tested = pattern_fields(compiled[unit.name], self.names)
            self.field_tests.add(compiled[unit.name], self.names)
            self.result.fields_read |= tested
            self.result.group_fields.setdefault(band.group, set()).update(tested)
            self.building.judgments |= set(unit.judgments.values())
            joined = tuple(sorted(aliases[a] for a in unit.aliases.values() if a in aliases))
            if joined:  # what reading it costs: budget.py
                band.costs.append((joined, unit.rule.id))

    def _close_ruleset(self) -> None:
        index = len(self.result.rulesets)
        self.result.rulesets.append(Ruleset(f"{self.name}.{index}", self.building.definition,
                                            self.register))
        self.result.kinds.append(self.building.kinds)
        self.result.judgments.append(self.building.judgments)
        self.building = _Building()

    def finish(self) -> Compiled:
        if self.building.definition:
            self._close_ruleset()
        for bands in self.result.bands.values():
            for band in bands:
                band.seal(self.codes)
        for kind, name in sorted(self.result.fields_read):
            self.result.fields[kind] = (*self.result.fields.get(kind, ()), (
                name, self.codes[name], self.field_tests.omitted(kind, name)))
        return self.result

    @property
    def names(self) -> dict[str, str]:
        """code → entity field."""
        return {code: name for name, code in self.codes.items()
                if not name.startswith("#board ")}


def unfitting(pack: Pack) -> Iterator[WhybotError]:
    """What compiling the pack would refuse, for `rules lint` to say what `decide` would: each
    rule too large for durable_rules even in a ruleset of its own, and the rule at which the
    compiled rules (pages, or derivations) pass the `rules` limit."""
    judgments = frozenset(pack.facts.judgments)
    decisions = [rule for page in pack.decision_pages() for rule in page.ordered()]
    for carrier, facts, rules in (("evaluate", frozenset(), decisions),
                                  ("phase", judgments, pack.derivations())):
        units = 0
        for rule in rules:
            packer = Packer(carrier, "fits", facts, register=False)
            packer.units = units
            try:
                packer.add("fits", 1, rule)
            except (RuleFileError, LimitError) as exc:
                yield exc
                if isinstance(exc, LimitError):
                    break
            units = packer.units
