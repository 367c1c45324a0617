"""Per-client rate limits (the `limits` library): creating matches, joining, creating and
renaming players, accounts and sign-ins (also per username), admin sign-in, public replays
and websocket connects. Counted in Redis when REDIS_URL is set,
so every process agrees; in this process's memory otherwise, and whenever Redis fails (a limit
never turns into a 500)."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Final

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import ConnectionPool
from starlette.requests import HTTPConnection
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..addresses import client_key
from ..config import Settings
from ..errors import ApiError
from ..metrics import Metrics

log = logging.getLogger("watergate.ratelimit")
__all__ = ["client_key"]  # where tests and routes have always found it

# Which requests count against which limit, by route template (a test checks that each is a
# route of the app, so a renamed route cannot silently lose its limit). Websocket connects to
# /ws/… count as "socket".
ROUTES: Final = {
    ("POST", "/api/matches"): "create",
    ("POST", "/api/matches/{match_id}/rematch"): "create",  # against the computer: a new match
    ("POST", "/api/lessons/{game}/{lesson}/start"): "create",
    ("POST", "/api/invites/{code}/claim"): "join",
    ("POST", "/api/lobby/{match_id}/join"): "join",
    ("POST", "/api/lobby/quick"): "challenge",  # may open a challenge
    ("POST", "/api/matches/{match_id}/rematch/accept"): "join",
    ("POST", "/api/matches/{match_id}/rematch/claim"): "join",
    ("POST", "/api/players"): "player",
    ("PATCH", "/api/players/me"): "player",
    ("POST", "/admin/login"): "admin_login",
    ("POST", "/api/accounts"): "account",
    ("POST", "/api/accounts/login"): "login",
    ("POST", "/api/accounts/password"): "login",
    ("DELETE", "/api/players/me"): "login",  # an account's deletion checks its password
    # the bell (its GETs count in their routes: app/http/notifications.py)
    ("POST", "/api/notifications/read"): "notifications",
    ("PUT", "/api/notifications/push"): "notifications",
    # issue 43: reports and moderation (a report's per-day cap is counted apart, per reporter)
    ("POST", "/api/reports"): "moderation",
    ("GET", "/api/reports/mine"): "moderation",
    ("GET", "/api/mod/reports"): "moderation",
    ("POST", "/api/mod/actions"): "moderation",
    ("GET", "/api/mod/players/{player_id}"): "moderation",
    ("PUT", "/api/mod/moderators/{player_id}"): "moderation",
    ("DELETE", "/api/mod/moderators/{player_id}"): "moderation",
    ("GET", "/api/players/me/moderation"): "moderation",
    ("POST", "/api/players/me/moderation/{action_id}/ack"): "moderation",
    # issue 45: API tokens and the bot API
    ("POST", "/api/account/tokens"): "account",
    ("GET", "/api/account/tokens"): "bot",
    ("DELETE", "/api/account/tokens/{token_id}"): "bot",
    ("POST", "/api/bot/account/upgrade"): "bot",
    ("GET", "/api/bot/matches/{match_id}/stream"): "bot",
    ("GET", "/api/stream/events"): "bot",
    ("POST", "/api/bot/matches/{match_id}/actions"): "bot",
    ("POST", "/api/bot/matches/{match_id}/resign"): "bot",
    ("POST", "/api/bot/matches/{match_id}/chat"): "bot",
    # people (contract v1.2): a direct challenge makes a match; the rest is "social"
    ("POST", "/api/challenges"): "create",
    ("POST", "/api/challenges/{challenge_id}/accept"): "join",
    ("POST", "/api/challenges/{challenge_id}/decline"): "social",
    ("POST", "/api/challenges/{challenge_id}/cancel"): "social",
    ("GET", "/api/challenges"): "social",
    ("PUT", "/api/players/me/follows/{player_id}"): "social",
    ("DELETE", "/api/players/me/follows/{player_id}"): "social",
    ("GET", "/api/players/me/follows"): "social",
    ("PUT", "/api/players/me/blocks/{player_id}"): "social",
    ("DELETE", "/api/players/me/blocks/{player_id}"): "social",
    ("GET", "/api/players/me/blocks"): "social",
    ("GET", "/api/players/me/settings"): "social",
    ("PATCH", "/api/players/me/settings"): "social",
    # issue 46: tournaments (creating one is a create; the rest is "social")
    ("POST", "/api/tournaments"): "create",
    ("POST", "/api/tournaments/{tournament_id}/join"): "social",
    ("POST", "/api/tournaments/{tournament_id}/withdraw"): "social",
    ("POST", "/api/tournaments/{tournament_id}/berserk"): "social",
    ("POST", "/api/tournaments/{tournament_id}/admin"): "moderation",
    ("GET", "/api/tournaments/{tournament_id}/history"): "moderation",
}
PATTERNS: Final = [
    (method, compile_path(path)[0], bucket) for (method, path), bucket in ROUTES.items()
]
LIMITED_METHODS: Final = frozenset(method for method, _ in ROUTES)
REPLAYS: Final = "/api/replays/"  # every GET under it counts as "replay"
MINE: Final = ("/api/players/me/export", "/api/players/me/sanctions")  # issue 43: "replay" too
REDIS_PAUSE_S: Final = 5.0  # after a Redis error, count in memory this long before trying again
REDIS_TIMEOUT_S: Final = 0.25  # a limit check must never hold a request for long


class RateLimited(ApiError):
    """429 with the seconds to wait (sent as Retry-After)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            429, "rate_limited", f"Too many requests; try again in {retry_after} seconds."
        )
        self.retry_after = retry_after


class Limiter:
    """The limits of one app, by bucket name; `hit` counts a request and says how long to wait."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.metrics = metrics
        self.items: dict[str, list[RateLimitItem]] = {
            "create": parse_many(settings.rate_limit_create),
            "join": parse_many(settings.rate_limit_join),
            "player": parse_many(settings.rate_limit_player),
            "admin_login": parse_many(settings.rate_limit_admin_login),
            "socket": parse_many(settings.rate_limit_socket),
            "account": parse_many(settings.rate_limit_account),
            "login": parse_many(settings.rate_limit_login),
            # keyed by username and address, or username and known device
            "login_user": parse_many(settings.rate_limit_login_user),
            # keyed by username: every unknown browser together
            "login_user_global": parse_many(settings.rate_limit_login_user_global),
            "challenge": parse_many(settings.rate_limit_challenge),
            "replay": parse_many(settings.rate_limit_replay),
            "notifications": parse_many(settings.rate_limit_notifications),
            "moderation": parse_many(settings.rate_limit_moderation),
            "bot": parse_many(settings.rate_limit_bot),
            # keyed by the challenging bot account, not by address (a bot moves between hosts)
            "bot_challenge": parse_many(settings.rate_limit_bot_challenge),
            "social": parse_many(settings.rate_limit_social),
        }
        self.memory_storage = MemoryStorage()
        self.memory = MovingWindowRateLimiter(self.memory_storage)
        self.pool: ConnectionPool | None = None
        self.redis: MovingWindowRateLimiter | None = None
        if settings.redis_url:
            # our own pool (limits documents the option), so that closing the app closes it
            self.pool = ConnectionPool.from_url(
                settings.redis_url,
                socket_timeout=REDIS_TIMEOUT_S,
                socket_connect_timeout=REDIS_TIMEOUT_S,
            )
            storage = RedisStorage(
                "async+" + settings.redis_url,
                implementation="redispy",
                key_prefix="wg-limits",
                connection_pool=self.pool,  # type: ignore[arg-type]  # typed as scalars only
            )
            self.redis = MovingWindowRateLimiter(storage)
        self.redis_down_until = 0.0
        self.redis_failing = False

    async def hit(self, bucket: str, who: str) -> int | None:
        """Count one request of `who`; None if allowed, else the whole seconds to wait."""
        for item in self.items[bucket]:
            wait = await self._hit(item, bucket, who)
            if wait is not None:
                self.metrics.limited(bucket)
                return wait
        return None

    async def _hit(self, item: RateLimitItem, bucket: str, who: str) -> int | None:
        if self.redis is not None and time.monotonic() >= self.redis_down_until:
            try:
                wait = await _count(self.redis, item, bucket, who)
            except Exception as err:  # any Redis failure: count here instead, never a 500
                if not self.redis_failing:  # one line per outage, not one per request
                    log.warning("rate limits counted in memory: Redis failed (%r)", err)
                self.redis_failing = True
                self.redis_down_until = time.monotonic() + REDIS_PAUSE_S
            else:
                if self.redis_failing:
                    log.warning("rate limits counted in Redis again")
                self.redis_failing = False
                return wait
        return await _count(self.memory, item, bucket, who)

    async def close(self) -> None:
        timer = self.memory_storage.timer  # its expiry sweep, if one is under way
        if timer is not None and not timer.done():
            timer.cancel()
        if self.pool is not None:
            await self.pool.disconnect()


async def _count(limiter: MovingWindowRateLimiter, item: RateLimitItem, *key: str) -> int | None:
    if await limiter.hit(item, *key):
        return None
    stats = await limiter.get_window_stats(item, *key)
    return max(1, math.ceil(stats.reset_time - time.time()))


def limiter_of(conn: HTTPConnection) -> Limiter | None:
    """The app's limiter, or None with RATE_LIMITS=off."""
    limiter: Limiter | None = getattr(conn.app.state, "limiter", None)
    return limiter


async def check(conn: HTTPConnection, bucket: str) -> None:
    """For routes that count only some requests (a wrong admin bearer token): raise 429."""
    limiter = limiter_of(conn)
    if limiter is not None and (wait := await limiter.hit(bucket, client_key(conn.scope))):
        raise RateLimited(wait)


async def check_key(conn: HTTPConnection, bucket: str, key: str) -> None:
    """Count a request against a limit kept per `key` rather than per address (sign-ins per
    username and address, or per username): raise 429 over it."""
    limiter = limiter_of(conn)
    if limiter is not None and (wait := await limiter.hit(bucket, key)):
        raise RateLimited(wait)


def bucket_of(scope: Scope) -> str | None:
    """Which limit a request counts against, if any."""
    if scope["type"] == "websocket":
        return "socket" if scope["path"].startswith("/ws/") else None
    if scope.get("method") == "GET" and (
        scope["path"].startswith(REPLAYS) or scope["path"] in MINE
    ):
        return "replay"  # a public replay, export or check replays a whole match: not free
    if scope["type"] != "http" or scope["method"] not in LIMITED_METHODS:
        return None  # the common case (views, actions, pages, static files) costs one lookup
    method, path = scope["method"], scope["path"]
    return next((b for m, regex, b in PATTERNS if m == method and regex.match(path)), None)


class RateLimit:
    """Counts each limited request before anything else runs; over the limit, HTTP answers
    429 rate_limited with Retry-After, and a websocket gets an error frame and close 4429."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app, self.limiter = app, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, self._closing(send))
            return
        bucket = bucket_of(scope)
        wait = None if bucket is None else await self.limiter.hit(bucket, client_key(scope))
        if wait is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            self.limiter.metrics.refused(4429, "rate_limited")
            await refuse_socket(receive, send, wait)
        else:
            await too_many(send, wait)

    def _closing(self, send: Send) -> Send:
        return closing(send, self.limiter.close)


def closing(send: Send, close: Callable[[], Awaitable[None]]) -> Send:
    """The lifespan's `send`, calling `close` as the app shuts down (a middleware's own
    connections are closed with the app's)."""

    async def wrapped(message: Message) -> None:
        if message["type"].startswith("lifespan.shutdown."):
            await close()
        await send(message)

    return wrapped


def body(wait: int) -> dict[str, str]:
    return RateLimited(wait).body()


async def too_many(send: Send, wait: int, said: dict[str, str] | None = None) -> None:
    """A 429 with Retry-After: `said` (a stable code and message), or rate_limited's."""
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", str(wait).encode()),
            ],
        }
    )
    answer = json.dumps(said or body(wait)).encode()
    await send({"type": "http.response.body", "body": answer})


async def refuse_socket(
    receive: Receive, send: Send, wait: int, code: str = "rate_limited", message: str = ""
) -> None:
    """Accepted, told why (with the wait), and closed 4429, as ws.py refuses a socket it cannot
    serve: a browser never learns the status of a refused handshake."""
    connect = await receive()
    if connect["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    said = body(wait) if code == "rate_limited" else {"code": code, "message": message}
    frame = {"type": "error", **said, "retry_after": wait}
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": 4429})
