"""Strata of derivations: which rules run before which, so negation and aggregates are sound.

A derivation may read what another derives *positively* (`J`, `exists play`, `p.locked`) and
then runs in the same stratum — the rule engine chains them. Anything that needs the other's
work finished — `not J`, `J == 3`, an aggregate over a kind, a `value:` expression, a default —
puts it in a later stratum. A cycle through such a read has no meaning and is a load error.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from ..errors import RuleFileError
from ..language.pack import FieldSpec, Pack, Rule
from ..language.rule_reads import DerivationReads, Product


@dataclass
class Strata:
    level: dict[str, int] = field(default_factory=dict)  # rule id → stratum
    final_at: dict[Product, int] = field(default_factory=dict)  # product → last stratum
    producers: dict[Product, list[Rule]] = field(default_factory=dict)
    finals: dict[int, list[Product]] = field(default_factory=dict)  # stratum → final there
    # stratum → what takes its default there if no rule established it, in `finals` order:
    # (judgment, default) and (field, kind, default); worked out once, not per run
    judgment_defaults: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)
    field_defaults: dict[int, list[tuple[str, str, Any]]] = field(default_factory=dict)
    # stratum → the derivations concluding each of those defaults, in the same order (a run
    # deriving a subset gives only the defaults its derivations conclude)
    judgment_producers: dict[int, list[frozenset[str]]] = field(default_factory=dict)
    field_producers: dict[int, list[frozenset[str]]] = field(default_factory=dict)
    # the judgments no rule derives, with their defaults, in the order they are declared
    underived: list[tuple[str, Any]] = field(default_factory=list)
    # every declared judgment → (its question, its origin when no rule established it and no
    # answer gave it), in the order a run reports them
    judgments: dict[str, tuple[str, str]] = field(default_factory=dict)
    # derivations run → stratum → its `Defaults`: worked out once per subset a run asks, not
    # tested default by default in every run (a rederive gives every stratum's again)
    asked: dict[frozenset[str] | None, dict[int, Defaults]] = field(default_factory=dict)

    @cached_property
    def top(self) -> int:
        """The last stratum (asked by every run: worked out once `stratify` is done)."""
        return max(self.level.values(), default=0)

    def defaults(self, only: frozenset[str] | None) -> dict[int, Defaults]:
        """Stratum → what takes its default at its end in a run of the derivations `only`
        (None: all): what no derivation of it concludes takes none (nothing reads it)."""
        def ran(defaults: list[Any], producers: list[frozenset[str]]) -> list[Any]:
            return [default for default, made in zip(defaults, producers, strict=True)
                    if only is None or not only.isdisjoint(made)]

        found = self.asked.get(only)
        if found is None:
            found = {stratum: Defaults(
                ran(self.judgment_defaults.get(stratum, []),
                    self.judgment_producers.get(stratum, [])),
                ran(self.field_defaults.get(stratum, []), self.field_producers.get(stratum, [])))
                for stratum in range(self.top + 1)}
            if len(self.asked) < 256:  # a pack's walks ask a few dozen subsets
                self.asked[only] = found
        return found


class Defaults(NamedTuple):
    """The defaults one stratum gives in a run: (judgment, default), (field, kind, default)."""

    judgments: list[tuple[str, Any]]
    fields: list[tuple[str, str, Any]]


def stratify(rules: list[Rule], pack: Pack, reads: Mapping[str, DerivationReads]) -> Strata:
    """The stratum of every derivation (`reads`: what each concludes and needs, by id);
    raises on a cycle through a read that needs final."""
    result = Strata()
    for rule in rules:
        for product in reads[rule.id].concludes:
            result.producers.setdefault(product, []).append(rule)
    edges: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for rule in rules:
        for product, final in reads[rule.id].needs:
            for producing in result.producers.get(product, []):
                edges[rule.id].append((producing.id, final))
    by_id = {r.id: r for r in rules}
    component = _components([r.id for r in rules], edges)
    members: dict[int, list[str]] = defaultdict(list)
    for rule_id, number in component.items():
        members[number].append(rule_id)
    level_of: dict[int, int] = {}
    for number in sorted(members):  # Tarjan numbers components dependencies first
        level = 0
        for rule_id in members[number]:
            for producer, final in edges[rule_id]:
                other = component[producer]
                if other == number:
                    if final:
                        rule = by_id[rule_id]
                        raise RuleFileError(
                            f"derivation {rule_id} needs {producer} finished first, but "
                            f"{producer} depends on {rule_id} in turn (a cycle through a "
                            "negation, an aggregate or a value)", file=rule.file,
                            line=rule.line)
                    continue
                level = max(level, level_of[other] + (1 if final else 0))
        level_of[number] = level
    result.level = {rule_id: level_of[component[rule_id]] for rule_id in by_id}
    for product, producers in result.producers.items():
        result.final_at[product] = max(result.level[r.id] for r in producers)
        result.finals.setdefault(result.final_at[product], []).append(product)
    for stratum, finals in result.finals.items():
        products = [product for product in finals if product[0] != "kind"]
        defaults = [(_default_of(product, pack),
                     frozenset(r.id for r in result.producers[product])) for product in products]
        result.judgment_defaults[stratum] = [(name, value) for (name, kind, value), _ in defaults
                                             if kind is None]
        result.judgment_producers[stratum] = [made for (_, kind, _), made in defaults
                                              if kind is None]
        result.field_defaults[stratum] = [(name, kind, value) for (name, kind, value), _
                                          in defaults if kind is not None]
        result.field_producers[stratum] = [made for (_, kind, _), made in defaults
                                           if kind is not None]
    for name, spec in pack.facts.judgments.items():
        boolean = spec.type == "boolean"
        if ("judgment", name) in result.producers:
            otherwise = "not established by any rule, so no" if boolean else \
                "not established by any rule: its default"
        else:
            otherwise = "unknown, assumed no" if boolean else "unknown, assumed its default"
            result.underived.append((name, default_value(spec)))
        result.judgments[name] = (spec.says, otherwise)
    return result


def default_value(spec: FieldSpec | None) -> Any:
    """What a judgment or field no rule established takes: its default (a boolean: false)."""
    if spec is None or spec.type == "boolean":
        return False if spec is None or spec.default is None else spec.default
    return spec.default


def _default_of(product: Product, pack: Pack) -> tuple[str, str | None, Any]:
    what, name = product
    if what == "judgment":
        return name, None, default_value(pack.facts.judgments.get(name))
    kind, field_name = name.split(".", 1)
    return field_name, kind, default_value(pack.facts.entities[kind].fields.get(field_name))


def _components(nodes: list[str], edges: dict[str, list[tuple[str, bool]]]) -> dict[str, int]:
    """Strongly connected components (Tarjan, iterative), numbered dependencies first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    component: dict[str, int] = {}
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = edges[node]
            if position < len(targets):
                work.append((node, position + 1))
                target = targets[position][0]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            for target, _ in targets:
                if target in on_stack:
                    low[node] = min(low[node], low[target])
            if low[node] == index[node]:
                number = len(set(component.values()))
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = number
                    if member == node:
                        break
    return component
