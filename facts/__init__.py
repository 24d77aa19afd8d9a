"""What whybot knows of a table: snapshots checked against a pack's fact schema, the registry
that gives each pack its compiled engine, and (in `play/`) a whole game kept at the table.

    packs.py        the pack registry: the installed packs, one Engine per pack and overlay
                    folders (compiled once, kept on disk), variants laid as overlays
    situations.py   a snapshot read for deciding: its pack and variant named, its engine, its
                    Situation (what `decide`, `why`, `odds` and a batch row all do first)
    snapshot.py     a snapshot checked against the pack's fact schema, turned into a Situation
    values.py       one value checked against its field
    includes.py     `include:`: observations kept in other files (a map), merged in
    schema.py       the JSON Schema of a pack's snapshots (`whybot facts schema`)
    play/           the play loop: the table API that `whybot play` and `whybot serve` share
    examples/       snapshots of every pack, each a decision the tests check
    maps/           boards a snapshot may `include:`

It imports the engine and nothing of `cli/` (engine ← facts ← cli).
"""
