"""The pages of a decision read one after another. Takes a compiled pack, a situation and its
derivations; gives the trace's steps: on each page the rule that fired (durable_rules' agenda
names it), why each rule above it did not apply, and what its outcome did.

- `turn`: the walk itself, page by page; `pages`: one page read in durable_rules.
- `applying`: what follows a fired rule (effects, the action, where to read on);
  `effects`, `choices` (the seed's "Prefer:" lists, then the dice), `dice`.
- `judgments`: what the turn knows from its derivations, and how the trace shows them.
- `facts_read`: the facts the walk read, in order, and those the snapshot left open;
  `instead`: what a consultation asks instead of a list of moves; `reach`: the pages a walk
  can reach, known before it; `can_read`: what their rules can read.
"""
