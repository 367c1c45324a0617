"""Request guards and error answers: the body size limit and every rejection as JSON."""

from __future__ import annotations

import contextlib
import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketState

from ..errors import ApiError
from ..outages import OUTAGES, RETRY_AFTER, unavailable

log = logging.getLogger("watergate.http")


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


def install_errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, err: ApiError) -> JSONResponse:
        return JSONResponse(err.body(), status_code=err.status, headers=err.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}"[:300]
        code = "invalid_json" if first.get("type") == "json_invalid" else "invalid_request"
        return JSONResponse({"code": code, "message": message}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, err: StarletteHTTPException) -> JSONResponse:
        if err.status_code == 400:  # FastAPI's only 400: a body its JSON parser gave up on
            # (nested too deeply for it, say); our own refusals are ApiErrors with their codes
            return JSONResponse(
                {"code": "invalid_json", "message": "The body is not JSON that can be read."},
                status_code=400,
            )
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return JSONResponse({"code": code, "message": str(err.detail)}, status_code=err.status_code)

    async def _unavailable(conn: HTTPConnection, err: Exception) -> JSONResponse | None:
        """The database or Redis is away: 503 for a request; a socket that cannot be opened
        gets the error frame and is closed 4503, as any socket that cannot be served."""
        # the driver's own words: SQLAlchemy's text adds the SQL and its parameters (token hashes)
        words = str(getattr(err, "orig", None) or err).strip().partition("\n")[0]
        where = f"{conn.scope.get('method', 'WS')} {conn.url.path}"
        log.warning("%s: unavailable (%s: %s)", where, type(err).__name__, words)
        body = unavailable().body()
        if isinstance(conn, WebSocket):
            conn.app.state.ctx.metrics.refused(4503, "unavailable")
            if conn.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):  # the socket may be gone as well
                    await conn.send_text(json.dumps({"type": "error", **body}))
                    await conn.close(code=4503)
            return None
        return JSONResponse(body, status_code=503, headers={"Retry-After": RETRY_AFTER})

    for outage in OUTAGES:
        app.add_exception_handler(outage, _unavailable)  # type: ignore[arg-type]

    @app.exception_handler(RecursionError)
    async def _too_deep(_: Request, err: RecursionError) -> JSONResponse:
        return JSONResponse(
            {"code": "invalid_json", "message": "The JSON is nested too deeply."}, status_code=400
        )
