"""Speed-ups of deriving again after an action, each giving exactly what a full derivation
would.

- `incremental`: only the derivations that read what changed ask the reasoner again.
- `reuse`: a rederivation that would read exactly what the last one read gets its result.
- `sameness`: what "the same input" means for both (equal values of the same types).
"""
