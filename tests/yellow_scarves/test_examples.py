"""Every shipped Yellow Scarves example decides as its notes work out from the seed (the result,
choices and actions are checked by tests/test_examples.py; here what the decision tells the
players and why the rules above did not apply), durable_rules agrees with the evaluator, every
die is pre-rolled and used, and the examples together read every page and fire every rule."""

from __future__ import annotations

from tests.pack_examples import example_paths, example_tests, read_example

# Decision rules no example reaches, and why no consistent board does.
EXCUSED = {
    "assassination.no-player": "a guard for a snapshot that lists no player (a game has 1 to 4)",
    "bribe.no-player": "a guard for a snapshot that lists no player (a game has 1 to 4)",
    "end.wiped-out": "a bot loses provinces only on the players' turns: within its own turn it "
                     "keeps the province it invades from (start.no-bot covers a bot with none)",
}

globals().update(example_tests("yellow_scarves", "ys", "step", EXCUSED))


def test_there_are_examples_for_each_step():
    assert {read_example(p)["step"] for p in example_paths("yellow_scarves")} == {
        "setup", "turn", "invasion_continue", "victory"}
