"""Addresses that flooded a socket (its message budget ran out: app/http/sockets.py) open no new
socket for WS_FLOOD_PENALTY_SECONDS: without that, a flooder closed 4429 reconnected at once and
had a fresh budget each time (40 sockets reconnected 30 times a second, and the honest players'
p99 stayed four times its quiet figure). Their handshakes are refused after a delay, like an
overloaded spectator's but longer, so that a client retrying at once is slowed to a try every
five seconds at no CPU cost; under `python -m app` a flooder that is not a trusted proxy is
refused by the HTTP protocol before any websocket exists for it (app/protocols.py). Kept per
process."""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from ..addresses import client_key
from .ratelimit import refuse_socket

MAX_KEPT = 10_000  # addresses remembered at once; the oldest penalties go first beyond it
HELD_MAX = 1000  # refusals waiting for their delay at once; beyond it they are answered at once
# on average: each between half and one and a half of it. Each refusal still costs the server
# about 0.8 ms (accepting, parsing the handshake, answering), so a flooder retrying at once is
# held longer than an overloaded spectator: 40 of them cost 3% of a core at 1 s, 0.6% at 5 s.
REFUSAL_DELAY_S = 5.0
MESSAGE = "This address flooded a socket; wait before opening another."


class Penalties:
    """The addresses whose socket was closed for flooding, and until when."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self.delay_s = REFUSAL_DELAY_S
        self.until: dict[str, float] = {}
        self.held = 0

    def add(self, address: str) -> None:
        """`address` flooded a socket just now."""
        if not self.seconds:
            return
        now = self.clock()
        self.until.pop(address, None)  # re-inserted last: the dict's order is the penalties'
        self.until[address] = now + self.seconds
        if len(self.until) > MAX_KEPT:
            for stale in [a for a, t in self.until.items() if t <= now] or [next(iter(self.until))]:
                del self.until[stale]

    def left(self, address: str) -> float:
        """Seconds until `address` may open a socket again (0: it may now)."""
        until = self.until.get(address)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self.until[address]
            return 0.0
        return left

    def refusal(self, left: float) -> tuple[int, bytes]:
        """Retry-After (whole seconds) and the JSON body of a refused handshake."""
        wait = max(1, math.ceil(left))
        body = {"code": "rate_limited", "message": MESSAGE, "retry_after": wait}
        return wait, json.dumps(body).encode()

    def delay(self) -> float:
        return self.delay_s * random.uniform(0.5, 1.5)


class RefuseFlooders:
    """Refuses a websocket handshake from a penalised address (after the proxy headers are
    applied: the client behind a proxy, not the proxy), late, with 429 rate_limited."""

    def __init__(self, app: ASGIApp, penalties: Penalties) -> None:
        self.app, self.penalties = app, penalties

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and (left := self.penalties.left(client_key(scope))):
            await self._refuse(scope, receive, send, left)
            return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, left: float) -> None:
        penalties = self.penalties
        if penalties.held < HELD_MAX:
            penalties.held += 1
            try:
                await asyncio.sleep(penalties.delay())
            finally:
                penalties.held -= 1
        wait, body = penalties.refusal(left)
        if "websocket.http.response" not in scope.get("extensions", {}):
            await refuse_socket(receive, send, wait, "rate_limited", MESSAGE)
            return
        headers = [(b"content-type", b"application/json"), (b"retry-after", str(wait).encode())]
        await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
