"""Derive only what a walk can read: the derivations behind what the reachable pages mention.

A decision reads judgments and entities only on the pages its walk reaches (`walk/reach.py`
knows them from the snapshot). Every derivation outside the backward closure of what those
pages mention concludes nothing the walk, its row or its trace shows, so a run of only the
closure gives the same decision, byte for byte, when the closure holds:
- every judgment, entity field and kind any rule of those pages mentions, its texts included;
  a kind mentioned with all its fields (a trace shows bound and chosen entities whole), and a
  field by its name on every kind (a trace lists an entity's derived fields by name);
- the fields behind those (`fields_behind`, `judgment_fields`), and the naming fields of every
  kind with a field listed (the trace names the entity);
- the judgments the snapshot answers (their overriding rules are shown), the fields derived
  only to be shown, every created kind (created ids count across all rules), and everything a
  conflict may be noted on (a trace lists every conflict);
- closed backwards: each included derivation's reads, and every producer of what it reads,
  a kind's naming fields too (its firings show them).
Each derivation of the closure then finds exactly the firings it finds in a full run: what it
reads is concluded by the closure alone, in the same rounds of the same strata. What only
derivations outside it conclude is left unset, without its default (`Derivation.only`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..compile import disk_cache
from ..language.expressions import TRUE, Literal
from ..language.mentions import field_names, kinds, refs
from ..language.pack import DECISION, Pack, Rule
from ..language.rule_reads import Product
from ..language.tree_queries import scopes
from ..walk.reach import PageGraph
from .fast.incremental import SHARE, Dependencies
from .pack_reads import PackReads, rules_reached


class WalkSubset:
    """What each page mentions and who derives what; worked out once per engine, and the
    pages and subsets decisions asked for (at most `KEEP` subsets), kept on disk beside the
    engine once it is told where (`keep_on_disk`)."""

    KEEP = 256

    def __init__(self, pack: Pack, reads: PackReads, dependencies: Dependencies) -> None:
        self.graph = PageGraph(pack)
        self.kinds = {kind: tuple(spec.fields) for kind, spec in pack.facts.entities.items()}
        self.naming = {kind: spec.naming_fields for kind, spec in pack.facts.entities.items()}
        self.count = len(pack.derivations())
        self.producers: dict[Product, list[str]] = {}
        for rule_id, products in dependencies.products.items():
            for product in self._expanded(products):
                self.producers.setdefault(product, []).append(rule_id)
        self.depends = {rule_id: read.depends_on for rule_id, read in reads.derivations.items()}
        self.pages = {page.name: self._mentioned(page, pack, reads)
                      for page in pack.pages.values() if page.kind == DECISION}
        shown = self._fields(reads.shown_fields)
        created = {("kind", kind) for kind, spec in pack.facts.entities.items() if spec.created}
        self.always = frozenset(shown | created | _may_conflict(pack, reads))
        self.known: dict[tuple[frozenset[str], frozenset[str]], frozenset[str] | None] = {}
        self.kept: str | None = None  # the disk cache's name for them
        self.new = 0  # worked out in this process

    def keep_on_disk(self, name: str) -> None:
        """Take the pages and subsets earlier processes kept under `name`, and keep those
        worked out here: working them out cost each process of a batch of one pack's
        examples about 0.15 s (the largest shipped pack's: 55 page sets, 54 subsets)."""
        found = disk_cache.load(name)
        if isinstance(found, tuple) and len(found) == 2 and all(isinstance(known, dict)
                                                                for known in found):
            self.graph.known.update(found[0])
            self.known.update(found[1])
        self.kept = name

    def _worked_out(self) -> None:
        """Kept on disk after the 1st, 2nd, 4th, 8th, ... new answer: a few writes a
        process, and none once earlier processes kept them all."""
        self.new += 1
        if self.kept is not None and self.new & (self.new - 1) == 0:
            disk_cache.store(self.kept, (self.graph.known, self.known))

    def __getstate__(self) -> dict[str, Any]:
        """A shipped engine keeps what is known, not where this machine keeps it."""
        return {**vars(self), "kept": None, "new": 0}

    def pages_for(self, board: Mapping[str, Any]) -> frozenset[str]:
        known = len(self.graph.known)
        pages = self.graph.reachable(board)
        if len(self.graph.known) != known:
            self._worked_out()
        return pages

    def subset(self, pages: frozenset[str], answered: Iterable[str]) -> frozenset[str] | None:
        """The derivations to run for a walk within `pages` with these judgments answered;
        None when nearly all are (a full run costs the same)."""
        key = (pages, frozenset(answered))
        if key not in self.known:
            if len(self.known) >= self.KEEP:
                return self._subset(*key)
            self.known[key] = self._subset(*key)
            self._worked_out()
        return self.known[key]

    def _subset(self, pages: frozenset[str], answered: frozenset[str]) -> frozenset[str] | None:
        wanted = set(self.always).union(*(self.pages[page] for page in pages))
        wanted |= {("judgment", name) for name in answered}
        rules = rules_reached(wanted, self.producers,
                              lambda rule_id: self._expanded(self.depends[rule_id]))
        return frozenset(rules) if len(rules) <= SHARE * self.count else None

    def _mentioned(self, page: Any, pack: Pack, reads: PackReads) -> frozenset[Product]:
        """What a page's rules, its repeat test and its after-action outcome mention."""
        trees = [page.rules, page.repeat_while, page.after_action]
        found: set[Product] = set()
        names = {ref.name for ref in refs(trees) if ref.scope is None}
        judged = names & set(pack.facts.judgments)
        found |= {("judgment", name) for name in judged}
        fields = field_names(trees).union(*(reads.judgment_fields.get(n, ()) for n in judged))
        fields |= set().union(*(reads.fields_behind.get(name, ()) for name in fields))
        found |= self._fields(fields)
        for kind in kinds(trees) & set(self.kinds):
            found.add(("kind", kind))
            found |= {("field", f"{kind}.{name}") for name in self.kinds[kind]}
        return frozenset(found)

    def _fields(self, names: Iterable[str]) -> set[Product]:
        """These fields on every kind that has them, with the kinds' naming fields."""
        wanted = set(names)
        found: set[Product] = set()
        for kind, fields in self.kinds.items():
            here = wanted.intersection(fields)
            if here:
                found |= {("field", f"{kind}.{name}") for name in here | set(self.naming[kind])}
        return found

    def _expanded(self, products: Iterable[Product]) -> set[Product]:
        """A field read on an alias of no known kind stands for that field on every kind."""
        found: set[Product] = set()
        for what, name in products:
            kind, _, field_name = name.partition(".")
            if what == "field" and kind not in self.kinds:
                found |= self._fields([field_name])
            else:
                found.add((what, name))
        return found


def _may_conflict(pack: Pack, reads: PackReads) -> set[Product]:
    """What two firings may conclude differently: a product of rules judging more than one
    constant between them, or of a rule that may fire twice for it with a computed value."""
    by_product: dict[Product, list[Rule]] = {}
    for rule in pack.derivations():
        for product in reads.derivations[rule.id].concludes:
            by_product.setdefault(product, []).append(rule)
    found: set[Product] = set()
    for product, rules in by_product.items():
        if product[0] == "kind":
            continue
        constants = {_constant(rule) for rule in rules}
        if len(constants) > 1 or (None in constants and (len(rules) > 1 or
                                                         _fires_twice(rules[0]))):
            found.add(product)
    return found


def _constant(rule: Rule) -> Any:
    """What a rule judges if a constant (as a hashable key), else None."""
    judge = rule.then.judge
    assert judge is not None
    if judge.value == TRUE:
        return ("constant", True)
    if isinstance(judge.value, Literal):
        return ("constant", type(judge.value.value).__name__, repr(judge.value.value))
    return None


def _fires_twice(rule: Rule) -> bool:
    """Whether one rule may fire twice on what it judges: it binds an entity besides the
    one it judges a field of (a board judgment: any entity)."""
    judge = rule.then.judge
    assert judge is not None
    return bool(set(scopes(rule.when)) - {judge.alias})
