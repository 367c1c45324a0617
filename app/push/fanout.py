"""Fan-out of typed changes: applied to this process's cache and sockets at once, and (with
Redis) published for the other processes, which apply it when it arrives. Only ids, versions and
presence facts cross Redis; every process builds the frames for its own sockets. After Redis was
away, the subscription is made again and every match with sockets here is read from the database,
so a change announced meanwhile is still pushed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError
from starlette.concurrency import run_in_threadpool

from ..metrics import Metrics
from ..persistence import cache as cached
from ..persistence.cache import MatchCache
from ..persistence.chat import ChatHistory, ChatLine
from ..persistence.db import Database
from ..supervise import finish, supervise
from .breaker import RedisBreaker
from .changes import (
    Change,
    Chatted,
    Deleted,
    LobbyChanged,
    MatchChanged,
    Moved,
    Notified,
    PresenceChanged,
    TournamentChanged,
    decode,
    encode,
)
from .hub import Hub

log = logging.getLogger("watergate.fanout")
CHANNEL = "watergate:changes"
RESUBSCRIBE_MAX_DELAY = 5.0  # seconds: pushes between processes resume at most this long after
# Redis is back (the supervisor's backoff cap for the subscription)

# Short timeouts: a committed action waits for its publish, so a Redis that does not answer must
# cost it a second or two, not the library's default. One retry on a fresh connection: pooled
# connections are all dead after a Redis restart, and the first command would find out.
COMMANDS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}
# TCP keepalive, so a subscription to a Redis that vanished without closing the connection (a
# network partition) fails within half a minute instead of waiting on silence for hours.
KEEPALIVE = {
    getattr(socket, name): value
    for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3))
    if hasattr(socket, name)
}


class Fanout:
    """One publish path for both setups: local delivery always, Redis when configured."""

    def __init__(
        self, hub: Hub, cache: MatchCache, db: Database, redis_url: str | None, metrics: Metrics
    ) -> None:
        self.hub, self.cache, self.db, self.metrics = hub, cache, db, metrics
        # every match's last chat lines, kept as they are said
        self.chat = ChatHistory(caches=metrics.caches)
        self.lobby_changed: list[Callable[[], None]] = []  # the lobby's sockets, woken
        # the bell's sockets: told (player id, notification id) of each stored notification
        self.notified: list[Callable[[str, int], None]] = []
        # the tournament pages' sockets: told the id of each tournament that changed
        self.tournament_changed: list[Callable[[str], None]] = []
        self.origin = uuid.uuid4().hex  # this process, so it skips its own Redis messages
        self.redis: Any | None = None  # commands: publish, presence, readiness
        self._subscriber: Any | None = None  # the subscription's own connection
        self.listening = False  # subscribed, and caught up with what was missed before
        self.resubscribed: list[Callable[[], Awaitable[None]]] = []  # run after each catch-up
        self._task: asyncio.Task[None] | None = None
        if redis_url:
            import redis.asyncio as redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            self.redis = redis.from_url(redis_url, retry=Retry(NoBackoff(), 1), **COMMANDS)
            # No retries inside redis-py for the subscription: it would resubscribe by itself
            # and hide the gap, and the catch-up below would never run.
            self._subscriber = redis.from_url(
                redis_url, retry=Retry(NoBackoff(), 0), socket_keepalive=True,
                socket_keepalive_options=KEEPALIVE, **COMMANDS,
            )  # fmt: skip
        # the commands a request waits on skip Redis while it is away (publishes, presence)
        self.breaker = RedisBreaker(self.redis)

    async def start(self) -> None:
        """Subscribe in the background: a Redis that is away at start delays pushes between
        processes (and readiness), not the start."""
        if self._subscriber is not None:
            self._task = supervise(
                "fan-out listener", self._listen, max_delay=RESUBSCRIBE_MAX_DELAY
            )

    def follows(self, match_id: str) -> bool:
        """Whether this process hears of every change to the match as it happens: a socket is
        open on it here, and (with Redis) the subscription is up and caught up. Then what the
        cache holds of the match is as current as a read would be (a deletion or a change of
        its facts elsewhere arrives as a change and drops it)."""
        return (self._subscriber is None or self.listening) and self.hub.serves(match_id)

    async def publish(self, change: Change) -> None:
        """Called by services after their commit. The change is already committed: Redis being
        away must not turn the answer into an error, so a failed publish is only logged (the
        other processes catch up from the database when they subscribe again)."""
        self.deliver(change, remote=False)
        if self.redis is None or not self.breaker.usable:  # or it failed, and is not back
            return
        try:
            await self.redis.publish(CHANNEL, encode(change, self.origin))
        except (RedisError, OSError) as err:
            # other processes catch up later, from the database, when they subscribe again
            self.breaker.failed("fan-out publishing", err)

    def deliver(self, change: Change, *, remote: bool) -> None:
        """Bring the cache up to date with the change, then wake the match's sockets. The
        publishing process has already updated its own cache."""
        match change:
            case Moved(match_id, version, seat, arrived):
                self.hub.wake(match_id, version, seat, arrived)
            case MatchChanged(match_id):
                if remote:
                    self.cache.drop_info(match_id)
                self.hub.wake(match_id)
            case PresenceChanged(match_id, seat, left_at):
                if remote and left_at is not None:
                    self.cache.seen(match_id, seat, left_at)
                self.hub.wake(match_id)
            case Deleted(match_id):
                self.metrics.caches.forget_match(match_id)  # every cache, the match cache's too
                self.hub.gone(match_id)
            case LobbyChanged():
                for wake in self.lobby_changed:
                    wake()
            case Chatted(match_id, role, name, text, at, phrase, line_id, player, hidden, apart):
                line = ChatLine(role, name, text, at, phrase, line_id, player, hidden)
                self.chat.said(match_id, line)
                # a marked line reaches only its writer's seat; a block keeps it from the
                # seats apart from the writer (issue 43): never a spectator's or another's socket
                self.hub.post(
                    match_id,
                    chat_frame(line),
                    lambda seat: seat == role if hidden else seat not in apart,
                )
            case Notified(player_id, notification_id):
                for notified in self.notified:
                    notified(player_id, notification_id)
            case TournamentChanged(tournament_id):
                for changed in self.tournament_changed:
                    changed(tournament_id)

    async def _listen(self) -> None:
        """One subscription: once Redis confirms it, catch up, then deliver the other processes'
        changes until the connection is lost, which raises (the supervisor subscribes again)."""
        assert self._subscriber is not None
        pubsub = self._subscriber.pubsub()
        try:
            await pubsub.subscribe(CHANNEL)
            async for message in pubsub.listen():
                if message.get("type") == "subscribe":
                    # from here on nothing published is missed, so what the database says now
                    # is all that was missed before
                    self.chat.clear()  # lines said meanwhile elsewhere: read them again
                    await self._catch_up()
                    self.listening = True
                    log.info("fan-out subscribed")
                    for hook in self.resubscribed:
                        await hook()
                    for wake in self.lobby_changed:  # a challenge may have come or gone
                        wake()
                else:
                    self._receive(message)
            raise ConnectionError("the fan-out subscription ended")
        finally:
            self.listening = False
            await _quietly(pubsub.aclose())

    async def _catch_up(self) -> None:
        """Read every match with sockets here from the database and wake its room: a move,
        resignation or deletion announced while this process was not subscribed is pushed now
        (a frame that did not change is not sent again)."""
        ids = sorted({conn.match_id for conn in self.hub.connections()})
        if not ids:
            return
        versions = await run_in_threadpool(self._reread, ids)
        for match_id, version in versions.items():
            if version is None:
                self.deliver(Deleted(match_id), remote=True)
            else:
                self.hub.wake(match_id, version)
        log.info("fan-out caught up with %d match(es) from the database", len(ids))

    def _reread(self, ids: list[str]) -> dict[str, int | None]:
        """Each match as stored now, into the cache; its version (None: deleted)."""
        found: dict[str, int | None] = {}
        with self.db.reader() as db:
            for match_id in ids:
                loaded = cached.load(db, self.cache, match_id)
                found[match_id] = None if loaded is None else loaded[1].warm().version
        return found

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "message":
            return
        try:
            received = decode(message["data"])
        except (ValueError, KeyError, TypeError):
            log.exception("bad fan-out message %r", message.get("data"))
            return
        if received.origin == self.origin:
            return
        if received.sent_at is not None:  # across machines, their clocks' difference is in it
            self.metrics.fanned_out("redis", time.time() - received.sent_at)
        self.deliver(received.change, remote=True)

    async def close(self) -> None:
        await finish(self._task)
        await self.breaker.close()
        for client in (self._subscriber, self.redis):
            if client is not None:
                await _quietly(client.aclose())


def chat_frame(line: ChatLine) -> str:
    """The frame every socket of the match gets for a new chat line."""
    return json.dumps({"type": "chat", **line.wire()})


async def _quietly(closing: Awaitable[Any]) -> None:
    """Closing a Redis client or subscription whose server may be gone: bounded, and an error is
    not worth more than the close itself."""
    with contextlib.suppress(RedisError, OSError, TimeoutError, RuntimeError):
        await asyncio.wait_for(closing, 2.0)
