"""Which seats have a socket open: this process's sockets, and with Redis every process's (each
refreshes an expiring mark per socket in a hash per match). Read from memory or Redis only; while
Redis is away it shows this process's sockets, and the marks are made again when it returns."""

from __future__ import annotations

import asyncio
import logging
import time

from redis.exceptions import RedisError

from ..supervise import finish, supervise
from .changes import PresenceChanged
from .fanout import Fanout
from .hub import Connection, Hub

PRESENCE_TTL = 45.0  # seconds a process's claim that a seat is connected stays valid
log = logging.getLogger("watergate.presence")


class Presence:
    def __init__(self, hub: Hub, fanout: Fanout) -> None:
        self.hub, self.fanout, self.redis = hub, fanout, fanout.redis
        self._failing = False
        self._task: asyncio.Task[None] | None = None

    def _key(self, match_id: str) -> str:
        return f"watergate:presence:{match_id}"

    async def online(self, match_id: str) -> frozenset[str]:
        """The seats online; never fails a view: without Redis, this process's sockets only."""
        seats = set(self.hub.local_seats(match_id))
        if self.redis is not None and self.fanout.breaker.usable:
            try:
                marks = await self.redis.hgetall(self._key(match_id))
            except (RedisError, OSError) as err:
                self._failed(err)
                return frozenset(seats)
            self._worked()
            now = time.time()
            for field, expires in marks.items():
                if float(expires) > now:
                    seats.add(field.decode().split(":", 1)[0])
        return frozenset(seats)

    async def mark(self, conn: Connection, present: bool) -> None:
        """Claim (or give up) the socket's seat for the other processes; a failure is logged
        only: the heartbeat, or the refresh when the fan-out subscribes again, claims it later."""
        if self.redis is None or conn.viewer is None or not self.fanout.breaker.usable:
            return  # (a heartbeat, or the refresh once the fan-out subscribes again, claims it)
        key, field = self._key(conn.match_id), f"{conn.viewer}:{conn.id}"
        try:
            if present:
                await self.redis.hset(key, field, time.time() + PRESENCE_TTL)
                await self.redis.expire(key, int(PRESENCE_TTL * 4))
            else:
                await self.redis.hdel(key, field)
        except (RedisError, OSError) as err:
            self._failed(err)
        else:
            self._worked()

    async def refresh(self) -> None:
        """Claim every socket of this process again and announce its seat: run when the fan-out
        has subscribed again, since marks made or expired meanwhile were lost for the others."""
        seats = set()
        for conn in self.hub.connections():
            await self.mark(conn, True)
            if conn.viewer is not None:
                seats.add((conn.match_id, conn.viewer))
        for match_id, seat in sorted(seats):
            await self.fanout.publish(PresenceChanged(match_id, seat))

    def _failed(self, err: Exception) -> None:
        if not self._failing:  # once per outage
            log.warning("presence unavailable in Redis (%s): showing this process's sockets", err)
        self._failing = True
        self.fanout.breaker.failed("presence", err)

    def _worked(self) -> None:
        if self._failing:
            log.info("presence in Redis works again")
        self._failing = False

    async def start(self) -> None:
        if self.redis is not None:
            self.fanout.resubscribed.append(self.refresh)
            self._task = supervise("presence heartbeat", self._heartbeat)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_TTL / 3)
            for conn in self.hub.connections():
                await self.mark(conn, True)

    async def close(self) -> None:
        await finish(self._task)
