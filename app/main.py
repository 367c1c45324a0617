"""The app factory: settings, the wired services, routers, static files and error handlers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware

from .clocks import Clock, SystemClock
from .config import Settings
from .http import (
    account_pages,
    accounts,
    admin,
    admin_pages,
    analysis,
    api,
    bot_api,
    developers,
    docs,
    hardening,
    health,
    lessons,
    lifecycle,
    lobby,
    moderation,
    notifications,
    pages,
    people,
    players,
    privacy,
    push,
    replays,
    tournaments,
    ws,
)  # fmt: skip
from .http import prometheus as metrics_route
from .http.middleware import BodyLimit, install_errors
from .http.paths import STATIC
from .metrics import Metrics, probe_loop
from .services.context import AppContext
from .services.privacy import Privacy
from .supervise import every, finish, supervise

CHECKPOINT_SECONDS = 1.0
SWEEP_GRACE = 5.0  # seconds shutdown waits for a sweep under way before it cancels it
LOBBY_SWEEP_SECONDS = 30.0  # how often creators' presence is noted and stale challenges expire
RETENTION_SWEEP_SECONDS = 3600.0  # how often records past their retention time are removed


async def sweep_once(ctx: AppContext) -> list[str]:
    """Clock expiry and abandonment; every match that changed is pushed."""
    return await ctx.lifecycle.sweep()


async def lobby_sweep_once(ctx: AppContext) -> list[str]:
    """Note which challenge creators this process sees connected (a lobby socket, or a socket on
    their own table), and take the challenges of creators away too long out of the lobby."""
    tables = {c.match_id for c in ctx.hub.connections() if c.viewer is not None}
    await ctx.challenges.expire()  # direct challenges past their time, and their matches
    return await ctx.lobby.sweep(ctx.lobby_room.players(), tables)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """A new app; tests pass their own Settings (and a controllable clock)."""
    settings = settings or Settings()
    clock = clock or SystemClock()
    metrics = Metrics()  # made with the app: the rate limits count into it before the start

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = await AppContext.start(settings, clock, metrics)
        app.state.ctx = ctx
        stop = asyncio.Event()
        # clock expiry and abandonment; the lobby's creators; records past their retention
        # (issue 43, README: Privacy and retention); SQLite's write-ahead log kept short, off
        # the event loop (commits never checkpoint)
        sweeper = every("sweeper", settings.sweep_seconds, lambda: sweep_once(ctx), stop)
        lobby_sweeper = every(
            "lobby sweeper", LOBBY_SWEEP_SECONDS, lambda: lobby_sweep_once(ctx), stop
        )
        retention = every(
            "retention", RETENTION_SWEEP_SECONDS, lambda: Privacy(ctx.core).prune(), stop
        )
        checkpointer = every(
            "checkpointer", CHECKPOINT_SECONDS, lambda: run_in_threadpool(ctx.db.checkpoint), stop
        )
        lag = supervise("event-loop probe", lambda: probe_loop(metrics, stop), stop=stop)
        director = supervise("tournament director", lambda: ctx.director.run(stop), stop=stop)
        try:
            yield
        finally:
            stop.set()
            await finish(sweeper, SWEEP_GRACE)
            await finish(checkpointer, SWEEP_GRACE)
            await finish(lag)
            await finish(lobby_sweeper, SWEEP_GRACE)
            await finish(retention, SWEEP_GRACE)
            await finish(director, SWEEP_GRACE)
            await ctx.close()

    # FastAPI's own /docs has an inline script no CSP nonce reaches (http/docs.py serves it with
    # one, when API_DOCS is on); ReDoc and the OAuth redirect page are not used.
    app = FastAPI(
        title="Watergate Online",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    # innermost: a page carries its locale and the game's card data (Nations' is ~130 KB of
    # HTML), which a phone on a slow line otherwise waits for uncompressed (Lighthouse: first
    # paint ~2 s); a middle level, as the answers are small and the CPU is the players'
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=5)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    # the flooders' penalties run on the app's clock (tests move it); only differences count
    hardening.install(app, settings, metrics, clock.now)
    install_errors(app)
    for module in (
        api, players, lifecycle, replays, admin, ws, health, metrics_route, pages, admin_pages,
        accounts, account_pages, lobby, push, analysis, lessons, privacy, moderation, bot_api,
        notifications, people, tournaments, developers,
    ):  # fmt: skip
        app.include_router(module.router)
    if settings.api_docs:  # an operator's choice: it loads Swagger UI from a CDN (http/docs.py)
        app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
