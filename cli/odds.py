"""`whybot odds`: the distribution of the bot's decisions over the dice not yet rolled.

A table (decision, probability as a fraction and a percentage, the dice that lead to it) or
JSON (fractions as "1/3" strings, with floats beside them). Every roll that is not pre-rolled
gets a letter, named once above the table, so that each row's dice read "A: 4–6 · B: 2".
Within a row's decision, only what tells it apart from the other rows is spelled out.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whybot.engine import (
    DicePath,
    Engine,
    Odds,
    Outcome,
    Pack,
    Rolled,
    RollSpec,
    Situation,
    essential,
)
from whybot.engine import odds_of as odds

from .render import entity_text

SHOWN_PATHS = 6  # dice lines per row in the table (--json has them all)


def letters(index: int) -> str:
    """A, B, …, Z, AA, AB, …: the name of the roll numbered `index` (from 0)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def roll_names(odds: Odds) -> dict[RollSpec, str]:
    """Each roll met on any path, named in the order first met."""
    specs = [step.spec for o in odds.outcomes for path in o.paths for step in path]
    return {spec: letters(i) for i, spec in enumerate(dict.fromkeys(specs))}


def values_text(values: frozenset[int]) -> str:
    """`1–3, 5`: runs of three or more as a range."""
    ordered, parts, start = sorted(values), [], 0
    for at in range(1, len(ordered) + 1):
        if at == len(ordered) or ordered[at] != ordered[at - 1] + 1:
            run = ordered[start:at]
            parts.append(f"{run[0]}–{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)))
            start = at
    return ", ".join(parts)


def path_text(path: DicePath, names: dict[RollSpec, str]) -> str:
    """`A: 2, 4, 6, 8 · B: 3`: one way to an outcome, by the rolls' letters."""
    return " · ".join(f"{names[step.spec]}: {_values(step)}" for step in path) or "any roll"


def _values(step: Rolled) -> str:
    """A roll's values on a path: numbers (runs as ranges), or the names a draw drew."""
    if step.spec.labels:
        return ", ".join(step.spec.shown(value) for value in sorted(step.values))
    return values_text(step.values)


def label(entity: Any, pack: Pack) -> str:
    """An entity as the table names it: the pack's lead fields, else its naming field."""
    if not isinstance(entity, dict):
        return str(entity)
    lead = tuple(pack.presentation.get("lead", ()))
    if any(item.partition(" ")[0] in entity for item in lead):
        return entity_text(entity, full=False, lead=lead)
    for spec in pack.facts.entities.values():
        if name := spec.name_of(entity):
            return name
    return entity_text(entity)


def head(decision: dict[str, Any], pack: Pack) -> str:
    """`result: action → target, action`: what a row's decision is, in one line."""
    if "error" in decision:
        return f"error: {decision['error']}"
    if "actions" not in decision:  # --by result
        return str(decision["result"])
    actions = [a["action"] + (f" → {label(a['target'], pack)}" if "target" in a else "")
               for a in decision.get("actions", [])]
    return f"{decision['result']}: {', '.join(actions) or 'no action'}"


def particulars(decision: dict[str, Any], pack: Pack) -> list[str]:
    """Everything else a decision says, one line each: choices, each action's details, goal,
    suit and budget, and (`--by table`) every instruction to the table."""
    names = pack.presentation.get("choices", {})
    lines = [f"{names.get(alias, alias)}: {label(entity, pack)}"
             for alias, entity in decision.get("choices", {}).items()]
    for action in decision.get("actions", []):
        lines += [f"{action['action']}{'' if name == 'details' else ' ' + name}: "
                  f"{action[name]}" for name in ("details", "goal", "suit", "budget")
                  if name in action]
    return list(dict.fromkeys(lines + list(decision.get("say", []))))


def odds_data(odds: Odds, snapshot: str, pack: Pack, total_dice: int,
              variant: str = "") -> dict[str, Any]:
    """The odds as JSON: probabilities as exact fractions ("1/3") and as floats."""
    names = roll_names(odds)
    rows = []
    for outcome in odds.outcomes:
        row: dict[str, Any] = {"decision": outcome.decision,
                               "probability": str(outcome.probability),
                               "p": float(outcome.probability),
                               "percent": round(100 * float(outcome.probability), 4)}
        if odds.method == "samples":
            row.update(hits=outcome.hits, stderr=odds.stderr(outcome))
        else:
            row["dice"] = [[{"roll": names[step.spec], "values": sorted(step.values),
                             **({"drawn": [step.spec.shown(v) for v in sorted(step.values)]}
                                if step.spec.labels else {})}
                            for step in path] for path in outcome.paths]
        rows.append(row)
    data: dict[str, Any] = {
        "snapshot": snapshot, "pack": pack.name, **({"variant": variant} if variant else {}),
        "method": odds.method, "by": odds.by,
        "certain": odds.certain, "runs": odds.runs,
        "prerolled": {"used": odds.prerolled, "given": total_dice},
        "rolls": [{"roll": name, "dice": spec.dice, "for": spec.purpose,
                   **({"draw": spec.counting, "labels": list(spec.labels)} if spec.labels
                      else {"successes": spec.counting} if spec.counting else {})}
                  for spec, name in names.items()],
        "outcomes": rows, "total": str(odds.total())}
    if odds.method == "samples":
        data.update(samples=odds.samples, seed=odds.seed)
    return data


def odds_row(engine: Engine, situation: Situation) -> dict[str, Any]:
    """The exact odds for a `batch --odds` row (which names its snapshot and pack itself);
    raises the WhybotError that refused them (the row renders it where the batch runs)."""
    data = odds_data(odds(engine, situation), situation.name, engine.pack, len(situation.dice))
    return {k: v for k, v in data.items() if k not in ("snapshot", "pack")}


def _summary(odds: Odds, total_dice: int) -> list[Text]:
    """What kind of answer this is (exact, certain, or an estimate), and on what terms."""
    if odds.method == "samples":
        line = Text(f"ESTIMATE from {odds.samples:,} runs with the dice rolled at random (seed "
                    f"{odds.seed}), not exact: s.e. is one standard error", style="bold yellow")
    elif odds.certain and not odds.outcomes[0].paths[0]:
        line = Text("certain (1/1): no die is left to roll", style="bold green")
    elif odds.certain:
        line = Text(f"certain (1/1): every way the dice fall leads to the same decision "
                    f"({odds.runs:,} runs of the procedure)", style="bold green")
    else:
        leaves = sum(o.hits for o in odds.outcomes)
        line = Text(f"exact: {leaves:,} ways the dice fall ({odds.runs:,} runs of the "
                    "procedure)", style="bold")
    terms = f"decisions told apart by {odds.by}"
    if total_dice:
        terms += f"; the snapshot's pre-rolled dice used: {odds.prerolled} of {total_dice}"
    return [line, Text(terms, style="dim")]


def _probability(odds: Odds, outcome: Outcome) -> tuple[str, str]:
    if odds.method == "samples":
        return f"{float(outcome.probability):.4f}", f"{odds.stderr(outcome):.4f}"
    hundredths = math.floor(outcome.probability * 10_000 + Fraction(1, 2))  # half up: 3.13%
    return str(outcome.probability), f"{hundredths // 100}.{hundredths % 100:02d}%"


def _dice(outcome: Outcome, names: dict[RollSpec, str]) -> Text:
    """The ways to this outcome, a few lines at most (a certain one: whatever the dice)."""
    paths = [()] if outcome.probability == 1 else essential(outcome.paths)
    lines = [path_text(path, names) for path in paths]
    more = len(lines) - SHOWN_PATHS
    return Text("\n".join(lines[:SHOWN_PATHS] + ([f"… and {more} more (--json)"]
                                                  if more > 0 else [])), style="magenta")


def render_odds(odds: Odds, snapshot: str, pack: Pack, total_dice: int,
                variant: str = "") -> RenderableType:
    """The odds as a table, likeliest decision first, with the rolls named above it."""
    names = roll_names(odds)
    read_from = f"pack {pack.name}" + (f", variant {variant}" if variant else "")
    parts: list[RenderableType] = [
        Text.assemble(("Odds ", "bold"), (snapshot, "bold cyan"), (f"  ({read_from})", "dim")),
        *_summary(odds, total_dice)]
    if names:
        legend = Table.grid(padding=(0, 2))
        legend.add_column(no_wrap=True)
        legend.add_column(no_wrap=True, style="bold magenta")
        legend.add_column()
        for spec, name in names.items():
            counting = f" ({spec.counting})" if spec.labels else \
                f" (successes: {spec.counting})" if spec.counting else ""
            legend.add_row(f"  {name}", spec.dice, spec.purpose + counting)
        parts.append(legend)
    every = [set(particulars(o.decision, pack)) for o in odds.outcomes]
    shared = set.intersection(*every) if every else set()
    sampled = odds.method == "samples"
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("P≈" if sampled else "P", justify="right", no_wrap=True)
    table.add_column("s.e." if sampled else "%", justify="right", no_wrap=True)
    table.add_column("decision", ratio=3)
    if not sampled:
        table.add_column("dice", ratio=2)
    for outcome in odds.outcomes:
        decision = Text(head(outcome.decision, pack), style="bold")
        for line in particulars(outcome.decision, pack):
            if line not in shared:
                decision.append(f"\n· {line}", style="")
        table.add_row(*_probability(odds, outcome), decision,
                      *([] if sampled else [_dice(outcome, names)]))
    parts.append(table)
    total = odds.total()
    parts.append(Text(f"total {total}" + (" (exact)" if not sampled else
                                          " (the estimates' sum)"),
                      style="dim" if total == Fraction(1) else "bold red"))
    return Group(*parts)


__all__ = ["odds_data", "odds_row", "render_odds"]
