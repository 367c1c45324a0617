"""Live pushes: the sockets of this process per match, and fan-out of "match M is at version V"
in-process or through Redis pub/sub. No game data crosses Redis: every process builds the views
for its own sockets from the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from engine.watergate import Role

from .errors import ApiError

log = logging.getLogger("watergate.realtime")
CHANNEL = "watergate:versions"


Render = Callable[["Connection"], Awaitable[str]]
REREAD = -1  # publish this "version" when the match row changed without a new action
PRESENCE = -2  # … and this one when only a seat's connection came or went


class Connection:
    """One seat's (or a spectator's) socket; a single sender task sends the newest view whenever it
    is woken, so pushes are ordered and coalesced, and a view is sent only when it changed."""

    def __init__(self, ws: WebSocket, match_id: str, role: Role | None, render: Render) -> None:
        self.ws, self.match_id, self.role, self.render = ws, match_id, role, render
        self.last_text = ""
        self.wanted = 0  # the newest version announced for this match
        self.reread = True  # read the match row again (first view, or a change made elsewhere)
        self.id = uuid.uuid4().hex
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._wake.set()  # the first view goes out at once
        self._task = asyncio.create_task(self._sender())

    def wake(self, version: int) -> None:
        """A new version; -1: the match row changed outside the rules (claim, resign, clock …);
        PRESENCE: only who is connected changed, so the cached match is still good."""
        if version == REREAD:
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
                text = await self.render(self)
                if text != self.last_text:
                    self.last_text = text
                    await self.send_text(text)
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

    def add(self, conn: Connection) -> None:
        self._by_match.setdefault(conn.match_id, set()).add(conn)
        conn.start()

    def local_seats(self, match_id: str) -> set[Role]:
        """Seats of this match with a socket open on this process."""
        return {c.role for c in self._by_match.get(match_id, ()) if c.role is not None}

    def connections(self) -> list[Connection]:
        return [c for conns in self._by_match.values() for c in conns]

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
        self.redis = self._redis  # shared with presence
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
