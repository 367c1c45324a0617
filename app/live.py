"""What a socket or a view shows besides the match state: presence of the seats (this process's
sockets, plus other processes' through Redis), the clocks at this moment, the rematch offer, and
the spectator link. Built for each push; never stored in the engine."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from engine.watergate import Role, current_role

from .clock import Clock, remaining, rule_from_options
from .lifecycle import Lifecycle
from .matches import MatchService
from .realtime import Connection, Hub
from .store import Entry
from .wire import MatchInfo, view_json

log = logging.getLogger("watergate.live")
PRESENCE_TTL = 45.0  # seconds a process's claim that a seat is connected stays valid


class Presence:
    """Which seats have a socket open: this process's sockets, and with Redis every process's
    (each refreshes an expiring mark per socket in a hash per match)."""

    def __init__(self, hub: Hub, redis: Any | None) -> None:
        self.hub, self.redis = hub, redis
        self._task: asyncio.Task[None] | None = None

    def _key(self, match_id: str) -> str:
        return f"watergate:presence:{match_id}"

    async def online(self, match_id: str) -> set[Role]:
        seats = set(self.hub.local_seats(match_id))
        if self.redis is not None:
            now = time.time()
            marks = await self.redis.hgetall(self._key(match_id))
            for field, expires in marks.items():
                role = field.decode().split(":", 1)[0]
                if float(expires) > now and role in ("editor", "nixon"):
                    seats.add("editor" if role == "editor" else "nixon")
        return seats

    async def mark(self, conn: Connection, present: bool) -> None:
        if self.redis is None or conn.role is None:
            return
        field = f"{conn.role}:{conn.id}"
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


class Live:
    """Builds the text of a view with its live facts, for HTTP answers and socket pushes."""

    def __init__(
        self, service: MatchService, lifecycle: Lifecycle, presence: Presence, clock: Clock
    ) -> None:
        self.service, self.lifecycle, self.presence, self.clock = (
            service,
            lifecycle,
            presence,
            clock,
        )

    async def render(self, conn: Connection) -> str:
        known = None if conn.reread else self.service.cached(conn.match_id, conn.wanted)
        conn.reread = False
        if known is None:
            known = await run_in_threadpool(self.service.current, conn.match_id)
        info, entry = known
        return view_json(info, entry, conn.role, "view", await self.extras(info, entry, conn.role))

    async def extras(self, info: MatchInfo, entry: Entry, role: Role | None) -> dict[str, object]:
        online = await self.presence.online(info.match_id)
        presence = {}
        for seat in ("editor", "nixon"):
            # "last seen" matters only while a seat is away; it is read from the database, which
            # every process writes when a socket opens or closes, so all processes agree
            seen = (
                None
                if seat in online
                else await run_in_threadpool(self.lifecycle.last_seen, info.match_id, seat)
            )
            presence[seat] = {"online": seat in online, "last_seen": seen}
        out: dict[str, object] = {"presence": presence, "clocks": self.clocks(info, entry)}
        if role is not None:
            out["rematch"] = info.rematch
            if info.spectator_key:
                out["spectate_path"] = f"/watch/{info.match_id}?key={info.spectator_key}"
        return out

    def clocks(self, info: MatchInfo, entry: Entry) -> dict[str, object] | None:
        rule = rule_from_options(info.options)
        if rule is None:
            return None
        decider = current_role(entry.state) if info.status == "active" else None
        if info.activated_at is None:
            left = {
                "editor": rule.initial_s or rule.per_move_s,
                "nixon": rule.initial_s or rule.per_move_s,
            }
        else:
            left = remaining(
                rule, info.activated_at, entry.stamps, entry.actors, decider, self.clock.now()
            )
        if info.win_reason == "timeout" and info.ended_by in left:
            left[info.ended_by] = 0.0  # the seat that ran out of time
        return {
            "kind": rule.kind,
            **{
                seat: {"remaining_ms": max(0, int(left[seat] * 1000)), "running": seat == decider}
                for seat in ("editor", "nixon")
            },
        }
