"""The rule language and the pack model built of it. Takes the text of conditions and
outcomes; gives typed, frozen trees, parsed once at load, and the questions every later stage
asks of them.

- `tokens` → `parser` → `expressions`: a condition's text cut into tokens, parsed (never
  `eval`) into the tree of values and conditions; `unparse` writes a tree back as text.
- `outcomes` (what a rule does when it fires, as typed objects) and `outcome_parser` (a
  rule's `then:` parsed into them).
- `pack`: rules, pages and knowledge packs, the engine's vocabulary.
- `tree_queries`: what a tree reads (names, kinds, scopes, aggregates) and its normal forms;
  `rule_reads`: what a rule reads, statically, and per pack what each judgment is derived
  from; `page_links`: which pages a rule can lead to.
"""
