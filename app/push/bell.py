"""This process's bell sockets (WS /ws/notifications), by player: when a notification is stored
for a player anywhere (`Fanout.notified`, across processes through Redis), each of that
player's sockets here is sent it with the new unread count; a count that changed otherwise
(lines marked read on another tab or device) is sent alone. Capped per process, per client
address and per player; a player with no socket here costs no database read."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketState

from ..addresses import client_key
from ..logs import REQUEST_ID
from .hub import too_many

log = logging.getLogger("watergate.bell")
PER_PLAYER = 10  # one player's bell sockets on one process (tabs, devices)
# (player, notification id or 0 for "the count changed") -> the frames to send that player
Render = Callable[[str, int], Awaitable[list[str]]]


class BellSocket:
    """One bell socket, once it said which player it is."""

    def __init__(self, ws: WebSocket, player_id: str) -> None:
        self.ws, self.player_id = ws, player_id
        self.address = client_key(ws.scope)
        self.lock = asyncio.Lock()  # one send at a time: pushes and pongs interleave

    async def send_text(self, text: str) -> None:
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(text)


class BellRoom:
    """Every bell socket of this process, and the deliveries of what was notified."""

    def __init__(self, cap: int, per_address: int) -> None:
        self.cap, self.per_address = cap, per_address
        self.by_player: dict[str, set[BellSocket]] = {}
        self.by_address: Counter[str] = Counter()
        self.count = 0
        self.render: Render | None = None  # set once the service exists
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, conn: BellSocket) -> None:
        """Serve the socket (ApiError 429 over a cap)."""
        if self.count >= self.cap:
            raise too_many("for notifications")
        if self.by_address[conn.address] >= self.per_address:
            raise too_many("for notifications from your address")
        mine = self.by_player.setdefault(conn.player_id, set())
        if len(mine) >= PER_PLAYER:
            raise too_many("for notifications of this player")
        mine.add(conn)
        self.by_address[conn.address] += 1
        self.count += 1

    def remove(self, conn: BellSocket) -> None:
        mine = self.by_player.get(conn.player_id)
        if mine is None or conn not in mine:
            return
        mine.discard(conn)
        if not mine:
            del self.by_player[conn.player_id]
        self.by_address[conn.address] -= 1
        if not self.by_address[conn.address]:
            del self.by_address[conn.address]
        self.count -= 1

    def notified(self, player_id: str, notification_id: int) -> None:
        """A `Fanout.notified` callback: the player's sockets here are due the line."""
        if player_id not in self.by_player:
            return
        task = asyncio.create_task(self._deliver(player_id, notification_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, player_id: str, notification_id: int) -> None:
        REQUEST_ID.set(None)
        assert self.render is not None
        try:
            frames = await self.render(player_id, notification_id)
        except Exception as err:  # the database away: the next page load shows it
            log.warning("rendering a notification failed (%s)", type(err).__name__)
            return
        for conn in list(self.by_player.get(player_id, ())):
            for frame in frames:
                with contextlib.suppress(Exception):  # a socket closing meanwhile
                    await conn.send_text(frame)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
