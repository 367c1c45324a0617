"""Which seats have a socket open: this process's sockets, and with Redis every process's (each
refreshes an expiring mark per socket in a hash per match). Read from memory or Redis only."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from .hub import Connection, Hub

PRESENCE_TTL = 45.0  # seconds a process's claim that a seat is connected stays valid


class Presence:
    def __init__(self, hub: Hub, redis: Any | None) -> None:
        self.hub, self.redis = hub, redis
        self._task: asyncio.Task[None] | None = None

    def _key(self, match_id: str) -> str:
        return f"watergate:presence:{match_id}"

    async def online(self, match_id: str) -> frozenset[str]:
        seats = set(self.hub.local_seats(match_id))
        if self.redis is not None:
            now = time.time()
            marks = await self.redis.hgetall(self._key(match_id))
            for field, expires in marks.items():
                if float(expires) > now:
                    seats.add(field.decode().split(":", 1)[0])
        return frozenset(seats)

    async def mark(self, conn: Connection, present: bool) -> None:
        if self.redis is None or conn.viewer is None:
            return
        field = f"{conn.viewer}:{conn.id}"
        if present:
            await self.redis.hset(self._key(conn.match_id), field, time.time() + PRESENCE_TTL)
            await self.redis.expire(self._key(conn.match_id), int(PRESENCE_TTL * 4))
        else:
            await self.redis.hdel(self._key(conn.match_id), field)

    async def start(self) -> None:
        if self.redis is not None:
            self._task = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_TTL / 3)
            for conn in self.hub.connections():
                with contextlib.suppress(Exception):
                    await self.mark(conn, True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
