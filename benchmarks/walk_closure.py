"""What deriving only what a walk reads would save: the measurement behind docs/performance.md's
"next lever".

For each shipped example of a pack (seed 1), takes the pages its walk visited, every board name
and entity field their rules read (every field of a kind they read: a row shows whole entities),
and the derivations behind those, closed backwards over what each derivation reads. Then times
the first derivation of the snapshot with all the pack's derivation rules and with only that
subset (the fastest is not taken: the mean of `--runs` after two warm-up runs), in one process.

    python benchmarks/walk_closure.py [--runs 5] [PACK]

The subset is a lower bound on what a real change could derive: a decision does not know its
walk before it derives, so it would have to take the pages it *can* reach.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from whybot.cli.common import load_situation
from whybot.engine import (
    FIELD,
    KIND,
    NAME,
    DurableDeriver,
    Engine,
    Product,
    compile_derivations,
    tree_items,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "facts" / "examples"


def read_by_pages(engine: Engine, pages: set[str]) -> set[Product]:
    """Every judgment, entity field and kind the rules of these pages read."""
    pack = engine.pack
    reads = engine.reads
    found: set[Product] = set()
    for page in pages:
        for rule in engine.ordered[page]:
            outcome = reads.rules[rule.id].outcome
            for what, name in [*tree_items(rule.when, reads.aliases), *outcome]:
                if what == NAME and name in pack.facts.judgments:
                    found.add(("judgment", name))
                elif what == KIND:
                    spec = pack.facts.entities.get(name)
                    found.add(("kind", name))
                    found.update(("field", f"{name}.{f}") for f in (spec.fields if spec else ()))
                elif what == FIELD:
                    found.add(("field", name))
    return found


def behind(engine: Engine, wanted: set[Product]) -> frozenset[str]:
    """The derivation rules that establish what is wanted, and those behind them in turn."""
    producers = engine.strata.producers
    rules: set[str] = set()
    work, seen = list(wanted), set(wanted)
    while work:
        product = work.pop()
        if product[0] == "field" and product[1].startswith("*."):  # a field of any kind
            found = [r for p, rs in producers.items()
                     if p[0] == "field" and p[1].endswith(product[1][1:]) for r in rs]
        else:
            found = producers.get(product, [])
        for rule in found:
            if rule.id not in rules:
                rules.add(rule.id)
                for read, _ in engine.reads.derivations[rule.id].needs:
                    if read not in seen:
                        seen.add(read)
                        work.append(read)
    return frozenset(rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="arcs")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    subsets: dict[frozenset[str], DurableDeriver] = {}
    full, part, sizes = [], [], []
    total = None
    for path in sorted((EXAMPLES / args.pack).rglob("*.yaml")):
        try:
            engine, situation = load_situation(path, None, ())
        except Exception:  # an example that needs house rules or another pack's variant
            continue
        if engine.pack.name != args.pack or situation.variant:
            continue  # a variant's engine: another rule set
        pages = {step.page for step in engine.decide(situation, seed=1).steps}
        subset = behind(engine, read_by_pages(engine, pages))
        if not subset:
            continue
        total = len(engine.pack.derivations())
        if subset not in subsets:
            subsets[subset] = DurableDeriver(engine.pack, engine.strata,
                                             compile_derivations(engine.pack, engine.strata,
                                                                 subset))
        board = {k: v for k, v in engine.inputs(situation).items()
                 if k not in engine.pack.facts.judgments}
        for deriver, times in ((engine.deriver, full), (subsets[subset], part)):
            for _ in range(2):
                deriver.derive(board, situation.entities, situation.answers)
            start = time.process_time()
            for _ in range(args.runs):
                deriver.derive(board, situation.entities, situation.answers)
            times.append((time.process_time() - start) / args.runs * 1000)
        sizes.append(len(subset))
    if not sizes:
        sys.exit(f"no example of pack {args.pack!r} derives anything")
    print(f"{args.pack}: {len(sizes)} examples, {len(subsets)} distinct subsets")
    print(f"first derivation, all {total} derivation rules: {statistics.mean(full):.2f} ms CPU")
    print(f"first derivation, the walk's closure (median {statistics.median(sizes):.0f} "
          f"rules): {statistics.mean(part):.2f} ms CPU")


if __name__ == "__main__":
    main()
