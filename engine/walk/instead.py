"""What a consultation asks instead of a list of moves, and after which action.

A player at the table answers the bot's own questions rather than listing every move it could
make (`play.yaml` `consult:`): the judgments whose derivations read that list are asked
instead (`Instead`). A walk that takes several actions reads the table anew after each: a
step's layer is the actions taken before it, and an answer said for a layer holds from that
action on (`Situation.answers_after`). `facts_read.py` reads both when it finds what is open.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..language.rule_reads import FIELD, KIND, NAME, Item

if TYPE_CHECKING:
    from ..decide import Engine
    from ..situation import Situation
    from ..trace import Trace


@dataclass(frozen=True)
class Instead:
    """What a consultation asks as the seed's questions: the judgments whose derivations may
    come down to an entity list of `kinds` (the moves a player would otherwise list one by
    one). `in` names the candidates; whether one is asked is settled on the board as the walk
    read it (`_comes_to_moves`): an overlay's derivation guarded by another overlay reads no
    move."""

    judgments: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()

    def __contains__(self, name: object) -> bool:
        return name in self.judgments

    def __iter__(self) -> Iterator[str]:
        return iter(self.judgments)

    def __len__(self) -> int:
        return len(self.judgments)



NOTHING_INSTEAD = Instead()  # a snapshot as it is: no question asked instead of a list


def asked_instead(engine: Engine, kinds: Collection[str]) -> Instead:
    """The judgments a consultation may ask instead of the lists of `kinds` (see Instead)."""
    if not kinds:
        return Instead()
    sources = engine.reads.sources
    return Instead(frozenset(name for name in engine.pack.facts.judgments
                             if moves_in(sources.get((NAME, name), []), kinds)),
                   frozenset(kinds))


def moves_in(items: list[Item], kinds: Collection[str]) -> bool:
    """Whether these reads name a list of moves (the list, or a field of one)."""
    return any((what == KIND and name in kinds) or
               (what == FIELD and name.partition(".")[0] in kinds) for what, name in items)


def layers(trace: Trace) -> list[int]:
    """For each step, the actions taken before it."""
    found, taken = [], 0
    for step in trace.steps:
        found.append(taken)
        taken += "action" in step.outcome
    return found


def answered(situation: Situation, layer: int, asked: Instead) -> Mapping[str, Any]:
    """The judgments answered for a walk `layer` actions in: everything said up to then,
    except a judgment asked instead of its derivation, which each action leaves open anew
    unless it was answered for this very layer."""
    if layer == 0:
        return situation.answers
    later = situation.answers_after
    here = later[layer - 1] if layer <= len(later) else {}
    return {name: value for name, value in situation.answers_at(layer).items()
            if name not in asked or name in here}


__all__ = ["NOTHING_INSTEAD", "Instead", "answered", "asked_instead", "layers", "moves_in"]
