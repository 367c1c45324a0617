"""Fan-out of typed changes: applied to this process's cache and sockets at once, and (with
Redis) published for the other processes, which apply it when it arrives. Only ids, versions and
presence facts cross Redis; every process builds the frames for its own sockets."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from ..persistence.cache import MatchCache
from .changes import Change, Deleted, MatchChanged, Moved, PresenceChanged, decode, encode
from .hub import Hub

log = logging.getLogger("watergate.fanout")
CHANNEL = "watergate:changes"


class Fanout:
    """One publish path for both setups: local delivery always, Redis when configured."""

    def __init__(self, hub: Hub, cache: MatchCache, redis_url: str | None) -> None:
        self.hub, self.cache = hub, cache
        self.origin = uuid.uuid4().hex  # this process, so it skips its own Redis messages
        self.redis: Any | None = None
        self._pubsub: Any | None = None
        self._task: asyncio.Task[None] | None = None
        if redis_url:
            import redis.asyncio as redis

            self.redis = redis.from_url(redis_url)

    async def start(self) -> None:
        if self.redis is not None:
            self._pubsub = self.redis.pubsub()
            await self._pubsub.subscribe(CHANNEL)
            self._task = asyncio.create_task(self._listen())

    async def publish(self, change: Change) -> None:
        """Called by services after their commit. The change is already committed: Redis being
        away must not turn the answer into an error, so a failed publish is only logged (the
        other processes catch up from the database on their next read)."""
        self.deliver(change, remote=False)
        if self.redis is not None:
            try:
                await self.redis.publish(CHANNEL, encode(change, self.origin))
            except Exception:
                log.exception("fan-out of %r failed", change)

    def deliver(self, change: Change, *, remote: bool) -> None:
        """Bring the cache up to date with the change, then wake the match's sockets. The
        publishing process has already updated its own cache."""
        match change:
            case Moved(match_id, version):
                self.hub.wake(match_id, version)
            case MatchChanged(match_id):
                if remote:
                    self.cache.drop_info(match_id)
                self.hub.wake(match_id)
            case PresenceChanged(match_id, seat, left_at):
                if remote and left_at is not None:
                    self.cache.seen(match_id, seat, left_at)
                self.hub.wake(match_id)
            case Deleted(match_id):
                self.cache.forget(match_id)
                self.hub.gone(match_id)

    async def _listen(self) -> None:
        """Receive the other processes' changes; a lost connection is retried with backoff
        rather than ending the listener for good."""
        assert self._pubsub is not None
        backoff = 0.5
        while True:
            try:
                async for message in self._pubsub.listen():
                    backoff = 0.5
                    self._receive(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("fan-out listener failed; retrying in %.1f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "message":
            return
        try:
            change, origin = decode(message["data"])
        except (ValueError, KeyError, TypeError):
            log.exception("bad fan-out message %r", message.get("data"))
            return
        if origin != self.origin:
            self.deliver(change, remote=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self.redis is not None:
            with contextlib.suppress(Exception):
                if self._pubsub is not None:
                    await self._pubsub.aclose()
                await self.redis.aclose()
