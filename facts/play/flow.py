"""A pack's flow (`flow:` in play.yaml): which decision point comes next, and why.

The pack declares, as data: the first point of a new game (`start:`), what follows each point
(`after:` — transitions tried in order, each with the player's words `says:` and any of: the
last decision's `result:` among some, a `when:` condition on what the game file knows of the
next bot (`all_bots:` of every bot), `last:` a condition on what the last decision was told
(its snapshot), `fewer: N` — the bot has had fewer than N turns in the run of turns at the
point that ends the log — with `count: FACT` giving the turn that number, `every_bot:` every
bot has had its turn at the last point since another point (the round has come round, whoever
led it), `give:` facts the transition itself says, `same_bot:` the bot of the last decision
rather than the next in turn order, and `ask:` — a trigger only the table knows, asked in the
seed's words (`cite:`), taken on a yes; `no_means:` the facts a no to it tells the point the flow
goes on to), what a stopped card's next play is (`continues:`),
what follows a point with no transition of its own (`otherwise:`), and the points the table
brings up itself (`arise:`). An arising point is an interlude: after it (and its own
transitions), the flow goes on from the point before it, past the transition that led to it.
A transition marked `new_round:` begins a round: before it, the flow asks the table the
questions `at_round_start:` declares (which bot holds a marker there is one of: `holder:`, a
yes/no fact told to every decision of the round; round_start.py).
`play` offers the next point from it (offer.py); `--at` jumps anywhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from whybot.engine import (
    Condition,
    ConditionSyntaxError,
    did_you_mean,
    parse,
)

FLOW = "flow"  # the flow's own questions: ids `flow.ID`, logged with the turn they led to


@dataclass(frozen=True)
class Step:
    """One transition: to the point `to`, said as `says`, when its tests hold."""

    to: str
    says: str
    result: tuple[str, ...] = ()
    when: Condition | None = None
    all_bots: bool = False
    fewer: int = 0
    count: str | None = None
    every_bot: bool = False  # only once every bot has had its turn in the run at this point
    give: dict[str, Any] = field(default_factory=dict)  # facts the transition itself says
    last: Condition | None = None  # on the snapshot of the decision that ends the log
    same_bot: bool = False  # the bot of the last decision, not the next in turn order
    ask: str = ""  # a trigger only the table knows: the seed's question, taken on a yes
    cite: str = ""  # where the seed says the question
    id: str = ""  # an asked transition's answer key (an answers file's `flow.ID`)
    no_means: dict[str, Any] = field(default_factory=dict)  # told by a no to `ask`
    new_round: bool = False  # it begins a round: `at_round_start:` is asked first


@dataclass(frozen=True)
class RoundQuestion:
    """Which bot holds `holder` (a yes/no fact) this round: asked as `ask`, `none` said when
    a player holds it; told with why (`says`, `cite`)."""

    id: str
    ask: str
    holder: str
    none: str
    says: str
    cite: str

    @property
    def key(self) -> str:
        """Its answer's id: an answers file's `flow.ID`, as the flow's answers are logged."""
        return f"{FLOW}.{self.id}"


@dataclass
class Flow:
    """The pack's decision points in game order (see the module docstring)."""

    start: Step
    after: dict[str, list[Step]] = field(default_factory=dict)
    otherwise: Step | None = None
    continues: str = "the bot's stopped card goes on"
    arise: dict[str, str] = field(default_factory=dict)
    at_round_start: dict[str, RoundQuestion] = field(default_factory=dict)


STEP_KEYS = {"to", "says", "result", "when", "all_bots", "fewer", "count", "every_bot", "give",
             "last", "same_bot", "ask", "cite", "id", "no_means", "new_round"}
ROUND_KEYS = {"ask", "holder", "none", "says", "cite"}


def read_flow(reader: Any, data: Any, points: set[str]) -> Flow | None:
    """The `flow:` section, checked by a playbook reader (`reader.fail`, `reader.mapping`)."""
    if data is None:
        return None
    spec = reader.mapping(data, ("flow",))
    known = {"start", "after", "otherwise", "continues", "arise", "at_round_start"}
    for key in spec:
        if key not in known:
            raise reader.fail(("flow", key), f"unknown key {key!r} (one of: "
                                             f"{', '.join(sorted(known))})")

    def step(raw: Any, path: tuple) -> Step:
        item = reader.mapping(raw, path)
        for key in item:
            if key not in STEP_KEYS:
                raise reader.fail((*path, key), f"unknown key {key!r}",
                                  did_you_mean(str(key), STEP_KEYS))
        if item.get("to") not in points:
            raise reader.fail((*path, "to"), f"{item.get('to')!r} is no decision point")
        if not item.get("says"):
            raise reader.fail(path, "a transition says why, in the player's words (says:)")
        when, last = (_condition(reader, item.get(key), (*path, key)) for key in ("when", "last"))
        if item.get("ask") and not item.get("cite"):
            raise reader.fail((*path, "ask"), "a question needs its citation (cite:): the flow "
                                              "asks in the seed's words")
        count = reader.fact(item.get("count"), (*path, "count"))
        give, no_means = (reader.mapping(item.get(key), (*path, key))
                          for key in ("give", "no_means"))
        for key, facts in (("give", give), ("no_means", no_means)):
            for name in facts:
                reader.fact(name, (*path, key, name))
        if no_means and not item.get("ask"):
            raise reader.fail((*path, "no_means"), "what a no tells needs a question (ask:)")
        result = item.get("result") or []
        return Step(str(item["to"]), str(item["says"]),
                    tuple(map(str, result if isinstance(result, list) else [result])),
                    when, bool(item.get("all_bots")), int(item.get("fewer") or 0), count,
                    bool(item.get("every_bot")), give, last, bool(item.get("same_bot")),
                    str(item.get("ask") or ""), str(item.get("cite") or ""),
                    str(item.get("id") or (item["to"] if item.get("ask") else "")), no_means,
                    bool(item.get("new_round")))

    after = {}
    for point, steps in reader.mapping(spec.get("after"), ("flow", "after")).items():
        if point not in points:
            raise reader.fail(("flow", "after", point), f"{point!r} is no decision point")
        if not isinstance(steps, list):
            raise reader.fail(("flow", "after", point), "expected a list of transitions")
        after[point] = [step(s, ("flow", "after", point, i)) for i, s in enumerate(steps)]
    arise = {str(k): str(v) for k, v in reader.mapping(spec.get("arise"),
                                                        ("flow", "arise")).items()}
    for point in arise:
        if point not in points:
            raise reader.fail(("flow", "arise", point), f"{point!r} is no decision point")
    at_start = _round_start(reader, spec.get("at_round_start"))
    asked = {s.id for steps in after.values() for s in steps if s.ask}
    for ident in at_start.keys() & asked:
        raise reader.fail(("flow", "at_round_start", ident), f"{ident!r} is a transition's "
                                                             f"question's id already")
    return Flow(step(spec.get("start"), ("flow", "start")), after,
                step(spec["otherwise"], ("flow", "otherwise")) if spec.get("otherwise")
                else None, str(spec.get("continues") or Flow.continues), arise, at_start)


def _round_start(reader: Any, data: Any) -> dict[str, RoundQuestion]:
    """`at_round_start:` — by id, the seed's question (`ask:`), the yes/no fact it tells
    (`holder:`), what `none` means (`none:`), why (`says:`) and the citation (`cite:`)."""
    found = {}
    for ident, raw in reader.mapping(data, ("flow", "at_round_start")).items():
        path = ("flow", "at_round_start", ident)
        spec = reader.mapping(raw, path)
        reader.names(list(spec), path, ROUND_KEYS, "key of a question at a round's start")
        missing = sorted(key for key in ROUND_KEYS if not spec.get(key))
        if missing:
            raise reader.fail(path, f"missing {', '.join(missing)}: a question at a round's "
                                    f"start says the seed's question (ask:), the yes/no fact "
                                    f"it tells (holder:), what none means (none:), why (says:) "
                                    f"and where the seed says it (cite:)")
        holder = reader.fact(spec["holder"], (*path, "holder"))
        if reader.pack.facts.board[holder].type != "boolean":
            raise reader.fail((*path, "holder"), f"{holder!r} is no yes/no fact: the answer "
                                                 f"tells each bot yes or no")
        found[str(ident)] = RoundQuestion(str(ident), *(str(spec[key]) for key in (
            "ask", "holder", "none", "says", "cite")))
    return found


def _condition(reader: Any, text: Any, path: tuple) -> Condition | None:
    if text is None:
        return None
    try:
        return parse(str(text), reader.pack.kinds)
    except ConditionSyntaxError as exc:
        raise reader.fail(path, f"not a condition: {exc}") from None


__all__ = ["FLOW", "STEP_KEYS", "Flow", "RoundQuestion", "Step", "read_flow"]
