"""The plain-Python reading of the rule language, beside durable_rules rather than instead of
it. Takes a tree and a world (board values, entities); gives a value, whether a condition
holds, and why not (the why-not of the trace, the reference reasoner, the checks).

- `evaluate`: what each node means, and the failing parts of a condition.
- `closures`: each tree compiled once into Python closures that compute exactly that.
- `joins`: an `exists` or aggregate that requires `field == X` takes its candidates from an
  index (a speed-up: it never changes what a rule means).
"""
