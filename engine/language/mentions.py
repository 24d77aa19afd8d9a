"""Everything a rule or page mentions, found by walking its parsed objects whole.

The other readings of a rule (`rule_reads.py`) each follow the parts one question needs, in
order. Deciding what a walk can never read needs the opposite guarantee: nothing left out, the
texts a player reads (`say`, an action's words) included, since a trace shows them filled in.
So this walks every declared field of every dataclass in the tree, whatever its type.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from .expressions import Aggregate, Exists, Ref
from .outcomes import Assign, Choice, Create, Distribute, Each, Template


def nodes(tree: Any) -> Iterator[Any]:
    """Every dataclass object within `tree` (itself included), depth first."""
    work = [tree]
    while work:
        node = work.pop()
        if isinstance(node, list | tuple):
            work.extend(reversed(node))
        elif is_dataclass(node) and not isinstance(node, type):
            yield node
            work.extend(reversed([getattr(node, f.name) for f in fields(node)]))


def refs(tree: Any) -> Iterator[Ref]:
    """Every name mentioned: board values, entity fields, judgments."""
    return (node for node in nodes(tree) if isinstance(node, Ref))


def kinds(tree: Any) -> set[str]:
    """Every entity kind quantified, chosen, looped or spread over, or created."""
    return {node.kind for node in nodes(tree)
            if isinstance(node, Exists | Aggregate | Choice | Each | Distribute | Create)}


def templates(tree: Any) -> Iterator[Template]:
    return (node for node in nodes(tree) if isinstance(node, Template))


def assigned(tree: Any) -> set[str]:
    """The board names an outcome sets, and the aliases it binds (both change the board)."""
    found = set()
    for node in nodes(tree):
        if isinstance(node, Assign):
            found.add(node.name)
        alias = getattr(node, "alias", None)
        if isinstance(alias, str):
            found.add(alias)
    return found


def field_names(tree: Any) -> set[str]:
    """Entity fields mentioned, by their own name (`piece.strength`, `target.colour` -> colour)."""
    return {ref.name if ref.scope is not None else ref.name.rpartition(".")[2]
            for ref in refs(tree) if ref.scope is not None or "." in ref.name}
