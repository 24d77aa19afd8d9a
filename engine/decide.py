"""The pipeline in one place: load → check → compile → derive → walk → outcomes → explain.

`Engine(pack)` compiles a pack onto durable_rules once; `decide(situation)` derives the
judgments, walks the pages from the pack's start page and returns the trace. The same seam
takes the plain reference reasoner (`reasoner="plain"`): the benchmark and the agreement tests
run both on the same snapshots, and `decide` fails loudly (EngineFault, exit 1) rather than
explain a decision the rule engine did not make.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import budget
from .compile import disk_cache
from .compile.rulesets import Compiled, Packer
from .derive.derivation import Derivation
from .derive.fast.incremental import Dependencies, Replay
from .derive.forward_chaining import DurableDeriver
from .derive.pack_reads import pack_reads
from .derive.strata import Strata, stratify
from .derive.walk_subset import WalkSubset
from .errors import EngineFault, WhybotError
from .language.expressions import Condition
from .language.pack import Pack, Rule
from .situation import Situation
from .trace import Trace
from .walk.dice import Dice
from .walk.facts_read import Reading, open_facts
from .walk.pages import DurablePages
from .walk.passed_over import PassedOver
from .walk.turn import Turn

REASONERS = ("durable", "plain")


def compile_pages(pack: Pack) -> Compiled:
    """Every decision page: its rules in order, packed into bands and rulesets.

    Each family of pages (`bot_turn`, `bot_turn.declare`, ...) gets rulesets of its own: a
    decision creates a state only for the rulesets its walk reaches, and creating one costs
    the C core a table for every pattern in it (more, for most shipped examples, than the
    decision's facts do)."""
    packer = Packer("evaluate", f"{pack.name}.pages", frozenset())
    family = None
    for page in sorted(pack.decision_pages(), key=lambda p: p.name.partition(".")[0]):
        if page.name.partition(".")[0] != family:
            family = page.name.partition(".")[0]
            packer.start_ruleset()
        for rank, rule in enumerate(page.ordered(), start=1):
            packer.add(page.name, rank, rule)
    return packer.finish()


def compile_derivations(pack: Pack, strata: Strata, only: frozenset[str] | None = None,
                        ) -> Compiled:
    """Every derivation (or `only` these, each at its own rank), grouped by stratum;
    judgments chain as facts."""
    packer = Packer("phase", f"{pack.name}.judgments", frozenset(pack.facts.judgments))
    rules = sorted(pack.derivations(), key=lambda r: strata.level[r.id])
    for rank, rule in enumerate(rules, start=1):
        if only is None or rule.id in only:
            packer.add(str(strata.level[rule.id]), rank, rule)
    return packer.finish()


class PartialDerivations:
    """Rulesets of only the derivations a rederive asks about (a pack has a few such sets:
    what its actions change), compiled when a set is asked for the `AFTER`th time: compiling
    costs about as much as a few runs save, so a lone decision never pays it and a batch pays
    it once. At most `LIMIT` are kept (each is a network in the C core); past that, and
    before, a rederive runs them all. With `stored` (the disk cache's name of the engine),
    each is kept on disk beside the engine once compiled, and read from there by later
    processes (a fifth of the time: a batch compiled them again in every process). On
    disk, its units name their rules by id: the reader takes them from its own pack (the
    same objects a set compiled here holds) instead of reading a copy of each rule's tree."""

    AFTER = 3
    LIMIT = 32

    def __init__(self, pack: Pack, strata: Strata) -> None:
        self.pack = pack
        self.strata = strata
        self.made: dict[frozenset[str], Compiled] = {}
        self.asked: dict[frozenset[str], int] = {}
        self.stored: str | None = None
        self.rules: dict[str, Rule] = {}

    def __call__(self, affected: frozenset[str]) -> Compiled | None:
        found = self.made.get(affected)
        if found is None and len(self.made) < self.LIMIT:
            self.asked[affected] = asked = self.asked.get(affected, 0) + 1
            if asked >= self.AFTER:
                name = self.stored and f"{self.stored}-partial-{_digest(affected)}"
                kept = disk_cache.load(name, self._rule) if name else None
                found = self.made[affected] = kept if isinstance(kept, Compiled) else \
                    compile_derivations(self.pack, self.strata, affected)
                if name and found is not kept:
                    disk_cache.store(name, found, self._rule_id)
                del self.asked[affected]
        return found

    def _rule(self, rule_id: str) -> Rule | None:
        if not self.rules:
            self.rules = {rule.id: rule for rule in self.pack.rules()}
        return self.rules.get(rule_id)

    def _rule_id(self, value: object) -> str | None:
        """The id of one of the pack's own rules (None: anything else)."""
        return value.id if isinstance(value, Rule) and self._rule(value.id) is value else None

    def __getstate__(self) -> dict[str, Any]:
        """A cached engine travels without them (they are rebuilt or read as needed)."""
        return {"pack": self.pack, "strata": self.strata, "made": {}, "asked": {},
                "stored": None, "rules": {}}


def _digest(rule_ids: frozenset[str]) -> str:
    return hashlib.sha256("\0".join(sorted(rule_ids)).encode()).hexdigest()[:32]


class Engine:
    """A compiled pack, ready to decide any number of situations."""

    def __init__(self, pack: Pack, reasoner: str = "durable") -> None:
        if reasoner not in REASONERS:
            raise ValueError(f"reasoner must be one of {REASONERS}")
        self.pack = pack
        self.reasoner = reasoner
        self.reads = pack_reads(pack)
        self.strata = stratify(pack.derivations(), pack, self.reads.derivations)
        self.ordered = {name: page.ordered() for name, page in pack.pages.items()}
        self.rank = {rule.id: index for rules in self.ordered.values()
                     for index, rule in enumerate(rules, start=1)}
        self.conditions: dict[str, Condition] = {rule_id: read.condition
                                                 for rule_id, read in self.reads.rules.items()}
        self.passed_over = PassedOver(self.ordered, self.rank, self.reads.rules,
                                      self.conditions)
        self.dependencies = Dependencies(pack, self.reads, self.strata)
        # the kinds a snapshot lists, with the fields derivations set (a rederive drops them)
        self.listed_derived = {kind: frozenset(spec.derived_fields())
                               for kind, spec in pack.facts.entities.items() if not spec.created}
        self.walk_subset = WalkSubset(pack, self.reads, self.dependencies)
        if reasoner == "durable":
            self.pages: Any = DurablePages(compile_pages(pack))
            self.deriver: Any = DurableDeriver(pack, self.strata,
                                               compile_derivations(pack, self.strata),
                                               PartialDerivations(pack, self.strata))
        else:
            from .derive.reference import PlainDeriver, PlainPages

            self.pages = PlainPages(pack)
            self.deriver = PlainDeriver(pack, self.strata)

    def keep_beside(self, name: str) -> None:
        """Keep what this engine works out as it decides on disk beside it, under names
        beginning with `name` (its own entry in the disk cache), for later processes: the
        rulesets of a rederive's derivations (`PartialDerivations`), and the walk's pages and
        subsets (`WalkSubset`)."""
        partial = getattr(self.deriver, "partial", None)
        if isinstance(partial, PartialDerivations):
            partial.stored = name
        self.walk_subset.keep_on_disk(f"{name}-reach")

    def derive(self, board: dict[str, Any], entities: dict[str, list[dict[str, Any]]],
               answers: dict[str, Any], replay: Replay | None = None,
               record: bool = True, only: frozenset[str] | None = None) -> Derivation:
        """Every judgment from these observations (with `replay`, the reasoner is asked
        only about the derivations that read what changed since the last run; without
        `record`, supports name their rules but not the facts each firing matched; with
        `only`, no derivation outside it runs: `walk_subset.py`)."""
        return self.deriver.derive(board, entities, answers, replay, record, only)

    def inputs(self, situation: Situation) -> dict[str, Any]:
        """The board a decision starts from: observations, and turn variables at defaults."""
        board = dict(situation.board)
        for spec in self.pack.facts.variables.values():
            board.setdefault(spec.name, spec.default)
        return board

    def decide(self, situation: Situation, seed: int | None = None,
               explain: bool = True, dice: Dice | None = None,
               reading: Reading | None = None, record: bool = True) -> Trace:
        """The decision and its trace; `dice` replaces the snapshot's (the odds drive it).

        With `reading`, the walk notes what it reads (`walk/facts_read.py`): the assumptions are
        then exactly the defaults the walk reached, in the order it reached them, entity lists
        included; without, a quicker reckoning from the names each considered rule mentions.

        Without `record` (a batch row), the trace is not one to show: the decision, the path,
        the judgments with their origins and the rules behind them are exactly as recorded,
        but no support lists the facts its firing matched and no action says `because`.
        Deciding again with `record` gives the full trace of the same decision (a test checks
        they agree). The decision's work is one budget (`budget.py`) for all its rules.

        Only the derivations the walk can read run (`derive/walk_subset.py`), unless the
        walk was led to a page outside those it could reach, or failed: then the decision
        is taken again with every derivation (never with dice a caller rolls)."""
        reach = self.reachable(situation) if dice is None else None
        if reach is not None:
            pages, only = reach
            try:
                trace, led_to = self._walk(situation, seed, explain, dice, reading, record,
                                           only)
                if led_to <= pages:
                    return self._finish(trace, situation, reading)
            except WhybotError:
                pass
            if reading is not None:
                reading.restart()
        trace, _ = self._walk(situation, seed, explain, dice, reading, record, None)
        return self._finish(trace, situation, reading)

    def reachable(self, situation: Situation) -> tuple[frozenset[str], frozenset[str]] | None:
        """The pages a decision's walk can reach, and the derivations behind what they read
        (None: nearly every derivation)."""
        pages = self.walk_subset.pages_for(self.inputs(situation))
        only = self.walk_subset.subset(pages, set(situation.answers).union(
            *situation.answers_after))
        return None if only is None else (pages, only)

    def _walk(self, situation: Situation, seed: int | None, explain: bool, dice: Dice | None,
              reading: Reading | None, record: bool, only: frozenset[str] | None,
              ) -> tuple[Trace, set[str]]:
        """The walk from the start page: its trace, and every page it was led to."""
        with budget.decision():
            turn = Turn(self, situation, seed, explain, dice, reading, record, only)
            try:
                turn.walk(self.pack.start, 0)
            finally:
                trace = turn.finish()
        return trace, turn.pages

    def _finish(self, trace: Trace, situation: Situation, reading: Reading | None) -> Trace:
        trace.assumed = ([o.as_dict() for o in open_facts(self, trace, reading, situation)]
                         if reading is not None else self.assumptions(trace, situation))
        if trace.disagreements:
            raise EngineFault("the rule engine and the explainer disagree on this decision: "
                              + "; ".join(trace.disagreements))
        return trace

    def assumptions(self, trace: Trace, situation: Situation) -> list[dict[str, Any]]:
        """Defaults the decision rested on: values the snapshot did not give but a rule read
        (before any rule set them)."""
        read: set[str] = set()
        set_by_rules: set[str] = set()
        for step in trace.steps:
            read |= (set(step.matched) - {"entities"}) - set_by_rules
            read |= self.passed_over.of(step).names - set_by_rules
            set_by_rules |= set(step.outcome.get("set", {}))
        reads = self.reads
        for name in list(read):
            read |= reads.judgment_inputs.get(name, set())
        for name in set().union(*(reads.rules[r].fields for r in trace.fired()),
                                *(self.passed_over.of(step).fields for step in trace.steps)):
            read |= reads.field_inputs.get(name, set())  # a region's `candidate`: target_kind
        found = []
        for name in sorted(read & situation.defaulted):
            spec = self.pack.facts.spec(name)
            found.append({"name": name, "value": situation.board.get(name),
                          "says": spec.says if spec else ""})
        return found

    def rule(self, rule_id: str) -> Rule | None:
        return self.pack.rule(rule_id)
