"""A seat's pushes as an HTTP stream (contract v1.2 "Bots": `GET /api/bot/matches/{id}/stream`):
newline-delimited JSON, one message a line, exactly what the seat's websocket is sent (its
views, its chat lines), kept alive by a blank line whenever nothing was sent for KEEPALIVE_S,
and ended after the view that says the match is over.

The stream is served by the hub like any socket: `StreamSocket` stands in for the websocket a
`Connection` writes to, so a stream has the sockets' caps, presence, coalescing (a reader that
falls behind gets the newest view, not every one) and rendering once per change."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.websockets import WebSocketState

KEEPALIVE_S: Final = 5.0  # a blank line at least this often when nothing happens
QUEUED: Final = 64  # lines written but not yet read by the client; the writer waits beyond


class StreamSocket:
    """What a hub `Connection` needs of a websocket, over a queue of lines for a response."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        self.application_state = WebSocketState.CONNECTED
        self._lines: asyncio.Queue[str | None] = asyncio.Queue(QUEUED)

    async def send_text(self, text: str) -> None:
        await self._lines.put(text)

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED
        await self._lines.put(None)

    async def lines(self) -> AsyncIterator[str]:
        """Each message as a line; a blank line after KEEPALIVE_S of quiet; the end once the
        match is over (its last view sent) or the hub closed the socket."""
        while True:
            try:
                text = await asyncio.wait_for(self._lines.get(), KEEPALIVE_S)
            except TimeoutError:
                yield "\n"
                continue
            if text is None:
                return
            yield text + "\n"
            if _ended(text):
                return


def _ended(text: str) -> bool:
    """Whether this message is a view of a match that is over (cheaply: most lines are not)."""
    if '"status":"finished"' not in text:
        return False
    message = json.loads(text)
    return isinstance(message, dict) and message.get("status") == "finished"
