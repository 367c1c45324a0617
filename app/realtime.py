"""Live pushes: the sockets of this process per match, and fan-out of "match M is at version V"
in-process or through Redis pub/sub. No game data crosses Redis: every process builds the views
for its own sockets from the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from engine import Role

from .errors import ApiError
from .matches import MatchService
from .wire import view_json

log = logging.getLogger("watergate.realtime")
CHANNEL = "watergate:versions"


class Connection:
    """One seat's socket; a single sender task sends the newest view whenever it is woken, so
    pushes are ordered, coalesced, and never older than what the socket already has."""

    def __init__(self, ws: WebSocket, match_id: str, role: Role, service: MatchService) -> None:
        self.ws, self.match_id, self.role, self.service = ws, match_id, role, service
        self.sent: tuple[int, str] | None = None  # (version, status) of the last view sent
        self.wanted = 0  # the newest version announced for this match
        self.reread = True  # read the match row again (first view, or a claim elsewhere)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._wake.set()  # the first view goes out at once
        self._task = asyncio.create_task(self._sender())

    def wake(self, version: int) -> None:
        """A new version (or, with -1, a change of the match row such as a claim)."""
        if version < 0:
            self.reread = True
        self.wanted = max(self.wanted, version)
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def send_text(self, text: str) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            await self.ws.send_text(text)

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                known = None if self.reread else self.service.cached(self.match_id, self.wanted)
                self.reread = False
                if known is None:
                    known = await run_in_threadpool(self.service.current, self.match_id)
                info, entry = known
                key = (entry.version, info.status)
                # newer version, or the same version with a new status (the invite was claimed)
                if (
                    self.sent is None
                    or key[0] > self.sent[0]
                    or (key[0] == self.sent[0] and key[1] != self.sent[1])
                ):
                    self.sent = key
                    await self.send_text(view_json(info, entry, self.role, "view"))
            except ApiError as err:
                await self.send_text(json.dumps({"type": "error", **err.body()}))
            except WebSocketDisconnect:
                return  # the client left; the endpoint cleans up
            except Exception:  # a broken socket ends this sender; the endpoint cleans up
                log.exception("push to %s/%s failed", self.match_id, self.role)
                return


class Hub:
    """This process's sockets, per match."""

    def __init__(self) -> None:
        self._by_match: dict[str, set[Connection]] = {}
        self.listeners: list[Callable[[str, int], Awaitable[None]]] = []

    def add(self, conn: Connection) -> None:
        self._by_match.setdefault(conn.match_id, set()).add(conn)
        conn.start()

    async def remove(self, conn: Connection) -> None:
        conns = self._by_match.get(conn.match_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by_match[conn.match_id]
        await conn.stop()

    async def notify(self, match_id: str, version: int) -> None:
        for conn in list(self._by_match.get(match_id, ())):
            conn.wake(version)
        for listener in self.listeners:
            await listener(match_id, version)

    def count(self) -> int:
        return sum(len(c) for c in self._by_match.values())


class LocalBroadcaster:
    """One process: a publish wakes this process's sockets directly."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def start(self) -> None:
        return None

    async def publish(self, match_id: str, version: int) -> None:
        await self.hub.notify(match_id, version)

    async def close(self) -> None:
        return None


class RedisBroadcaster:
    """Several processes: versions go through Redis pub/sub; every process (this one included)
    wakes its own sockets when the message comes back."""

    def __init__(self, hub: Hub, url: str) -> None:
        import redis.asyncio as redis

        self.hub = hub
        self._redis = redis.from_url(url)
        self._pubsub = self._redis.pubsub()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for message in self._pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                match_id, version = message["data"].decode().split(" ")
                await self.hub.notify(match_id, int(version))
            except Exception:
                log.exception("bad fan-out message %r", message.get("data"))

    async def publish(self, match_id: str, version: int) -> None:
        await self._redis.publish(CHANNEL, f"{match_id} {version}")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            await self._redis.aclose()


Broadcaster = LocalBroadcaster | RedisBroadcaster
