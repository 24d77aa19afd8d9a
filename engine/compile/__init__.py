"""A pack compiled onto durable_rules. Takes the pack's rules; gives rulesets registered in
durable_rules' C core, proved safe first, and the bands each page or stratum reads.

- `alternatives`: a condition's alternatives (its disjunctive normal form);
  `conditions`: each alternative onto durable_rules patterns; `codes`: how names and numbers
  are spelled on facts; `fields_tested`: what an entity fact must hold for a rule to match.
- `rulesets`: rules packed into bands, bands into rulesets, within what
  `alpha_network` (a model of durable_rules' alpha network) proves safe.
- `durable_core`: the one guarded door into durable_rules' C core.
- `disk_cache`: the compiled pack kept on disk between runs (a cold `whybot decide` skips the
  YAML).
"""
