"""Wires the hardening into an app: trusted proxy headers, the request log, security headers, the
admin Origin check, the spectator-socket budget, the refusal of flooders' sockets and the rate
limits and a bot token's one request in flight (unless RATE_LIMITS=off)."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..config import Settings
from ..metrics import Metrics
from .flooders import Penalties, RefuseFlooders
from .inflight import Flights, OneInFlight
from .ratelimit import Limiter, RateLimit, RateLimited
from .requestlog import RequestLog
from .security import AdminOrigin, SecurityHeaders
from .shedding import Shedder, ShedSpectators


async def _rate_limited(_: Request, err: Exception) -> JSONResponse:
    limited = err if isinstance(err, RateLimited) else RateLimited(1)  # only RateLimited comes
    headers = {"Retry-After": str(limited.retry_after)}
    return JSONResponse(limited.body(), status_code=429, headers=headers)


def install(
    app: FastAPI, settings: Settings, metrics: Metrics, clock: Callable[[], float] | None = None
) -> None:
    """Call after the body limit is added: each middleware added here wraps the ones before, so
    a request meets them in the reverse order: proxy headers (who is asking, over which scheme),
    the request log (its id, and a line with every answer's status), security headers (on every
    answer, 429 and 413 included), the admin Origin check, flooders' sockets, the spectator-socket
    budget, a bot token's one request in flight, the rate limits, then the body limit and the
    routes."""
    app.add_exception_handler(RateLimited, _rate_limited)  # before ApiError's: a subclass
    app.state.limiter = None
    if settings.limits_on:
        app.state.limiter = limiter = Limiter(settings, metrics)
        app.add_middleware(RateLimit, limiter=limiter)
        flights = Flights(metrics, clock or time.monotonic, settings.redis_url)
        app.add_middleware(OneInFlight, flights=flights)
    app.state.shedder = None
    if settings.spectator_sockets_per_second:
        app.state.shedder = shedder = Shedder(
            settings.spectator_sockets_per_second, settings.spectator_refusal_delay_ms / 1000
        )
        app.add_middleware(ShedSpectators, shedder=shedder)
    # the addresses whose socket was closed for flooding (set by app/http/sockets.py, read by
    # this middleware and by the HTTP protocol under `python -m app`)
    penalty = settings.ws_flood_penalty_seconds
    app.state.penalties = penalties = Penalties(penalty, clock or time.monotonic)
    if settings.ws_flood_penalty_seconds:
        app.add_middleware(RefuseFlooders, penalties=penalties)
    app.add_middleware(AdminOrigin, settings=settings)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestLog)
    # Applied here rather than by uvicorn (which runs with proxy_headers=False): one place reads
    # FORWARDED_ALLOW_IPS, and the tests' in-process clients go through the same code.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
