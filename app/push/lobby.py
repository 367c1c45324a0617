"""This process's lobby sockets: each gets the list of open challenges when it opens and again
whenever it changes (anywhere: the change comes through the fan-out). The list is rendered once
per change for every socket, each socket's sender sends only the newest list, and the sockets
are capped per process, with a share of the cap per client address."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..addresses import client_key
from ..logs import REQUEST_ID
from .hub import CLOSE_FAILED, too_many

log = logging.getLogger("watergate.lobby")
RETRY_S, RETRY_MAX_S = 0.5, 5.0  # a failed render (the database away) is tried again


class LobbySocket:
    """One lobby socket, with the player it said it is (for the creator's presence)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.address = client_key(ws.scope)  # who it is, as the cap's share counts it
        self.player_id: str | None = None
        self._latest = ""
        self._sent = ""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._sender())

    def offer(self, text: str) -> None:
        self._latest = text
        self._wake.set()

    async def send_text(self, text: str) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            await self.ws.send_text(text)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            latest = self._latest
            if latest == self._sent:
                continue
            try:
                self._sent = latest
                await self.send_text(latest)
            except WebSocketDisconnect:
                return
            except Exception:
                log.exception("lobby push failed")
                with contextlib.suppress(Exception):
                    await self.ws.close(code=CLOSE_FAILED)
                return


class LobbyRoom:
    """Every lobby socket of this process, and the task that renders their list."""

    def __init__(self, cap: int, per_address: int | None = None) -> None:
        self.cap = cap
        # one address's share: else one address filled the cap, and the lobby was offline for
        # everyone else (issue 40, finding 6)
        self.per_address = cap if per_address is None else per_address
        self.conns: set[LobbySocket] = set()
        self.by_address: Counter[str] = Counter()
        self.render: Callable[[], Awaitable[str]] | None = None  # set once the service exists
        # the list as each of the given players sees it, where it differs (blocks: issue 43)
        self.tailor: Callable[[set[str], str], Awaitable[dict[str, str]]] | None = None
        self._text: str | None = None  # the newest list, while nothing changed since
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failures = 0
        self._telling: set[asyncio.Task[None]] = set()

    def add(self, conn: LobbySocket) -> None:
        """Serve the socket (ApiError 429 over the cap, before it starts)."""
        if len(self.conns) >= self.cap:
            raise too_many("in the lobby")
        if self.by_address[conn.address] >= self.per_address:
            raise too_many("in the lobby from your address")
        if self._task is None:
            self._task = asyncio.create_task(self._run())
        conn.start()
        self.conns.add(conn)
        self.by_address[conn.address] += 1
        if self._text is not None:
            conn.offer(self._text)
        else:
            self._wake.set()

    async def remove(self, conn: LobbySocket) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            self.by_address[conn.address] -= 1
            if not self.by_address[conn.address]:
                del self.by_address[conn.address]
        await conn.stop()

    def wake(self) -> None:
        """The list changed: render it again for everyone."""
        self._text = None
        self._wake.set()

    def notified(self, player_id: str, notification_id: int) -> None:
        """A notification was stored for a player (a challenge to them, an answer to theirs):
        their lobby sockets here are told, and fetch their challenges again. Only the id
        travels: what it says is read by its player alone."""
        text = f'{{"type":"notified","id":{int(notification_id)}}}'
        for conn in self.conns:
            if conn.player_id == player_id:
                task = asyncio.get_running_loop().create_task(self._tell(conn, text))
                self._telling.add(task)
                task.add_done_callback(self._telling.discard)

    async def _tell(self, conn: LobbySocket, text: str) -> None:
        with contextlib.suppress(Exception):  # a socket gone meanwhile
            await conn.send_text(text)

    def players(self) -> set[str]:
        """Players with a lobby socket on this process."""
        return {c.player_id for c in self.conns if c.player_id is not None}

    async def _run(self) -> None:
        REQUEST_ID.set(None)
        assert self.render is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self.conns:
                self._text = None  # nobody to tell: rendered again when someone comes
                continue
            try:
                text = await self.render()
            except Exception as err:  # the database away: try again, later and later
                self._failures += 1
                if self._failures == 1:
                    log.warning("rendering the lobby failed (%s); retrying", type(err).__name__)
                delay = min(RETRY_MAX_S, RETRY_S * 2 ** (self._failures - 1))
                asyncio.get_running_loop().call_later(delay, self._wake.set)
                continue
            try:
                players = self.players()
                tailored = await self.tailor(players, text) if self.tailor and players else {}
            except Exception as err:  # as a failed render: tried again
                self._failures += 1
                log.warning("tailoring the lobby failed (%s); retrying", type(err).__name__)
                asyncio.get_running_loop().call_later(RETRY_S, self._wake.set)
                continue
            self._failures = 0
            self._text = text
            for conn in self.conns:
                conn.offer(tailored.get(conn.player_id or "", text))

    async def close(self) -> None:
        for conn in list(self.conns):
            await conn.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
