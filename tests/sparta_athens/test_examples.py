"""Every shipped Sparta/Athens example decides as its notes work out from the seed (the result,
choices and actions are checked by tests/test_examples.py; here what the decision tells the
players and why the rules above did not apply), durable_rules agrees with the evaluator, every
die is pre-rolled and used, and the examples together read every page and fire every rule."""

from __future__ import annotations

from tests.pack_examples import example_paths, example_tests, read_example

# Decision rules no example reaches, and why no consistent board does.
EXCUSED = {
    "region-selection.none": "every target kind reaches Region Selection only with a region to "
                             "aim at (each falls back to the Economic target, which stops "
                             "first when there is none)",
}

globals().update(example_tests("sparta_athens", "sa", "decision", EXCUSED))


def test_there_are_examples_for_each_decision_point(sa):
    points = sa.pack.facts.board["decision"].enum
    assert sorted({read_example(p)["decision"] for p in example_paths("sparta_athens")}) == \
        sorted(points)
