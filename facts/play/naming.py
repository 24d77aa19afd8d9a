"""The targets of a turn's actions, named as the player sees them on the table.

An action whose rule targets one of the moves (`Open a Tax: which city?`), decided on a "yes"
without a listed move, has no target of its own: the player names it, and the name is what
the decision shows as its target; it never changes the decision. A player answering "Can bot
Tax to gain resources?" yes is looking at the city it taxes, so the name may come with the
yes itself (`3 Blue's city in Hexy 2` on the terminal, a field beside the buttons on the page,
`{yes: Blue's city in Hexy 2}` in an answers file): a judgment that some targeting rule reads
(`nameable`) takes one. A target the yes did not name is asked for after the decision
(`naming`, several at once: `named_together`).

Which action a named yes names: a yes given after k actions leads to action k + 1, if the rule
that takes it read that judgment (else the target is asked for after the decision). The log
keeps the names by judgment (`target: {judgment: name}`), with `after: k`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from whybot.engine import NAME, Action, Trace, did_you_mean, tree_items

from .question import YES, AnswerError, Question
from .wording import plain

if TYPE_CHECKING:
    from whybot.engine import Engine, Pack

NAMED = "named"  # a naming question's id: `named.N`, N the action's number
TARGET = "target"  # an answer naming its yes's target: {"answer": …, "target": "…"}; logged so
BEFORE = "after"  # logged with a target: the actions taken before its yes (0: left out)


def nameable(engine: Engine, kinds: Iterable[str]) -> frozenset[str]:
    """The judgments whose yes may name a target: read by a rule that targets one of the
    moves (`kinds`, asked as the seed's questions instead of listed)."""
    pack, wanted = engine.pack, set(kinds)
    found: set[str] = set()
    for rule in pack.rules():
        reads = engine.reads.rules.get(rule.id)
        if reads is not None and target_kind(pack, rule.id) in wanted:
            found.update(item for what, item in tree_items(reads.condition, engine.reads.aliases)
                         if what == NAME and item in pack.facts.judgments)
    return frozenset(found)


def with_nameable(questions: list[Question], judgments: frozenset[str]) -> list[Question]:
    """The questions marked with their judgments whose yes may name a target: a yes/no
    judgment's own, and those of one made of several (a run, the page after an action), not a
    count's (a page of the bot's standing holds its starports: no yes names anything)."""
    marked = []
    for question in questions:
        ids = [m.id for m in question.fields if m.kind == "yes_no"] if question.fields else \
            [question.id] if question.kind == "yes_no" else []
        named = tuple(ident for ident in ids if ident in judgments)
        marked.append(replace(question, nameable=named) if named else question)
    return marked


def split(question: Question, raw: Any) -> tuple[Any, Any]:
    """An answer and the target(s) its yes names: `{"answer": …, "target": …}` (a name, or
    names by judgment), an answers file's `{yes: "…"}` to a yes/no question; or the answer
    alone and None."""
    if not isinstance(raw, dict) or question.kind in ("group", "names", "entities"):
        return raw, None
    if set(raw) == {"answer", TARGET}:
        return raw["answer"], raw[TARGET] or None
    if question.kind == "yes_no" and len(raw) == 1 and str(next(iter(raw))).lower() in YES:
        return True, next(iter(raw.values())) or None
    return raw, None


def typed(question: Question, text: str) -> Any:
    """A typed line: a yes (`y`, or a run's number) followed by its target's name (`3 Blue's
    city in Hexy 2`) as an answer naming it; any other line as it is (a page after an action
    names no target on the terminal: it is asked after the decision)."""
    head, _, rest = text.strip().partition(" ")
    said = head.isdigit() if question.kind == "first" else head.lower() in YES
    if question.kind not in ("yes_no", "first") or not question.nameable or not said or \
            not rest.strip():
        return text
    return {"answer": head, TARGET: rest.strip()}


def parsed(question: Question, raw: Any) -> tuple[Any, dict[str, str]]:
    """An answer as its question reads it, and the targets its yeses name, by judgment;
    AnswerError for a name given with anything but a yes whose rule picks something."""
    raw, target = split(question, raw)
    value = question.parse(raw)
    if target is None:
        return value, {}
    if not isinstance(target, dict):  # one name: for the judgment the answer says yes to
        picked = value if question.fields and isinstance(value, str) else \
            question.id if value is True else ""
        target = {picked: target}
    names = {str(judgment): str(name).strip() for judgment, name in target.items()
             if str(name).strip()}
    for judgment in names:
        said = value.get(judgment) if isinstance(value, dict) else \
            value == judgment if question.fields else value is True
        if judgment not in question.nameable or said is not True:
            raise AnswerError("only a yes that picks something names a target: answer "
                              "without the name", path=question.id)
    return value, names


def logged(targets: dict[str, str] | None, question: Question) -> dict[str, Any]:
    """What the log keeps of the targets a question's yeses named, beside its answer
    (nothing, without one)."""
    if not targets:
        return {}
    return {TARGET: targets, **({BEFORE: question.layer} if question.layer else {})}


def to_name(pack: Pack, kinds: list[str], trace: Trace,
            asked: list[dict[str, Any]]) -> list[Question]:
    """The targets left to name once the turn is decided: those no answer named."""
    named = names_in(asked, trace)
    return named_together([q for q in naming(pack, kinds, trace) if q.id not in named])


def naming(pack: Pack, kinds: list[str], trace: Trace) -> list[Question]:
    """For each action decided on a "yes" whose rule targets one of the moves (`kinds`)
    and took none (no move listed): which one, as the table names it."""
    found = []
    for number, action in enumerate(trace.decision.actions, start=1):
        kind = target_kind(pack, action.rule)
        if action.target is not None or kind not in kinds:
            continue
        what = action_what(action)
        prefer = "; ".join(plain(str(p)) for p in action.prefer)
        spec = pack.facts.entities[kind]
        found.append(Question(
            id=f"{NAMED}.{number}", what="name", kind="text", default="",
            text=f"Action {number} ({what}): which one? Name it as you see it on the table "
                 "(Enter: leave it unnamed)",
            help=(f"The seed prefers: {prefer}. " if prefer else "") +
                 plain(spec.fields[spec.naming_field].says if spec.naming_field else "")))
    return found


def named_together(questions: list[Question]) -> list[Question]:
    """Several actions' naming questions asked as one: a name for each target, any left
    empty (a single one is asked as it is)."""
    if len(questions) < 2:
        return questions
    fields = [replace(q, text=q.text.partition(": which one?")[0]) for q in questions]
    return [Question(id=NAMED, what="name", kind="names", fields=fields,
                     text="Name the targets as you see them on the table (leave one empty "
                          "to leave it unnamed)",
                     help="Each action's target, in the table's words: the decision shows "
                          "it; it never changes the decision")]


def names_given(question: Question, raw: Any) -> dict[str, str]:
    """A `named_together` answer: each target's name, by id or in order; one not given
    stays unnamed."""
    ids = [f.id for f in question.fields]
    if isinstance(raw, list):
        raw = dict(zip(ids, raw, strict=False))
    if not isinstance(raw, dict):
        raise AnswerError("give a name for each action (or leave it empty)", path=question.id)
    for name in raw:
        if name not in ids:
            raise AnswerError(f"{name!r} is not asked here", path=question.id,
                              hint=did_you_mean(str(name), set(ids)))
    return {ident: str(raw.get(ident) or "").strip() for ident in ids}


def names_in(asked: list[dict[str, Any]], trace: Trace) -> dict[str, Any]:
    """The targets a logged turn's `asked` list names, by action (`named.N`): asked after the
    decision, or named with a yes (see the module docstring)."""
    found: dict[str, Any] = {}
    acted = [set(step.matched) for step in trace.steps if "action" in step.outcome]
    for item in asked:
        if item["id"] == NAMED and isinstance(item["value"], dict):
            found.update(item["value"])
        elif str(item["id"]).startswith(f"{NAMED}."):
            found[item["id"]] = item["value"]
        number = item.get(BEFORE, 0) + 1  # the action its yes leads to
        for judgment, name in item.get(TARGET, {}).items():
            if number <= len(acted) and judgment in acted[number - 1]:
                found.setdefault(f"{NAMED}.{number}", name)
    return found


def raw_of(entry: dict[str, Any]) -> Any:
    """A logged answer as it was given (with the target its yes named), to give it again."""
    return {"answer": entry["value"], TARGET: entry[TARGET]} if entry.get(TARGET) \
        else entry["value"]


def logged_targets(entry: dict[str, Any]) -> dict[str, str]:
    """The targets a logged turn's yeses named, by judgment."""
    return {judgment: name for asked in entry.get("asked", [])
            for judgment, name in (asked.get(TARGET) or {}).items()}


def given_again(question: Question, own: Any, pick: str, entry: dict[str, Any],
                targets: dict[str, str]) -> Any:
    """A run's answer given again (`fix`; `entry`: the logged turn): a correction as given;
    its logged answer if that still answers the run, else `pick` (what the log said of each
    of its judgments picks) with the target the log named for that judgment; the targets
    given are taken from `targets`."""
    if own is not None and own not in [raw_of(asked) for asked in entry.get("asked", [])
                                       if asked["id"] == question.id]:
        return own  # a correction (one that does not fit is said so when given)
    if own is not None:
        with contextlib.suppress(AnswerError):
            for judgment in parsed(question, own)[1]:
                targets.pop(judgment, None)
            return own
    return {"answer": pick, TARGET: {pick: targets.pop(pick)}} if pick in targets else pick


def with_names(pack: Pack, trace: Trace, names: dict[str, Any]) -> Trace:
    """The decision with the targets the player named (`named.N`: the name) on its actions,
    as an entry of the moves would name them."""
    for ident, name in names.items():
        number = int(ident.rpartition(".")[2])
        actions = trace.decision.actions
        if not name or not 1 <= number <= len(actions):
            continue
        kind = target_kind(pack, actions[number - 1].rule)
        spec = pack.facts.entities.get(kind or "")
        if spec is not None and spec.naming_field:
            actions[number - 1].target = {spec.naming_field: name}
    return trace


def action_what(action: Action) -> str:
    """"tax — take captives": an action and its goal, in plain words."""
    return plain(" — ".join(text for text in (action.action, action.fields.get("goal")) if text))


def target_kind(pack: Pack, rule_id: str) -> str | None:
    """The kind of entity a rule's action targets, if it targets one."""
    rule = pack.rule(rule_id) if rule_id else None
    kinds = [c.kind for c in rule.then.choices if c.role == "target"] if rule else []
    return kinds[0] if kinds else None


__all__ = [
    "BEFORE",
    "NAMED",
    "TARGET",
    "action_what",
    "given_again",
    "logged",
    "logged_targets",
    "nameable",
    "named_together",
    "names_given",
    "names_in",
    "naming",
    "parsed",
    "raw_of",
    "split",
    "target_kind",
    "to_name",
    "typed",
    "with_nameable",
    "with_names",
]
