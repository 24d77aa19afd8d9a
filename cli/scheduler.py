"""Reaching a Dask scheduler for `batch --cluster`: its address, how long to wait, a first hello.

Dask bounds only the connect: a listener that accepts and never answers (a port forwarded to
nothing, another service) holds its handshake, and a Client with it, for ever. `hello` says
"identity" first and waits `WHYBOT_CLUSTER_TIMEOUT` for each step, so such an address is one
line, exit 2, before any file is written.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from whybot.engine import WhybotError, excerpt

TIMEOUT = "WHYBOT_CLUSTER_TIMEOUT"  # seconds to wait for the scheduler, and for a worker
LONGER = f"{TIMEOUT}=SECONDS waits longer"


def timeout() -> float:
    """Seconds to wait for each answer of the scheduler (`WHYBOT_CLUSTER_TIMEOUT`, default 5)."""
    raw = os.environ.get(TIMEOUT, "5")
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0
    if not seconds > 0:
        raise WhybotError(f"{TIMEOUT} takes a number of seconds, not {excerpt(raw, 40)!r}")
    return seconds


def check_address(distributed: Any, address: str) -> None:
    """Refuse what is not a scheduler address before a Client tries it (a Client given one
    fails, then hangs for seconds when it is collected)."""
    try:
        distributed.comm.get_address_host_port(address)
    except ValueError as exc:
        raise WhybotError(f"--cluster: {excerpt(address, 80)!r} is not a scheduler address "
                          f"({excerpt(str(exc), 120)})",
                          hint="give tcp://HOST:PORT, as `dask scheduler` prints it, or "
                               "local") from None


def unreachable(address: str, why: str) -> WhybotError:
    return WhybotError(f"cannot reach the Dask scheduler at {address} {why}",
                       hint=f"is `dask scheduler` running there, and this its address? {LONGER}")


def hello(distributed: Any, address: str, seconds: float) -> None:
    """Connect, finish Dask's handshake and have the scheduler's first answer, each within
    `seconds`, or refuse the address in one line."""
    security = distributed.Security().get_connection_args("client")  # as a Client's (tls://)

    async def identity() -> None:
        try:
            comm = await asyncio.wait_for(  # its own retries end at `seconds`
                distributed.comm.connect(address, timeout=seconds, **security), 2 * seconds)
        except asyncio.TimeoutError:
            raise _Silent(2 * seconds) from None
        try:
            await comm.write({"op": "identity", "reply": True})
            await asyncio.wait_for(comm.read(), seconds)
        except asyncio.TimeoutError:
            raise _Silent(seconds) from None
        finally:
            comm.abort()

    try:
        asyncio.run(identity())
    except _Silent as silent:
        raise WhybotError(f"the Dask scheduler at {address} did not answer within "
                          f"{silent.seconds:g} s (something there accepts connections and "
                          "says nothing)",
                          hint=f"is this the address `dask scheduler` printed? {LONGER}"
                          ) from None
    except OSError:  # refused, unreachable, or not within `seconds`
        raise unreachable(address, f"within {seconds:g} s") from None
    except Exception as exc:  # it answered, but not as Dask does
        raise unreachable(address, f"({excerpt(str(exc) or type(exc).__name__, 160)})"
                          ) from None


class _Silent(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


__all__ = ["LONGER", "TIMEOUT", "check_address", "hello", "timeout", "unreachable"]
