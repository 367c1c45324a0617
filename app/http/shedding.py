"""Load shedding for spectator sockets: a process-wide budget of new ones per second, whoever
asks and whatever RATE_LIMITS says, so that a crowd or a churn of watchers (from many addresses
at once, which per-client limits cannot see) never takes the event loop from the players."""

from __future__ import annotations

import asyncio
import json
import random

from starlette.types import ASGIApp, Receive, Scope, Send

from ..budget import Budget
from .ratelimit import refuse_socket

SPECTATOR_PREFIX = "/ws/watch/"
OVERLOADED, MESSAGE = "overloaded", "Too many watchers are arriving; try again shortly."
BURST_SECONDS = 2.0  # the bucket holds this many seconds' worth: a page of watchers at once
# A refusal is answered late (SPECTATOR_REFUSAL_DELAY_MS, 1 s; no CPU is spent meanwhile): a
# client that reconnects the moment it is refused is slowed to one try a second instead of a
# thousand. At most HELD_MAX refusals wait at once (each holds a connection's memory); beyond
# that they are answered at once.
HELD_MAX = 1000
# In a request's "state": the HTTP protocol (app/protocols.py) already charged this spectator
# socket to the budget, so the middleware does not charge it again.
ADMITTED = "watergate.spectator_admitted"


class Shedder:
    """The process's budget of new spectator sockets and its refusals waiting to be answered,
    shared by the middleware below and the HTTP protocol's early refusal (app/protocols.py)."""

    def __init__(self, per_second: float, delay_s: float) -> None:
        self.delay_s = delay_s
        self.budget = Budget(per_second, max(1.0, per_second * BURST_SECONDS))
        self.held = 0

    def delay(self) -> float:
        """How long this refusal waits: the delay, spread over half to one and a half of it.
        A fixed delay kept a crowd refused together: answered in the same instant, its clients
        came back in the same instant, and each wave's handshakes stopped the event loop for a
        tenth of a second or more."""
        return self.delay_s * random.uniform(0.5, 1.5)

    def refusal(self) -> tuple[int, bytes]:
        """Retry-After (whole seconds) and the JSON body a refusal answers with."""
        wait = self.budget.wait()
        body = json.dumps({"code": OVERLOADED, "message": MESSAGE, "retry_after": wait})
        return wait, body.encode()


def is_spectator_socket(path: str) -> bool:
    return path.startswith(SPECTATOR_PREFIX)


class ShedSpectators:
    """Refuses a spectator socket over the budget before routing, authentication or any read.
    Seat sockets are never shed. Behind our HTTP protocol a plain spectator path was charged
    (or refused) before the handshake and is let through here; this charges the rest (a path
    spelled with %-escapes, another server)."""

    def __init__(self, app: ASGIApp, shedder: Shedder) -> None:
        self.app, self.shedder = app, shedder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "websocket"
            and is_spectator_socket(scope["path"])
            and not scope.get("state", {}).get(ADMITTED)
            and not self.shedder.budget.take()
        ):
            await self._refuse(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        """After the delay, the handshake answered `429 overloaded` with Retry-After: the
        cheapest refusal there is (no socket is opened; a browser sees a failed connection and
        backs off). Where the server cannot answer a handshake so, an error frame and 4429."""
        shedder = self.shedder
        if shedder.held < HELD_MAX:
            shedder.held += 1
            try:
                await asyncio.sleep(shedder.delay())
            finally:
                shedder.held -= 1
        wait, body = shedder.refusal()
        if "websocket.http.response" not in scope.get("extensions", {}):
            await refuse_socket(receive, send, wait, OVERLOADED, MESSAGE)
            return
        headers = [(b"content-type", b"application/json"), (b"retry-after", str(wait).encode())]
        await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
