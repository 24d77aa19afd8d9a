"""Malformed game files (issue 21, item 8): real ones made by `whybot new` and played turns,
broken one way each.

`every_field`: each field the code reads, in turn, given a value of another type. Families:
`confusion` (any value, anywhere, of another type), `deep` (a value nested hundreds of levels),
`dropped` (a key left out), `moved` (one part of the file where another belongs) and `bytes`
(the text cut or with bytes inserted). All drawn from a seeded `random.Random`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from .corpus import BYTES, WRONG, _dump, _get, _paths, _replace, _yaml

# parts whose values are anyone's (checked as a snapshot, or kept as given): their inner paths
# are left to `confusion`
_FREE = ("snapshot", "asked")
_DEEP = "@@DEEP@@"


def structural(data: dict[str, Any]) -> list[tuple]:
    """Every path the game file's own code reads, none inside a logged snapshot or answer."""
    return [p for p in _paths(data)[1:]
            if not any(part in _FREE for part in p[:-1] if isinstance(part, str))]


def _other_type(value: Any, rng: random.Random) -> Any:
    """A value of another type than `value` (a bool is not a number here)."""
    return copy.deepcopy(rng.choice([w for w in WRONG if type(w) is not type(value)]))


def every_field(data: dict[str, Any], path: tuple, rng: random.Random) -> bytes:
    """The field at `path` (one of `structural(data)`) given a value of another type; written
    as whybot writes a game file (libyaml's dumper: many cases, each cheap)."""
    import yaml

    data = _replace(copy.deepcopy(data), path, _other_type(_get(data, path), rng))
    return yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True,
                     width=100, default_flow_style=None).encode()


def confusion(number: int, data: dict[str, Any], rng: random.Random) -> Any:
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(data)[1:])
        data = _replace(data, path, _other_type(_get(data, path), rng))
    return data


def deep(number: int, data: dict[str, Any], rng: random.Random) -> Any:
    """A placeholder, written as `depth` nested lists or mappings by `game_case`."""
    return _replace(data, rng.choice(structural(data)), _DEEP)


def dropped(number: int, data: dict[str, Any], rng: random.Random) -> Any:
    keyed = [p for p in structural(data) if isinstance(p[-1], str)]
    path = rng.choice(keyed)
    parent = _get(data, path[:-1])
    parent.pop(path[-1], None)
    return data


def moved(number: int, data: dict[str, Any], rng: random.Random) -> Any:
    paths = _paths(data)[1:]
    source, target = rng.choice(paths), rng.choice(structural(data))
    return _replace(data, target, copy.deepcopy(_get(data, source)))


def as_text(data: Any, rng: random.Random) -> bytes:
    """YAML (block or flow) or JSON: a game file may be written either way by hand."""
    return _dump(data, rng)


def broken_bytes(text: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        return text[: rng.randrange(len(text))]
    line = bytearray(text)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(line) + 1)
        line[at:at] = rng.choice(BYTES)
    return bytes(line)


DATA_FAMILIES: dict[str, Callable[[int, dict[str, Any], random.Random], Any]] = {
    "confusion": confusion, "deep": deep, "dropped": dropped,
    "moved": moved}


def game_case(family: str, number: int, seeds: list[bytes], rng: random.Random) -> bytes:
    """One broken game file: of `family`, from one of the real files `seeds`."""
    import yaml

    text = rng.choice(seeds)
    if family == "bytes":
        return broken_bytes(text, rng)
    data = DATA_FAMILIES[family](number, yaml.safe_load(text), rng)
    if family != "deep":
        return as_text(data, rng)
    depth = rng.choice([30, 60, 1000])
    nested = "[" * depth + "1" + "]" * depth if rng.random() < 0.5 else \
        "{k: " * depth + "1" + "}" * depth
    return _yaml(data).replace(f"'{_DEEP}'".encode(), nested.encode())


FAMILIES = (*DATA_FAMILIES, "bytes")

__all__ = ["FAMILIES", "every_field", "game_case", "structural"]
