"""What the engine decides on: observations, the player's answers, and pre-rolled dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Situation:
    """A validated, normalised snapshot, ready to become facts.

    `defaulted` names the board values the snapshot did not give (their default is an
    assumption a trace must show when a rule reads it), `unlisted` the entity kinds whose list
    it left out (an empty list given is an answer: there are none); entities carry their id
    under `#` and the derived fields the snapshot gave under `#given`."""

    name: str
    board: dict[str, Any]
    entities: dict[str, list[dict[str, Any]]]
    answers: dict[str, Any] = field(default_factory=dict)
    dice: list[int] = field(default_factory=list)
    defaulted: set[str] = field(default_factory=set)
    defaulted_fields: dict[str, set[str]] = field(default_factory=dict)
    variant: str = ""  # the variant laid over the pack for it ("": the pack as it is)
    unlisted: set[str] = field(default_factory=set)
    # what the player said of the table each action left: the i-th map holds from the
    # (i+1)-th action on, over `answers` (a consultation asks a judgment again after an action)
    answers_after: list[dict[str, Any]] = field(default_factory=list)

    def answers_at(self, actions: int) -> dict[str, Any]:
        """The answers that hold once `actions` actions are taken (`answers` itself while no
        later answer applies, so a decision without them derives as it always did)."""
        later = self.answers_after[:actions]
        if not any(later):
            return self.answers
        merged = dict(self.answers)
        for layer in later:
            merged.update(layer)
        return merged
