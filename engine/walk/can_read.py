"""What a decision point's rules can read, known before its walk: the facts a consultation may
ask at once (what the game remembers of a bot, on one page) rather than one by one as the
walk reaches them, some only after a roll or an action.

The pages are those the walk can reach (`reach.py`) from the observations given, any other
value left open: a page an answer not given yet may lead to counts. Every rule of those pages
reads its condition and its outcome, and each item read comes down to what `facts_read.leaves`
follows it to, through everything the derivations mention (no board cuts them short); a
judgment asked instead of the moves it comes from is itself read, a field of a move is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..language.rule_reads import Item, tree_items
from .facts_read import leaves
from .instead import NOTHING_INSTEAD, Instead

if TYPE_CHECKING:
    from ..decide import Engine


def can_read(engine: Engine, given: Mapping[str, Any],
             asked: Instead = NOTHING_INSTEAD) -> list[Item]:
    """Every leaf the rules of the pages a walk can reach read, the observations given being
    `given`'s (any other: any value), first the start page's, then each page as the links
    lead to it, each page's rules in the order the walk considers them."""
    reads, graph = engine.reads, engine.walk_subset.graph
    items: dict[Item, None] = {}  # what the rules read, each once
    for page in graph.in_order(graph.reachable(given)):
        for rule in engine.ordered[page]:
            read = reads.rules[rule.id]
            items.update(dict.fromkeys([*tree_items(read.condition, reads.aliases),
                                        *read.outcome]))
    found: dict[Item, None] = {}
    for item in items:
        found.update(dict.fromkeys(leaves(engine, item, {}, None, asked)))
    return list(found)


__all__ = ["can_read"]
