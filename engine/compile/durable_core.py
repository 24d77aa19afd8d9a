"""The guarded calls into durable_rules' C core: rulesets, states, facts, events, firings.

whybot talks to `durable_rules_engine` (the C extension under `durable.engine`) directly rather
than through `durable.engine.Host`: no timer threads (hazard K), no Python closures or JSON
round trip of the state per fired rule (the Host's main cost), no swallowed exceptions
(hazard D) since no whybot code runs inside the engine — the engine only matches; whybot reads
each firing and completes it. Guards kept here:

- every string is sent as ASCII-escaped JSON, rule texts and facts alike, so durable_rules
  compares the same spelling on both sides whatever the language (non-ASCII names);
- a call that fails poisons its state: the state is never touched again (deleting a state
  after a failed assert corrupts the heap), and its ruleset is re-registered under a new name
  for the states that follow;
- states get fresh ids, at most a few alive at once (hazard G). A closed state is emptied and
  kept for its ruleset's next decision only if this durable_rules forgets a fired
  activation's frame (`keeps_states`); as released, 2.0.28 does not, and retracting the facts
  of fired activations then scans past a frame's slots and can drop a pending activation
  (docs/durable_rules.md), so its states are deleted after use;
- once a rule fired in a state, its facts are retracted only while no activation is pending
  (the dropped activation above);
- a state in which no action ever ran crashes when deleted (hazard B): every ruleset gets a
  lowest-priority `close` rule on a `{t: close}` fact, asserted and fired before deleting such
  a state.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from json import encoder, scanner
from typing import Any

import durable_rules_engine as core

from ..errors import EngineFault

Firing = tuple[str, dict[str, Any]]


def _refuse(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


# The C encoder and scanner json.dumps/loads build on, made once: their per-call set-up cost
# more than encoding a fact. ASCII-escaped, compact, NaN refused; messages are whole objects.
_QUOTE = encoder.encode_basestring_ascii  # a string as `_dump` writes it
_ENCODER = encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, _refuse, _QUOTE, None, ":", ",", False, False, False)
# typeshed types the scanner's context as a make_scanner; the C scanner reads a decoder's hooks
_SCAN = scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _dump(value: Any) -> str:
    return "".join(_ENCODER(value, 0))


def _load(text: str) -> Any:
    return _SCAN(text, 0)[0]

_SIDS = itertools.count(1)
_LIVE: set[str] = set()
_NAMES = itertools.count(1)
NOT_HANDLED = 1  # a fact no pattern reads: harmless, it is simply not stored
CLOSE = "-close-"  # the rule that lets a state be deleted safely (hazard B)


def live_states() -> int:
    """States created and not yet closed (a batch must end each snapshot with none)."""
    return len(_LIVE)


_KEEPS: list[bool] = []  # asked once per process


def keeps_states() -> bool:
    """Whether closed states are emptied and kept rather than deleted: only if durable_rules
    forgets the frame of a fired activation once it completes. As released, 2.0.28 leaves
    every fact of the firing pointing at the freed frame: retracting such a fact later scans
    that frame past its 16 slots (heap corruption) or, once a new activation took the frame's
    place, deletes that pending activation. Asked of a one-rule ruleset: the second firing
    is lost exactly when the frame is remembered."""
    if not _KEEPS:
        probe = Ruleset("whybot.frames", {"r": {"all": [{"a": {"t": "x"}}, {"b": {"t": "y"}}]}})
        state = State(probe)
        state.assert_facts([{"t": "x"}, {"t": "y", "id": "y1"}])
        state.drain()
        state.assert_facts([{"t": "y", "id": "y2"}])  # takes the fired activation's frame
        code, state.offset = state._call("retract facts", core.retract_facts,
                                         _dump([{"sid": state.sid, "id": "y1"}]))
        _KEEPS.append(code == 0 and len(state.drain()) == 1)
        state.delete()
    return _KEEPS[0]


class Ruleset:
    """One registered durable_rules ruleset, rebuilt under a new name if a state poisons it."""
    definition = property(lambda self: _load(self.text))  # the rules, read from their text

    def __init__(self, name: str, definition: dict[str, Any], register: bool = True) -> None:
        """`register=False`: registered when a state of it is first needed (never, for a
        ruleset built only to prove that rules fit, as `rules lint` does)."""
        self.base = name
        self.text = _dump({**definition, CLOSE: {"all": [{"c": {"t": "close"}}], "pri": 65535}})
        self.handle = 0
        self.idle: list[State] = []  # emptied states of this registration (`keeps_states`)
        if register:
            self.register()

    def register(self) -> None:
        retired, self.idle = self.idle, []
        for state in retired:
            state.delete()
        name = f"{self.base}~{next(_NAMES)}"
        try:
            self.handle = core.create_ruleset(name, self.text)
        except core.error as exc:
            raise EngineFault(f"durable_rules refused ruleset {self.base}: {exc}") from None

    def state(self) -> State:
        """An empty state: one a past decision emptied, else a new one."""
        if not self.handle:
            self.register()
        keeps_states()
        try:
            state = self.idle.pop()
        except IndexError:
            return State(self)
        _LIVE.add(state.sid)
        return state

    def __getstate__(self) -> dict[str, Any]:
        """A ruleset travels as its definition's text (a cache, a worker) and registers anew."""
        return {"base": self.base, "text": self.text}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Registered when a decision first needs a state of it: most decisions read a few
        families of pages, and registering costs the C core a network for every rule."""
        self.base = state["base"]
        self.text = state["text"]
        self.handle = 0
        self.idle = []


class State:
    """One state (sid) of a ruleset: assert and retract facts, post events, read firings."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.handle = ruleset.handle
        self.sid = str(next(_SIDS))
        _LIVE.add(self.sid)
        self.offset: int | None = None
        self.poisoned = False
        self.acted = False
        self.pending = False  # asserted since its activations were last all fired
        self.kept = bool(_KEEPS) and _KEEPS[0]  # emptied when closed, not deleted
        self.alive: dict[str, None] = {}  # if kept: the ids of its facts, in order
        self.unread: dict[str, str] = {}  # id → text of the facts asserted as `unread`
        self.ids = itertools.count(1)

    def _call(self, what: str, function: Any, *args: Any) -> Any:
        if self.poisoned:
            raise EngineFault(f"state {self.sid} of {self.ruleset.base} failed earlier")
        try:
            return function(self.handle, *args)
        except core.error as exc:
            self.poisoned = True
            self.ruleset.register()  # the next snapshots get a clean copy
            raise EngineFault(f"durable_rules failed to {what} in {self.ruleset.base}: "
                              f"{exc}") from None

    def stamp(self, facts: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Give each fact this state's sid, a unique id and the join guard `k` (hazard A, F)."""
        for fact in (stamped := list(facts)):  # a list at once: a decision stamps thousands
            fact["sid"] = self.sid
            fact.setdefault("id", f"f{next(self.ids)}")
            fact["k"] = 1
        return stamped

    def assert_facts(self, facts: Iterable[dict[str, Any]],
                     unread: Iterable[dict[str, Any]] = ()) -> None:
        """Assert `facts`, then `unread`: facts no reader of a firing looks at (phase facts,
        half the bytes firings bring back). The C core returns a fact as the text it was
        sent, so `firings` cuts that text out before parsing (the alias reads 0)."""
        batch = self.stamp(facts)
        texts = {f["id"]: _dump(f) for f in self.stamp(unread)} if unread else {}
        if batch or texts:
            self.pending = True
            sent = _dump(batch)
            if texts:
                sent = f"{sent[:-1]}{',' if batch else ''}{','.join(texts.values())}]"
            code, self.offset = self._call("assert facts", core.assert_facts, sent)
            self._check(code, "assert facts")
            self.unread.update(texts)
            if self.kept:
                self.alive.update(dict.fromkeys([*(f["id"] for f in batch), *texts]))

    def retract_facts(self, ids: list[str]) -> None:
        """Retract facts of this state by id: the C core finds a fact by sid and id alone
        (events.c, ACTION_RETRACT_FACT), written out as `_dump` would, no dict per fact."""
        if ids:
            if self.pending and self.acted:  # a fired frame may be a pending one's now
                raise EngineFault(f"facts retracted from a state of {self.ruleset.base} "
                                  "while an activation was pending")
            head = f'{{"sid":{_QUOTE(self.sid)},"id":'
            sent = f"[{','.join([f'{head}{_QUOTE(id_)}}}' for id_ in ids])}]"
            code, self.offset = self._call("retract facts", core.retract_facts, sent)
            self._check(code, "retract facts")
            for id_ in ids:
                self.alive.pop(id_, None)
                self.unread.pop(id_, None)

    def post(self, event: dict[str, Any]) -> Firing | None:
        """Post an event and take the one firing it leads to (the event is consumed by it)."""
        self.pending = True
        code, self.offset = self._call("post an event", core.assert_event,
                                       _dump(self.stamp([event])[0]))
        self._check(code, "post an event")
        fired = self.drain()
        if len(fired) != 1:
            self.kept = False  # an event no rule took stays in the state
        if len(fired) > 1:
            raise EngineFault(f"{len(fired)} rules consumed one event in {self.ruleset.base}")
        return fired[0] if fired else None

    def drain(self) -> list[Firing]:
        """Run every pending activation, highest priority first; return them as firings."""
        return list(self.firings())

    def firings(self) -> Iterator[Firing]:
        """`drain`, one firing at a time: a join's thousands of matches are read and
        dropped one by one, never all held at once (each carries its facts whole)."""
        if self.offset is None:
            return
        started = self._call("start an action", core.start_action_for_state, self.offset)
        if not started:
            self.pending = False
            return
        messages: str | None = started[1]
        self.acted = True
        while messages:
            for text in self.unread.values():
                messages = messages.replace(text, "0")
            (name, matched), = _load(messages).items()
            if name != CLOSE:
                yield name, matched
            messages = self._call("complete an action", core.complete_and_start_action,
                                  self.offset)
        self.pending = False

    def _check(self, code: int, what: str) -> None:
        if code not in (0, NOT_HANDLED):
            self.poisoned = True
            raise EngineFault(f"durable_rules could not {what} in {self.ruleset.base} "
                              f"(code {code})")

    def close(self) -> None:
        """Done with: emptied and kept for the ruleset's next decision if this durable_rules
        allows it (`keeps_states`) and nothing is left pending, else deleted."""
        if (self.kept and not self.pending and not self.poisoned
                and self.handle == self.ruleset.handle):
            self.retract_facts(list(self.alive))
            if not self.drain():  # whybot's rules negate nothing: a retraction fires none
                _LIVE.discard(self.sid)
                self.ruleset.idle.append(self)
                return
        self.delete()

    def delete(self) -> None:
        """Delete the state, unless a failed call poisoned it (then it is left alone)."""
        _LIVE.discard(self.sid)
        if not self.poisoned and self.offset is not None:
            if not self.acted:
                self.assert_facts([{"t": "close"}])
                self.drain()
            try:
                core.delete_state(self.handle, self.sid)
            except core.error as exc:
                raise EngineFault(f"durable_rules failed to delete a state: {exc}") from None

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def core_wrapped(wrap: Callable[[Any], Any]) -> Iterator[Any]:
    """Every call into the C core made through `wrap(core)` while the block runs (a
    benchmark's timer), and through the core itself again after."""
    global core
    real = core
    core = wrap(real)
    try:
        yield core
    finally:
        core = real
