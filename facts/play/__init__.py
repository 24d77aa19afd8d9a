"""The play loop: a whole game at the table, in the seed's words, with no printing, prompting
or web in it (`whybot new/play/fix/undo/log` and `whybot serve` are two faces on it).

    table.py        `Table`: a game file open, the turns it starts, its log decided again
    setup.py        starting a game: the setup questions, and the game file their answers make
    turn.py         `Turn`: one bot decision, asked one question at a time, then decided
    asking.py       how an item the walk reached reads as a question (the last answer offered)
    inquiry.py      a snapshot built by asking only what the procedure reaches
    consult.py      the consultation's own questions (asked again after an action, reviewed,
                    the decision's target named)
    question.py     a question, and the checking of an answer to it
    deck.py         the pack's deck: cards picked by name, and what only the card shows
    printed.py      what a game was told its cards show: asked once, kept for the game
    together.py     facts a pack asks as one question (read off one board: `together:`)
    wording.py      the player's words: names as words, seed files as their titles
    playbook.py     the pack's `play.yaml`: what a turn reads and writes back
    flow.py         the pack's `flow:`: which decision point comes next, and why
    game.py         the game file, written so that no turn is ever lost
    game_check.py   a game file checked when read: its shape, then what the pack says
    game_schema.py  the JSON Schema of a game file
    ledger.py       what a turn writes into the game file (and `undo` sets back)
    timeline.py     the log as turns are recorded, taken back and put back
    fix.py          an answer of a past turn corrected, and the turns after it decided again
"""
