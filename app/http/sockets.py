"""What every websocket shares, whatever it serves (a seat, a spectator, the lobby, and any stream
added later): the client's messages are read through `metered`, which keeps each socket within a
message budget, a token bucket of WS_MESSAGE_BURST messages refilled at WS_MESSAGES_PER_SECOND.
A socket over it gets the error frame `rate_limited` and is closed 4429: before the budget, one
socket sending pings or illegal actions as fast as it could held the event loop, the worker
threads and the database (issue 40: the honest players' p99 went from 7 ms to a second, a new
match took 14 s). Honest play never comes near it: a person clicks a few times a second at most,
the chat allows 5 lines in 10 s, and a browser pings seldom.

A message costs one token per started 4 KiB (COST_BYTES), so the budget also bounds the parsing
a socket may ask for; anything larger than MAX_WS_FRAME_BYTES never reaches the app (uvicorn
refuses it while reading the frame's header, closing 1009). A message refused as no honest
client's ever is (an illegal action, junk) costs REFUSED_COST tokens more: refusing an action
costs a match transaction (about a millisecond, ten pings), and with one token each, 20 sockets
flooding illegal actions had 800 of them made in the first second of their flood (bench.load)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..addresses import client_key
from ..budget import Budget
from ..services.context import AppContext
from .flooders import Penalties

CLOSE_LIMITED = 4429  # as every refusal of a socket over a limit or a cap
COST_BYTES = 4096  # a message costs one token per started COST_BYTES of its text
# An answer no honest client ever gets (a browser sends only actions from legal_actions, with
# the version it saw: its races are stale_version) costs this many tokens more
REFUSED_COST = 4
NEVER_HONEST = frozenset(
    ("illegal_action", "malformed_action", "not_your_decision", "invalid_json", "unknown_message")
)
TOO_FAST = "Too many messages on this socket; slow down and reconnect."
# The close reason of a socket closed for flooding: under `python -m app` the websocket protocol
# then reads nothing more from it and drops the connection a second later (app/protocols.py).
DROP_REASON = "too many messages"


def message_cost(text: str) -> int:
    """The tokens a message costs: one, and one more per whole COST_BYTES of it."""
    return 1 + len(text) // COST_BYTES


def message_budget(ctx: AppContext) -> Budget | None:
    """A new socket's budget (None when WS_MESSAGES_PER_SECOND is 0), on the app's clock."""
    settings = ctx.settings
    if not settings.ws_messages_per_second:
        return None
    return Budget(settings.ws_messages_per_second, settings.ws_message_burst, ctx.core.clock.now)


async def messages(ws: WebSocket) -> AsyncIterator[str]:
    """Each message the client sends, as text, until it leaves."""
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            yield text
    except WebSocketDisconnect:
        return


class Meter:
    """One socket's messages, read within its budget."""

    def __init__(self, ctx: AppContext, ws: WebSocket) -> None:
        self.ctx, self.ws = ctx, ws
        self.budget = message_budget(ctx)

    async def messages(self) -> AsyncIterator[str]:
        """Each message the client sends, until it leaves or goes over its budget: then it is
        told `rate_limited` (with `retry_after`, the seconds until a message would be allowed
        again) and closed 4429, nothing more it sends is read, and its address opens no new
        socket for WS_FLOOD_PENALTY_SECONDS (app/http/flooders.py)."""
        budget = self.budget
        async for text in messages(self.ws):
            if budget is not None and not budget.take(message_cost(text)):
                await self._flooded(budget)
                return
            yield text

    def refused(self, code: str | None) -> None:
        """The last message was answered with the error `code` (None: none). One that no
        honest client sends (an action no rule allows, junk) costs REFUSED_COST tokens more:
        refusing an action costs the server a match transaction, ten times a ping."""
        if self.budget is not None and code in NEVER_HONEST:
            self.budget.tokens -= REFUSED_COST

    async def _flooded(self, budget: Budget) -> None:
        ctx, ws = self.ctx, self.ws
        ctx.metrics.limited("messages")
        ctx.metrics.refused(CLOSE_LIMITED, "too_many_messages")
        penalties: Penalties | None = getattr(ws.app.state, "penalties", None)
        if penalties is not None:  # its address opens no new socket for a while
            penalties.add(client_key(ws.scope))
        frame = {"type": "error", "code": "rate_limited", "message": TOO_FAST}
        with contextlib.suppress(Exception):  # the client may be gone already
            await ws.send_text(json.dumps({**frame, "retry_after": budget.wait()}))
            await ws.close(code=CLOSE_LIMITED, reason=DROP_REASON)
