"""Issue 21's fuzz: house rules that are legal but costly — joins of up to three kinds near the
`combinations` limit, up to 64 `or` alternatives inside a join, many rules without joins —
over snapshots of up to a few hundred entities of the toy pack. Each must decide, or be refused
in one line (exit 2), in bounded time and memory (`conftest.check_case`).
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from tests.conftest import TOY_PACKS

from .conftest import check_case

COST_CASES = 24
KINDS = ("token", "slot")
FIELDS = {"token": ("size", "colour"), "slot": ("open", "colour")}
COLOURS = ("red", "blue", "green")


def _test(rng: random.Random, kind: str, alias: str, earlier: list[tuple[str, str]]) -> str:
    """One comparison on `alias`: with a constant, or joined with an earlier alias."""
    if earlier and rng.random() < 0.6:
        other, other_kind = rng.choice(earlier)
        if kind == "token" and other_kind == "token" and rng.random() < 0.5:
            return f"size {rng.choice(['<', '>=', '!=', '=='])} {other}.size"
        return f"colour {rng.choice(['==', '!='])} {other}.colour"
    if kind == "token":
        return f"size {rng.choice(['>=', '<', '=='])} {rng.randrange(0, 6)}"
    return rng.choice(["open", f"colour == '{rng.choice(COLOURS)}'"])


def _alternatives(rng: random.Random, kind: str) -> str:
    """`(a or b or ...)`: up to 64 alternatives, the documented limit (now and then ranges,
    which all hold at once: too many for durable_rules, refused at load)."""
    count = rng.choice([2, 16, 48, 63, 64])
    if kind == "token":
        op = ">" if rng.random() < 0.15 else "=="
        parts = [f"size {op} {i}" for i in range(count)]
    else:
        parts = [f"colour == '{COLOURS[i % 3]}'" for i in range(count)]
    return "(" + " or ".join(parts) + ")"


def _condition(rng: random.Random) -> str:
    parts: list[str] = []
    earlier: list[tuple[str, str]] = []
    for number in range(rng.choice([1, 2, 2, 3])):
        kind = rng.choice(KINDS)
        alias = f"a{number}"
        tests = [_test(rng, kind, alias, earlier)]
        if rng.random() < 0.4 and "or" not in " ".join(parts):  # one `or`: <= 64 in all
            tests.append(_alternatives(rng, kind))
        parts.append(f"exists {kind} as {alias} ({' and '.join(tests)})")
        earlier.append((alias, kind))
    return " and ".join(parts)


def costly(rng: random.Random, folder: Path) -> tuple[Path, Path, list[str]]:
    """A toy snapshot of many entities, a house-rule folder, and global options."""
    folder.mkdir(parents=True)
    tokens = rng.choice([5, 30, 60, 200, 390, 600])
    slots = rng.choice([5, 30, 60, 200])
    snapshot = {"pack": "toy", "coins": 0, "grow": False,
                "tokens": [{"colour": rng.choice(COLOURS), "size": rng.randrange(0, 6)}
                           for _ in range(tokens)],
                "slots": [{"colour": rng.choice(COLOURS), "open": rng.random() < 0.5}
                          for _ in range(slots)]}
    derivation = rng.random() < 0.5
    rules = [{"id": f"house.c{i}", "when": _condition(rng),
              "then": {"judge": "fits"} if derivation else {"stop": "house"}}
             for i in range(rng.choice([1, 1, 3, 20]))]
    head = {"procedure": "house.judgments", "kind": "derivation"} if derivation else \
        {"procedure": "turn", "salience": 10}
    house = folder / "rules"
    house.mkdir()
    (house / "house.yaml").write_text(yaml.safe_dump(
        {"pack": "toy", **head, "source": "fuzz", "rules": rules}, sort_keys=False))
    path = folder / "snapshot.yaml"
    path.write_text(yaml.safe_dump(snapshot, sort_keys=False))
    options = ["--limit", f"combinations={rng.choice([2_000, 40_000])}"] \
        if rng.random() < 0.25 else []
    return path, house, options


def test_costly_house_rules_decide_or_are_refused_in_bounded_time(cli, scale, tmp_path):
    for number in range(COST_CASES * scale):
        snapshot, house, options = costly(random.Random(f"cost/{number}"),
                                          tmp_path / str(number))
        # --pack by its folder: which packs are installed is read once a process, maybe
        # before the fixture laid the toy pack beside them
        result = check_case(cli, [*options, "decide", snapshot, "--pack", TOY_PACKS / "toy",
                                  "--rules", house, "--seed", "1"], "decide",
                            f"decide costly #{number}")
        if result.exit_code == 2:
            line = result.stderr.strip()
            assert "limit" in line or "house.yaml" in line, f"costly #{number}: {line}"
