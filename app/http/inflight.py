"""One request in flight per bot API token (contract v1.2 "Bots", issue 45, as lichess does): a
request made with an API token (`Authorization: Bearer`) to the bot API (`/api/bot/…`, and the
challenges a bot makes and answers with its token) while another of the same token's is still
being answered is refused `429 too_many_requests_in_flight`, and the token is paused for
PAUSE_S: every such request of it is refused the same way, with the seconds left as
Retry-After, until the pause ends. Streams (a match's, the events') are long-lived GETs with caps
of their own (per seat, per token) and do not count.

Counted in Redis when REDIS_URL is set, so that a bot's requests spread over processes are one
flight; in this process's memory otherwise, and whenever Redis fails (as the rate limits: a
limit never turns into a 500). A pause is judged on the app's injected clock (tests move it):
Redis only keeps the time it ends until, and forgets it somewhat after. Keys are a hash of the
token, never the token itself. Off with RATE_LIMITS=off, like every limit."""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Final

from redis.asyncio import Redis
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import ApiError
from ..metrics import Metrics
from .ratelimit import closing, too_many

log = logging.getLogger("watergate.inflight")

PAUSE_S: Final = 60.0  # lichess's minute
COUNTED: Final = ("/api/bot/", "/api/challenges")
# Redis forgets a count this long after its last change: a process that died mid-request would
# otherwise pause its token for good (no answer takes near this long)
FLIGHT_TTL_S: Final = 120
REDIS_PAUSE_S: Final = 5.0  # after a Redis error, count here this long before trying again
REDIS_TIMEOUT_S: Final = 0.25
MAX_KEPT: Final = 10_000  # pauses remembered in memory at once; the ended go first beyond it
PREFIX: Final = "wg-inflight"


def in_flight(wait: int) -> ApiError:
    return ApiError(
        429,
        "too_many_requests_in_flight",
        f"One request at a time per token: wait for each answer. Paused for {wait} seconds.",
    )


def token_key(scope: Scope) -> str | None:
    """A hash of the request's bearer token when the request counts: an HTTP request to the bot
    API other than a stream."""
    if scope["type"] != "http" or not scope["path"].startswith(COUNTED):
        return None
    if scope["method"] == "GET" and scope["path"].endswith("/stream"):
        return None  # a match's stream: capped per seat instead
    header = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
    scheme, _, token = header.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return hashlib.sha256(token.strip().encode()).hexdigest()[:32]


class Flights:
    """Requests in flight and pauses, by token hash: `enter` says how long to wait (None: go on)
    and where the request was counted, `leave` ends a request that went on, there."""

    def __init__(
        self, metrics: Metrics, clock: Callable[[], float], redis_url: str | None = None
    ) -> None:
        self.metrics, self.clock = metrics, clock
        self.flying: dict[str, int] = {}
        self.paused: dict[str, float] = {}  # token hash -> the clock's time the pause ends
        self.redis: Redis | None = None
        if redis_url:
            self.redis = Redis.from_url(
                redis_url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S
            )
        self.redis_down_until = 0.0

    def _redis_failed(self, err: Exception) -> None:
        if not self.redis_down_until:  # one line per outage, not one per request
            log.warning("bot requests in flight counted in memory: Redis failed (%r)", err)
        self.redis_down_until = time.monotonic() + REDIS_PAUSE_S

    async def enter(self, key: str) -> tuple[int | None, bool]:
        """(None, or the seconds to wait; whether it was counted in Redis)."""
        now = self.clock()
        redis = self.redis if time.monotonic() >= self.redis_down_until else None
        wait: int | None = None
        in_redis = False
        if redis is not None:
            try:
                wait = await self._enter_redis(redis, key, now)
                in_redis, self.redis_down_until = True, 0.0
            except Exception as err:  # any Redis failure: count here instead, never a 500
                self._redis_failed(err)
        if not in_redis:
            wait = self._enter_memory(key, now)
        if wait is not None:
            self.metrics.limited("bot_in_flight")
        return wait, in_redis

    async def leave(self, key: str, counted_in_redis: bool) -> None:
        if counted_in_redis and self.redis is not None:
            try:
                await self.redis.decr(f"{PREFIX}:flight:{key}")
                return
            except Exception as err:  # its count expires in FLIGHT_TTL_S anyway
                self._redis_failed(err)
                return
        left = self.flying.get(key, 0) - 1
        if left > 0:
            self.flying[key] = left
        else:
            self.flying.pop(key, None)

    def _enter_memory(self, key: str, now: float) -> int | None:
        until = self.paused.get(key, 0.0)
        if until > now:
            return math.ceil(until - now)
        self.paused.pop(key, None)
        if self.flying.get(key, 0) >= 1:
            self._pause_memory(key, now)
            return math.ceil(PAUSE_S)
        self.flying[key] = self.flying.get(key, 0) + 1
        return None

    def _pause_memory(self, key: str, now: float) -> None:
        self.paused[key] = now + PAUSE_S
        if len(self.paused) > MAX_KEPT:
            ended = [k for k, until in self.paused.items() if until <= now]
            for stale in ended or [next(iter(self.paused))]:
                del self.paused[stale]

    async def _enter_redis(self, redis: Redis, key: str, now: float) -> int | None:
        pause_key, flight_key = f"{PREFIX}:pause:{key}", f"{PREFIX}:flight:{key}"
        until = await redis.get(pause_key)
        if until is not None and float(until) > now:
            return math.ceil(float(until) - now)
        async with redis.pipeline(transaction=True) as pipe:
            pipe.incr(flight_key)
            pipe.expire(flight_key, FLIGHT_TTL_S)
            flying, _ = await pipe.execute()
        if int(flying) <= 1:
            return None
        await redis.decr(flight_key)
        # the pause's end on the app's clock; Redis forgets it well after (its own clock)
        await redis.set(pause_key, repr(now + PAUSE_S), ex=int(PAUSE_S) + FLIGHT_TTL_S)
        return math.ceil(PAUSE_S)

    async def close(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()


class OneInFlight:
    """The middleware: a counted request goes on only when its token has none in flight."""

    def __init__(self, app: ASGIApp, flights: Flights) -> None:
        self.app, self.flights = app, flights

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, self._closing(send))
            return
        key = token_key(scope)
        if key is None:
            await self.app(scope, receive, send)
            return
        wait, in_redis = await self.flights.enter(key)
        if wait is not None:
            await too_many(send, wait, in_flight(wait).body())
            return
        try:
            await self.app(scope, receive, send)
        finally:
            await self.flights.leave(key, in_redis)  # where it was counted

    def _closing(self, send: Send) -> Send:
        return closing(send, self.flights.close)
