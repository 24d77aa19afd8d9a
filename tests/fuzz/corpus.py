"""A generated corpus of malformed inputs: snapshots, JSONL lines and house-rule files.

Each family is a function `(rng) -> Case` that starts from a valid input (the shipped example
snapshots of every pack; the toy pack's rule files) and breaks it one way: truncated, bytes
mutated, wrong types, huge, deep, aliases, cyclic or escaping includes, non-UTF-8, surrogates,
control characters, YAML tags, odd documents, odd numbers. Everything is drawn from a seeded
`random.Random`, so a case is reproduced by its family and number.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "facts" / "examples"
TOY_PAGES = ROOT / "tests" / "engine" / "packs" / "toy" / "pages"
HOUSE = ROOT / "tests" / "engine" / "overlays" / "house"


@dataclass(frozen=True)
class Symlink:
    """An extra file that is a symbolic link (to `target`, relative to the case folder)."""

    target: str


@dataclass
class Case:
    """One input: the main file's bytes, extra files beside it, global CLI options."""

    family: str
    text: bytes
    files: dict[str, bytes | Symlink] = field(default_factory=dict)
    options: tuple[str, ...] = ()  # global options, before the command (e.g. --limit)
    name: str = "case.yaml"

    def write(self, folder: Path) -> Path:
        """Write the case into `folder` (created); the main file's path."""
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in self.files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Symlink):
                path.symlink_to(content.target)
            else:
                path.write_bytes(content)
        main = folder / self.name
        main.write_bytes(self.text)
        return main


def _snapshot_seeds() -> list[dict[str, Any]]:
    """Every shipped example as data, with the map it includes merged in (so that a mutated
    copy written elsewhere is still a whole snapshot)."""
    seeds = []
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        include = data.pop("include", None)
        if include:
            included = yaml.safe_load((path.parent / include).read_text(encoding="utf-8"))
            data = {**included, **data}
        seeds.append(data)
    return seeds


SEEDS = _snapshot_seeds()
RULE_SEEDS = [p.read_text(encoding="utf-8") for p in sorted(TOY_PAGES.glob("*.yaml"))] + [
    p.read_text(encoding="utf-8") for p in sorted(HOUSE.glob("*.yaml"))]

WRONG = ["yes", "no", "", [], {}, None, -1, 0, 3.5, 10**30, "x" * 40, True, False, [1, "a"],
         {"a": 1}, "Ōrbis 火星", "1e5", "NaN"]
BYTES = [b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x1b", b"[", b"{", b"}", b":", b"&a",
         b"*a", b"!", b'"', b"'", b"\\", b"\n", b" ", b"- ", b"#", b"%", b"@", b"`", b"|", b">",
         b"\t", b"\r", b"\xef\xbb\xbf", b"\\u", b"<<: ", b"---\n", b"...\n", b"?", b","]


class _NoAliases(yaml.SafeDumper):
    """Writes repeated values out in full: the corpus chooses where aliases go."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _yaml(data: Any, flow: bool = False) -> bytes:
    return yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False,
                     default_flow_style=flow, width=10**6).encode()


def _dump(data: Any, rng: random.Random) -> bytes:
    """YAML (block or flow) or JSON."""
    if rng.random() < 0.3:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5).encode()
    return _yaml(data, flow=rng.random() < 0.2)


def seed(rng: random.Random) -> dict[str, Any]:
    return copy.deepcopy(rng.choice(SEEDS))


def _paths(data: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside `data`."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*path, index))
    return found


def _replace(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    holder = data
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = value
    return data


# --- families -------------------------------------------------------------------------------


def valid(rng: random.Random) -> Case:
    return Case("valid", _dump(seed(rng), rng))


def truncated(rng: random.Random) -> Case:
    text = _dump(seed(rng), rng)
    return Case("truncated", text[: rng.randrange(len(text))])


def mutated_bytes(rng: random.Random) -> Case:
    text = bytearray(_dump(seed(rng), rng))
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.4:
            text[at:at] = rng.choice(BYTES)
        elif choice < 0.7 and at < len(text):
            text[at] = rng.randrange(256)
        else:
            del text[at: at + rng.randint(1, 4)]
    return Case("mutated-bytes", bytes(text))


def wrong_types(rng: random.Random) -> Case:
    data = seed(rng)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)[1:]
        data = _replace(data, rng.choice(paths), copy.deepcopy(rng.choice(WRONG)))
    return Case("wrong-types", _dump(data, rng))


def unknown_keys(rng: random.Random) -> Case:
    data = seed(rng)
    holders = [p for p in _paths(data) if isinstance(_get(data, p), dict)]
    holder = _get(data, rng.choice(holders))
    if holder and rng.random() < 0.5:
        del holder[rng.choice(list(holder))]
    else:
        holder[rng.choice(["bogus", "hand_countr", "answers", "dice", "include", "pack", "1",
                           "Ōrbis", "__class__", "$ref"])] = rng.choice(WRONG)
    return Case("unknown-keys", _dump(data, rng))


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def huge(rng: random.Random) -> Case:
    data = seed(rng)
    kind = rng.choice(["string", "key", "list", "file", "line"])
    if kind == "string":
        data["name"] = "x" * rng.choice([10_001, 50_000])
        return Case("huge", _dump(data, rng))
    if kind == "key":
        data["k" * 12_000] = 1
        return Case("huge", json.dumps(data).encode())
    if kind == "list":
        data["dice"] = [rng.randint(1, 6)] * rng.choice([10_000, 10_000, 201_000])
        return Case("huge", json.dumps(data).encode())
    if kind == "file":
        return Case("huge", _dump(data, rng), options=("--limit", "file_bytes=300"))
    return Case("huge", b"notes: " + b"y" * 300_000 + b"\n" + _dump(data, rng))


def deep(rng: random.Random) -> Case:
    data = seed(rng)
    depth = rng.choice([39, 41, 200, 5000])
    style = rng.choice(["flow", "block", "json"])
    if style == "flow":
        text = b"notes: " + b"[" * depth + b"]" * depth + b"\n" + _dump(data, rng)
    elif style == "block":
        text = _dump(data, rng) + b"answers:\n" + b"".join(
            b" " * n + b"- \n" for n in range(1, min(depth, 400)))
    else:
        data["notes"] = json.loads("[" * min(depth, 900) + "]" * min(depth, 900))
        text = json.dumps(data).encode()
    return Case("deep", text)


def aliases(rng: random.Random) -> Case:
    data = _dump(seed(rng), rng) if rng.random() < 0.5 else b"pack: arcs\n"
    fan, levels = rng.randint(2, 12), rng.randint(2, 9)
    names = [f"l{n}" for n in range(levels)]
    bomb = f"{names[0]}: &{names[0]} [{', '.join(['lol'] * fan)}]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * fan)}]\n" for p, c in itertools.pairwise(names))
    kind = rng.choice(["bomb", "recursive", "key", "merge", "undefined", "twice"])
    extra = {"bomb": bomb, "recursive": "notes: &r [1, *r]\n", "key": "x: &k a\n*k : 1\n",
             "merge": "base: &b {name: n}\nmore:\n  <<: *b\n  <<: [*b, *b]\n",
             "undefined": "notes: *nowhere\n", "twice": "a: &d 1\nb: &d 2\n"}[kind]
    return Case("aliases", data + extra.encode())


def non_utf8(rng: random.Random) -> Case:
    text = _dump(seed(rng), rng).decode()
    kind = rng.choice(["latin-1", "utf-16", "invalid", "overlong", "surrogate", "cp1252"])
    if kind in ("latin-1", "cp1252"):
        return Case("non-utf8", (text + "notes: café — ñ\n").encode(kind, "replace"))
    if kind == "utf-16":
        return Case("non-utf8", text.encode("utf-16"))
    bad = {"invalid": b"\xff\xfe", "overlong": b"\xc0\x80", "surrogate": b"\xed\xa0\xbd"}[kind]
    raw = text.encode()
    at = rng.randrange(len(raw))
    return Case("non-utf8", raw[:at] + bad + raw[at:])


def surrogates(rng: random.Random) -> Case:
    data = seed(rng)
    escape = rng.choice(["\\ud83d\\udca5", "\\ud83d", "\\udca5", "\\udca5\\ud83d",
                         "\\ud83d\\ud83d\\udca5", "x\\ud800", "\\U0001F4A5", "\\uDFFF"])
    field_name = rng.choice(["name", "notes"])
    text = _dump({k: v for k, v in data.items() if k != field_name}, rng)
    if text.startswith(b"{"):  # JSON: add the field inside the object
        return Case("surrogates", text[:-1] + f', "{field_name}": "{escape}"}}'.encode())
    if rng.random() < 0.3:
        return Case("surrogates", text + f'"{escape}": 1\n'.encode())
    return Case("surrogates", text + f'{field_name}: "{escape} here"\n'.encode())


def control(rng: random.Random) -> Case:
    text = _dump(seed(rng), rng)
    char = rng.choice(["\\0", "\\x07", "\\e", "\\x1b[31m", "\\u0085", "\\u2028", "\\x7f",
                       "\\x9b", "\\ufffe"])
    if rng.random() < 0.5 or text.startswith(b"{"):
        raw = rng.choice([b"\x00", b"\x07", b"\x1b", b"\x7f", b"\xc2\x9b", b"\x0c"])
        at = rng.randrange(len(text))
        return Case("control", text[:at] + raw + text[at:])
    return Case("control", text + f'notes: "before {char} after"\n'.encode())


def tags(rng: random.Random) -> Case:
    text = _dump(seed(rng), rng) if rng.random() < 0.5 else b"pack: arcs\n"
    tag = rng.choice([
        "notes: !!python/object/apply:os.system ['echo pwned']",
        "notes: !!python/name:os.system", "notes: !!binary aGVsbG8=",
        "notes: 2024-05-01", "notes: 2024-13-45", "notes: 2001-12-14t21:59:43.10-05:00",
        "notes: !!set {a, b}", "notes: !!omap [{a: 1}]", "notes: !!pairs [{a: 1}]",
        "notes: !custom x", "notes: !!str 12", "hand_counter: !!int '7'",
        "hand_counter: !!float x", "notes: !<tag:example.com,2000:x> y", "hand_counter: =",
    ])
    return Case("tags", text + tag.encode() + b"\n")


def documents(rng: random.Random) -> Case:
    text = _dump(seed(rng), rng)
    return Case("documents", rng.choice([
        b"", b"# only a comment\n", b"~\n", b"- a\n- b\n", b"just text\n", b"42\n", b"---\n",
        text + b"---\n" + text, b"%YAML 1.1\n---\n" + text, b"%TAG ! tag:x,2000:\n---\n" + text,
        b"\xef\xbb\xbf" + text, text.replace(b"\n", b"\r\n"), text.replace(b"\n", b"\r"),
        b"{" + b'"a": 1,' * 5000 + b'"b": 2}', b"[]", b"{}", b"null"]))


def numbers(rng: random.Random) -> Case:
    data = seed(rng)
    numeric = [p for p in _paths(data)[1:]
               if isinstance(_get(data, p), int | float) and not isinstance(_get(data, p), bool)]
    literal = rng.choice([".nan", ".inf", "-.inf", "1e309", "0x1F", "0o17", "1_000",
                          "190:20:30", "9" * 120, "9" * 5000, "-0.0", "1e-7", "1e16",
                          "9223372036854775808", "-9223372036854775809", "0b101", "+12"])
    text = _dump(data, rng)
    if not numeric or text.startswith(b"{"):
        return Case("numbers", b"pack: arcs\nhand_counter: " + literal.encode() + b"\n")
    data = _replace(data, rng.choice(numeric), "@@NUMBER@@")
    return Case("numbers", _yaml(data).replace(b"'@@NUMBER@@'", literal.encode()))


def includes(rng: random.Random) -> Case:
    data = seed(rng)
    text = _yaml({k: v for k, v in data.items() if k != "include"})
    kind = rng.choice(["self", "escape", "absolute", "symlink", "missing", "many", "nested",
                       "binary", "folder", "not-a-name", "fine", "pair"])
    files: dict[str, bytes | Symlink] = {}
    include: Any = "map.yaml"
    if kind == "self":
        include = "case.yaml"
    elif kind == "escape":
        include = rng.choice(["../outside.yaml", "sub/../../outside.yaml", "../../../etc/passwd"])
    elif kind == "absolute":
        include = rng.choice(["/etc/passwd", "/etc/hostname", "/dev/zero", "/proc/self/environ"])
    elif kind == "symlink":
        files["map.yaml"] = Symlink(rng.choice(["/etc/passwd", "../outside.yaml", "map.yaml"]))
    elif kind == "missing":
        include = "nowhere.yaml"
    elif kind == "many":
        include = [f"m{n}.yaml" for n in range(rng.choice([3, 60]))]
        files.update({f"m{n}.yaml": b"notes: part\n" for n in range(len(include))})
    elif kind == "nested":
        files["map.yaml"] = b"include: other.yaml\n"
        files["other.yaml"] = b"include: map.yaml\n"
    elif kind == "binary":
        files["map.yaml"] = bytes(rng.randrange(256) for _ in range(200))
    elif kind == "folder":
        include = "sub"
        files["sub/x.yaml"] = b"notes: x\n"
    elif kind == "not-a-name":
        include = rng.choice([[1, 2], {"a": 1}, None, True, ""])
    elif kind == "pair":
        include = ["map.yaml", "map.yaml"]
    if kind in ("fine", "pair", "escape", "symlink") and "map.yaml" not in files:
        files["map.yaml"] = b"notes: from the map\n"
    return Case("includes", text + _yaml({"include": include}), files)


def many_entities(rng: random.Random) -> Case:
    """Many entities: the joins of `exists` grow with their product (engine v2's limits)."""
    data = yaml.safe_load((EXAMPLES / "arcs" / "demo.yaml").read_text(encoding="utf-8"))
    count = rng.choice([600, 1000])
    for key in ("options", "ambitions", "cards"):
        if isinstance(data.get(key), list) and data[key]:
            data[key] = (data[key] * count)[:count]
    return Case("many-entities", json.dumps(data).encode(), name="case.json")


SNAPSHOT_FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    f.__name__.replace("_", "-"): f for f in (
        valid, truncated, mutated_bytes, wrong_types, unknown_keys, huge, deep, aliases,
        non_utf8, surrogates, control, tags, documents, numbers, includes)}


# --- JSONL lines ------------------------------------------------------------------------------


def jsonl_line(rng: random.Random) -> bytes:
    """One line of a JSONL batch: a snapshot as JSON, more or less broken."""
    data = seed(rng)
    kind = rng.random()
    if kind < 0.25:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5).encode()
    if kind < 0.45:
        for _ in range(rng.randint(1, 3)):
            data = _replace(data, rng.choice(_paths(data)[1:]), copy.deepcopy(rng.choice(WRONG)))
        return json.dumps(data).encode()
    line = bytearray(json.dumps(data).encode())
    if kind < 0.65:
        for _ in range(rng.randint(1, 5)):
            at = rng.randrange(len(line) + 1)
            line[at:at] = rng.choice(BYTES).replace(b"\n", b"").replace(b"\r", b"")
        return bytes(line)
    if kind < 0.75:
        return bytes(line[: rng.randrange(len(line))])
    if kind < 0.85:
        escape = rng.choice(["\\ud83d\\udca5", "\\ud83d", "\\udca5", "\\u0000", "\\u001b"])
        return bytes(line[:-1]) + f', "name": "{escape}"}}'.encode()
    return rng.choice([b"[" * 5000, b'{"a": ' * 3000, b'{"pack": "arcs", "pack": "arcs"}',
                       b'{"pack": "arcs", "hand_counter": ' + b"9" * 5000 + b"}",
                       b"\xff\xfe{}", b"null", b"[]", b'"text"', b"NaN", b"   ",
                       b'{"pack": "arcs", "notes": "' + b"z" * 20_000 + b'"}'])


# --- house-rule files (for `rules lint --rules DIR` on the toy pack) --------------------------


CONDITIONS = ["ready", "coins > 1", "not ready and coins >= 2", "mood == 'angry'",
              "mood == 'Ōrbis'", "coinz", "fits and", "((ready)", "ready or", "1 +", "'x",
              "exists token (colour == 'red')", "exists token as t (t.size > 2)",
              "exists nothing (x)", "board.coins", "coins > 'a'", "true", "false", "",
              " or ".join(f"(coins > {n} or ready)" for n in range(12)),
              " and ".join(f"(coins > {n} or ready)" for n in range(12)),
              "x" * 5000, "ready " * 2000, "\\ud83d", "coins > 1e999", "coins > 99999999999999999"]


def rule_file(rng: random.Random) -> Case:
    """A house-rule file derived from one of the toy pack's pages, broken one way."""
    data = yaml.safe_load(rng.choice(RULE_SEEDS))
    data.setdefault("salience", 5)
    for index, rule in enumerate(data.get("rules", [])):
        rule["id"] = f"house.{index}.{rng.randrange(1000)}"
    kind = rng.random()
    if kind < 0.3 and data.get("rules"):
        rule = rng.choice(data["rules"])
        rule["when"] = rng.choice(CONDITIONS)
    elif kind < 0.5:
        for _ in range(rng.randint(1, 3)):
            data = _replace(data, rng.choice(_paths(data)[1:]), copy.deepcopy(rng.choice(WRONG)))
    elif kind < 0.6 and data.get("rules"):
        rule = rng.choice(data["rules"])
        rule["then"] = rng.choice([{"goto": "turn"}, {"call": "nowhere"}, {"roll": "0d6"},
                                   {"roll": "99999d99999"}, {"stop": "x", "goto": "luck"},
                                   {"set": {"coins": "coins +"}}, {"say": "Ōrbis 🪐"},
                                   {"compute": "os.system"}, {"each": {"from": "token"}}])
    elif kind < 0.7:
        data["rules"] = [dict(rule, id="dup.id") for rule in data.get("rules", [])] * 2
    text = _dump(data, rng)
    if kind >= 0.85:
        family = rng.choice([truncated, mutated_bytes, control, tags, aliases, deep])
        broken = family(rng).text
        text = broken if kind >= 0.93 else text[: rng.randrange(len(text) + 1)]
    return Case("rule-file", text, name="house.yaml")


def deep_condition(rng: random.Random) -> Case:
    """A condition nested in hundreds of parentheses (the condition parser recurses)."""
    depth = rng.choice([300, 1000, 5000])
    data = {"pack": "toy", "procedure": "turn", "salience": 5, "rules": [
        {"id": "house.deep", "priority": 1, "when": "(" * depth + "ready" + ")" * depth,
         "then": {"say": "deep"}}]}
    return Case("deep-condition", _yaml(data), name="house.yaml")


__all__ = ["SNAPSHOT_FAMILIES", "Case", "Symlink", "deep_condition", "jsonl_line",
           "many_entities", "rule_file"]
