"""Rule files read, loaded and checked before any snapshot is decided. Takes a pack's folder
and its overlays (optional modules, variants, house-rule folders); gives a `Pack`, or every
problem with its file, line and field path (`rules lint` adds its warnings).

- Reading safely: `sources` (YAML and JSON under the limits, the line of every value kept;
  `yaml_nodes` composes the nodes), `pack_files` (which files make a pack),
  `loaded_files` (each file read and checked once per command).
- The schemas: `schema` (rule files, pack descriptions), `outcome_schema` (a rule's `then:`),
  `validation` (a document checked against one).
- Loading: `loader` drives two phases, `rule_file` (one file's rules parsed) and `overlay`
  (files laid one over another); `declarations` (what the files declare about the facts),
  `page_templates`, `named_preferences`, `variants`.
- Checking: `checks` (names, types, pages, judgments: errors); `lint` and `spending`
  (`rules lint` warnings); `coverage` (which seed sections the rules cite).
"""
