"""The app factory: settings, database, cache, services, realtime, bots, routers, error handlers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .bots import BotRunner
from .clock import Clock, SystemClock
from .config import Settings
from .context import AppContext
from .db import Database
from .errors import ApiError
from .lifecycle import Lifecycle
from .live import Live, Presence
from .matches import MatchService
from .paths import STATIC
from .realtime import Broadcaster, Hub, LocalBroadcaster, RedisBroadcaster
from .routes import admin, admin_pages, api, health, lifecycle, pages, ws
from .store import StateStore

log = logging.getLogger("watergate")


class BodyLimit:
    """Refuse request bodies over the limit with 413 before anything parses them: by the declared
    length, or (chunked uploads) by reading at most limit + 1 bytes and replaying them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await _too_large(send)
                return
            await self.app(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                await _too_large(send)
                return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send) -> None:
    body = b'{"code":"payload_too_large","message":"The request body is too large."}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, err: ApiError) -> JSONResponse:
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}"[:300]
        code = "invalid_json" if first.get("type") == "json_invalid" else "invalid_request"
        return JSONResponse({"code": code, "message": message}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, err: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return JSONResponse({"code": code, "message": str(err.detail)}, status_code=err.status_code)

    @app.exception_handler(RecursionError)
    async def _too_deep(_: Request, err: RecursionError) -> JSONResponse:
        return JSONResponse(
            {"code": "invalid_json", "message": "The JSON is nested too deeply."}, status_code=400
        )


async def sweep_once(ctx: AppContext) -> list[str]:
    """Clock expiry and abandonment; push every match that changed."""
    changed = await run_in_threadpool(ctx.lifecycle.sweep, ctx.clock.now())
    for match_id in changed:
        await ctx.changed(match_id)
    return changed


async def _sweep_forever(ctx: AppContext) -> None:
    while True:
        await asyncio.sleep(ctx.settings.sweep_seconds)
        try:
            await sweep_once(ctx)
        except Exception:
            log.exception("sweep failed")


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """A new app; tests pass their own Settings (and a controllable clock)."""
    settings = settings or Settings()
    clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url)
        service = MatchService(db, StateStore(settings.cache_matches), clock)
        hub = Hub()
        broadcaster: Broadcaster = (
            RedisBroadcaster(hub, settings.redis_url)
            if settings.redis_url
            else LocalBroadcaster(hub)
        )
        await broadcaster.start()
        # Fewer worker threads than anyio's 40: database work is short, and a crowd of threads
        # fighting for the GIL stretched the one holding the write lock (p99 latency spikes).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        bots = BotRunner(
            service,
            broadcaster,
            settings.bot_delay_ms,
            settings.bot_kind,
            settings.bot_budget_ms,
            clock,
        )
        lifecycle = Lifecycle(service)
        presence = Presence(hub, getattr(broadcaster, "redis", None))
        await presence.start()
        live = Live(service, lifecycle, presence, clock)
        ctx = AppContext(
            settings, db, service, hub, broadcaster, bots, lifecycle, presence, live, clock
        )
        app.state.ctx = ctx
        await bots.resume_all()
        sweeper = asyncio.create_task(_sweep_forever(ctx))
        try:
            yield
        finally:
            sweeper.cancel()
            await bots.close()
            await presence.close()
            await broadcaster.close()
            db.dispose()

    app = FastAPI(title="Watergate Online", version="1", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    _install_errors(app)
    for module in (api, lifecycle, admin, ws, health, pages, admin_pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
