"""The app factory: settings, the wired services, routers, static files and error handlers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from .clocks import Clock, SystemClock
from .config import Settings
from .http import admin, admin_pages, api, docs, hardening, health, lifecycle, pages, ws
from .http.middleware import BodyLimit, install_errors
from .http.paths import STATIC
from .services.context import AppContext

log = logging.getLogger("watergate")
CHECKPOINT_SECONDS = 1.0


async def sweep_once(ctx: AppContext) -> list[str]:
    """Clock expiry and abandonment; every match that changed is pushed."""
    return await ctx.lifecycle.sweep()


async def _sweep_forever(ctx: AppContext, stop: asyncio.Event) -> None:
    """Sweep every few seconds until told to stop. Shutdown waits for a sweep under way rather
    than cancelling it: its worker thread would go on and use the database after it is closed."""
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), ctx.settings.sweep_seconds)
            return
        except TimeoutError:
            pass
        try:
            await sweep_once(ctx)
        except Exception:
            log.exception("sweep failed")


async def _checkpoint_forever(ctx: AppContext, stop: asyncio.Event) -> None:
    """Keep SQLite's write-ahead log short, off the event loop (commits never checkpoint)."""
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), CHECKPOINT_SECONDS)
            return
        except TimeoutError:
            pass
        try:
            await run_in_threadpool(ctx.db.checkpoint)
        except Exception:
            log.exception("checkpoint failed")


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """A new app; tests pass their own Settings (and a controllable clock)."""
    settings = settings or Settings()
    clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = await AppContext.start(settings, clock)
        app.state.ctx = ctx
        stop = asyncio.Event()
        sweeper = asyncio.create_task(_sweep_forever(ctx, stop))
        checkpointer = asyncio.create_task(_checkpoint_forever(ctx, stop))
        try:
            yield
        finally:
            stop.set()
            await sweeper
            await checkpointer
            await ctx.close()

    # FastAPI's own /docs has an inline script no CSP nonce reaches (http/docs.py serves it with
    # one); ReDoc and the OAuth redirect page are not used.
    app = FastAPI(
        title="Watergate Online",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    hardening.install(app, settings)
    install_errors(app)
    for module in (api, lifecycle, admin, ws, health, pages, admin_pages, docs):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
