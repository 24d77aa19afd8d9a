"""The odds of a decision that depends on dice the snapshot has not pre-rolled. Takes an
engine and a situation; gives each distinct decision with its probability and the dice that
lead to it.

- `distribution`: `odds`, exact or sampled; `replay`: the decision run again with given dice;
  `exact`: every way the dice can fall; `sampling`: estimated from samples;
  `leaves`: which decisions count as the same, and the dice paths to each.
"""
