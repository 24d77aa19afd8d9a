"""The reasons a player reads first (`whybot why`, `why --brief`, the page's Why): one line per
question the walk settled, the seed's own question (the rule's `says:`) and the table fact that
settled it, in words: "Can the bot raid to gain a card? [1]: the north road", "Seize the lead
if the roll is less than the counter: no — roll 5, counter 2".

A line comes from a step of the path that asks a question, rolls, chooses, or reads a judgment
that holds; and from a rule above a step that a roll of this turn ruled out. The walk's own
bookkeeping (what it drew, what it selected, the actions left) is never a reason: it is what
earlier steps set. No rule id, field name or citation is written here; those are in the trace.
"""

from __future__ import annotations

import re
from typing import Any

from whybot.engine import Pack, all_refs
from whybot.facts.play.wording import plain

from .odds import label
from .render import entity_text, show

# the values a why-not line saw: `… is false (seize_result = 5, seize_counter = 2)`
_SEEN = re.compile(r"\(([^()]*=[^()]*)\)\s*$")


def words(name: str) -> str:
    """A fact's name as words: `declared.tycoon` → `declared tycoon`."""
    return plain(name.replace(".", " "))


def value_words(value: Any) -> str:
    """A value as a player says it: yes/no for true/false, words for a name."""
    if isinstance(value, bool) or value in ("true", "false"):  # a why-not writes them so
        return "yes" if value in (True, "true") else "no"
    return plain(show(value).strip("'"))


def entity_name(pack: Pack, rule_id: str, entity: dict[str, Any], role: str = "target") -> str:
    """An entity a rule chose, as the table names it: its kind's naming fields (the kind the
    rule's `select`/`target` chooses from), else as `whybot odds` labels it."""
    rule = pack.rule(rule_id)
    kinds = [c.kind for c in rule.then.choices if c.role == role] if rule else []
    spec = pack.facts.entities.get(kinds[0]) if kinds else None
    return (spec.name_of(entity) if spec else None) or label(entity, pack)


def _question(says: str) -> str:
    """The rule's words as one line, without the colon that leads into its outcome."""
    return " ".join(says.split()).rstrip(":.").strip()


class _Reasons:
    """The lines, built along the path: what earlier steps set is known at each step."""

    def __init__(self, pack: Pack, data: dict[str, Any], board: dict[str, Any]) -> None:
        self.pack = pack
        self.board = board
        self.judgments: dict[str, Any] = data.get("judgments", {})
        self.lead = tuple(data.get("presentation", {}).get("lead", ()))
        self.aliases = set(data.get("decision", {}).get("choices", {}))
        self.set_on_path: set[str] = set()
        self.rolled: set[str] = set()  # facts a roll of this turn set
        self.selected: set[str] = set()  # the entities selected so far (a card, once)
        self.lines: list[str] = []

    def name_of(self, fact: dict[str, Any]) -> str:
        """An entity a judgment read (`{kind, its naming fields}`), named."""
        spec = self.pack.facts.entities.get(str(fact.get("kind", "")))
        return plain((spec.name_of(fact) if spec else None) or label(
            {k: v for k, v in fact.items() if k != "kind"}, self.pack))

    def judgment(self, name: str, value: Any, says: str) -> str:
        """A judgment the step read, as the entities that established it, else its question
        and answer (only the answer when the step asks the same question)."""
        support = self.judgments.get(name, {}).get("by", [])[:1]
        named = [self.name_of(f) for s in support for f in s.get("facts", []) if "kind" in f]
        if value and named:
            return ", ".join(named)
        read = [f for s in support for f in s.get("facts", []) if "judgment" in f]
        if value and read:  # established from other judgments: theirs are the questions
            return "; ".join(self.judgment(f["judgment"], f.get("value"), says) for f in read)
        spec = self.pack.facts.spec(name)
        question = _question(self.judgments.get(name, {}).get("question", "")
                             or (spec.says if spec else "")) or words(name)
        if question.split("?")[0].lower() in says.lower():
            return value_words(value)
        return f"{question} {value_words(value)}" if question.endswith("?") \
            else f"{question}: {value_words(value)}"

    def facts(self, step: dict[str, Any], says: str) -> list[str]:
        """The judgments that hold; the table's values too when the rule asks a question."""
        parts = []
        for name, value in step.get("matched", {}).items():
            if name == "entities" or name in self.set_on_path \
                    or name.partition(".")[0] in self.aliases:
                continue
            if name in self.pack.facts.judgments:
                if value:
                    parts.append(self.judgment(name, value, says))
            elif "?" in says or name in self.rolled:
                parts.append(f"{words(name)} {value_words(value)}")
        return parts

    def chosen(self, step: dict[str, Any], named: dict[str, str]) -> list[str]:
        outcome = step.get("outcome", {})
        parts = []
        for role in ("select", "target"):
            chosen = outcome.get(role, {}).get("chosen")
            if not isinstance(chosen, dict) or (role == "select" and repr(chosen) in
                                                 self.selected):
                continue  # a page that repeats selects its card again: said once
            if role == "select":
                self.selected.add(repr(chosen))
            if any(item.partition(" ")[0] in chosen for item in self.lead):
                parts.append(plain(entity_text(chosen, full=False, lead=self.lead)))
            else:
                parts.append(plain(named.get(repr(chosen))
                                   or entity_name(self.pack, step["rule"], chosen, role)))
        return parts

    def asked_alike(self, says: str) -> list[str]:
        """A question the step settles with no fact of its own ("Can bot surpass with any
        card? No"): the table values read by the derivations that ask the same question, and
        what they look for ("lead suit aggression, lead number 4 (a card of the led suit with a
        higher number)")."""
        question = says.split("?")[0].strip().lower()
        names: dict[str, None] = {}
        looks_for: dict[str, None] = {}
        for rule in self.pack.derivations():
            asked, mark, rest = rule.says.partition("?")
            if mark and asked.strip().lower() == question:
                names.update(dict.fromkeys(r.name for r in all_refs(rule.when)
                                           if r.scope is None))
                looks_for.update(dict.fromkeys([_question(rest).strip("() ")] if rest else []))
        values = ", ".join(f"{words(n)} {value_words(self.board[n])}" for n in names
                           if n in self.pack.facts.board and n in self.board
                           and n not in self.set_on_path)
        if not values:
            return []
        return [values + (f" ({'; or '.join(w for w in looks_for if w)})"
                          if any(looks_for) else "")]

    def rolls(self, outcome: dict[str, Any]) -> list[str]:
        parts = []
        for roll in outcome.get("rolls", []):
            faces = ", ".join(str(f) for f in roll.get("faces", []))
            parts.append(f"drew {roll['drawn']}" if roll.get("drawn")
                         else f"rolled {faces} ({roll.get('dice')})")
        for name, change in outcome.get("set", {}).items():
            parts.append(f"{words(name)} {value_words(change.get('to'))}")
            self.rolled.add(name)
            self.set_on_path.discard(name)  # set before the roll, the table's now
        return parts

    def ruled_out(self, step: dict[str, Any]) -> None:
        """A rule above the step that every failing part of it a roll of this turn decided."""
        fired = _question(step.get("says", ""))
        answered = self.rolled & set(step.get("matched", {}))
        for skipped in step.get("skipped", []):
            why = skipped.get("why", [])
            if _question(skipped.get("says", "")) == fired or answered:
                continue  # the step's own rule reads the roll: its line says it
            if not why or not all(any(re.search(rf"\b{re.escape(n)}\b", w)
                                      for n in self.rolled) for w in why):
                continue
            seen = [s for w in why for m in [_SEEN.search(w)] if m
                    for s in m.group(1).split(", ")]
            values = ", ".join(dict.fromkeys(
                f"{words(n.strip())} {value_words(v.strip())}"
                for n, _, v in (s.partition(" = ") for s in seen)))
            self.lines.append(f"{_question(skipped.get('says', ''))} — no"
                              + (f": {values}" if values else ""))

    def step(self, step: dict[str, Any], named: dict[str, str]) -> None:
        self.ruled_out(step)
        outcome = step.get("outcome", {})
        says = _question(step.get("says", ""))
        if step.get("rule") and says:
            if outcome.get("rolls"):
                parts = self.rolls(outcome)
            else:
                parts = [*self.chosen(step, named), *self.facts(step, says)]
                if "select" in outcome or "target" in outcome:
                    parts = parts[:1] + [p for p in parts[1:] if "?" in p]
                elif not parts and "?" in says:
                    parts = self.asked_alike(says)
            if parts or "?" in says:
                self.lines.append(f"{says} — {'; '.join(parts)}" if parts else says)
        for changes in (outcome.get("set", {}), outcome.get("after_action", {}).get("set", {})):
            self.set_on_path |= {name for name, change in changes.items()
                                 if name not in self.rolled and not re.search(
                                     rf"\b{re.escape(name)}\b", str(change.get("by", "")))}


def reasons(pack: Pack, data: dict[str, Any], board: dict[str, Any]) -> list[str]:
    """The reason lines of a decision's data (`Trace.as_dict()` with the targets `named`), in
    the order the walk settled them, the table's values read from `board` (the one the
    judgments were last derived from); the start page (which decision point this is) gives
    none."""
    named = {repr(a["target"]): a["named"] for a in data.get("decision", {}).get("actions", [])
             if a.get("named")}
    built = _Reasons(pack, data, board)
    for step in data.get("path", []):
        if step.get("page") == pack.start:
            continue
        built.step(step, named)
    return list(dict.fromkeys(built.lines))


__all__ = ["entity_name", "reasons", "value_words", "words"]
