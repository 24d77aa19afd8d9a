"""The one durable_rules Host of the process, and the guarded calls into it.

Guards (see DURABLE_RULES.md): no timer threads (K: actions only run on the caller's thread);
every action wrapped so an exception is recorded and re-raised after the call (D); every state
deleted after use (G), and only after one action ran in it (B); ruleset names made unique per
compiled pack, since a name can be registered once per Host.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

from durable.engine import Host, MessageNotHandledException, MessageObservedException

from .errors import EngineFault

Firing = tuple[str, dict[str, Any]]


class _QuietHost(Host):
    """A Host without the background dispatch threads: all actions run inside our calls."""

    def _run(self) -> None:  # the base class starts timer threads here
        return None


class Session:
    """One state (sid) in one ruleset: assert facts, post events, read what fired, delete."""

    def __init__(self, engine: RuleHost, ruleset: str) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.sid = engine.new_sid()
        self.fired: list[Firing] = []
        engine.sessions[self.sid] = self

    def _call(self, method: Callable[..., Any], fact: dict[str, Any]) -> None:
        fact = {**fact, "sid": self.sid, "k": 1}
        try:
            method(self.ruleset, fact)
        except (MessageNotHandledException, MessageObservedException) as exc:
            raise EngineFault(f"durable_rules refused a fact in {self.ruleset}: "
                              f"{type(exc).__name__}") from None
        errors = self.engine.errors.pop(self.sid, None)
        if errors:
            raise EngineFault(f"a rule action failed in {self.ruleset}: {errors[0]!r}") \
                from errors[0]

    def assert_fact(self, fact: dict[str, Any]) -> None:
        self._call(self.engine.host.assert_fact, fact)

    def post(self, event: dict[str, Any]) -> None:
        self._call(self.engine.host.post, event)

    def close(self) -> None:
        """Delete the state; if no action has run in it yet, `end` first makes one (hazard B)."""
        try:
            if not self.fired:
                self.assert_fact({"t": "end"})
        finally:
            self.engine.host.delete_state(self.ruleset, self.sid)
            self.engine.sessions.pop(self.sid, None)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RuleHost:
    """Registers compiled rulesets once and routes every action back to its session."""

    def __init__(self) -> None:
        self.host = _QuietHost()
        self.sessions: dict[str, Session] = {}
        self.errors: dict[str, list[BaseException]] = {}
        self.handlers: dict[str, Callable[[Session, str, dict[str, Any], Any], None]] = {}
        self._sids = itertools.count(1)
        self._names = itertools.count(1)
        self._lock = threading.Lock()

    def new_sid(self) -> str:
        return f"s{next(self._sids)}"

    def unique_name(self, base: str) -> str:
        return f"{base}~{next(self._names)}"

    def register(self, ruleset: str, definition: dict[str, Any],
                 handler: Callable[[Session, str, dict[str, Any], Any], None]) -> None:
        """Register a ruleset; every rule's action calls `handler(session, rule, matched, c)`."""
        prepared = {}
        for rule_name, rule in definition.items():
            prepared[rule_name] = {**rule, "run": self._action(rule_name)}
        self.handlers[ruleset] = handler
        with self._lock:
            self.host.register_rulesets({ruleset: prepared})

    def _action(self, rule_name: str) -> Callable[[Any], None]:
        def run(c: Any) -> None:  # exactly one parameter: durable_rules runs it synchronously
            sid = c.s["sid"]
            session = self.sessions.get(sid)
            try:
                if session is None:
                    raise EngineFault(f"an action ran for unknown state {sid}")
                matched = {alias: dict(fact) for alias, fact in (c._m or {}).items()}
                session.fired.append((rule_name, matched))
                self.handlers[session.ruleset](session, rule_name, matched, c)
            except BaseException as exc:  # durable_rules would swallow it (hazard D)
                self.errors.setdefault(sid, []).append(exc)

        return run


_HOST: RuleHost | None = None


def rule_host() -> RuleHost:
    """The process's Host: one per process, since Hosts are never collected."""
    global _HOST
    if _HOST is None:
        _HOST = RuleHost()
    return _HOST
