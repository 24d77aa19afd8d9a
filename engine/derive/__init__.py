"""Judgments derived from observations. Takes a situation's board values and entities; gives
every judgment and derived entity field, with the rules that support each.

- `pack_reads`: what each rule of the pack reads, worked out once per pack and kept with the
  compiled engine (strata, the rederive, the reuse and the walk's reading all use it).
- `forward_chaining`: durable_rules derives, stratum by stratum (`strata`: which derivations
  run before which, so negation and aggregates are sound), asserting what `asserted` says.
- `derivation`: one run's knowledge (judgments, support, defaults), fed by either reasoner;
  `entities`: the entities as rules create and change them.
- `reference`: the plain-Python reference reasoner, tested to decide the same.
- `fast/`: deriving again after an action without starting over.
"""
