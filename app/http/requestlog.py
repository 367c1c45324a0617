"""One log line per HTTP request, with a request id: made here, or taken from the client's
`X-Request-ID` when it is short and plain; echoed in the response's `X-Request-ID` and carried by
every line logged while the request is served (a socket's messages get ids of their own)."""

from __future__ import annotations

import logging
import re
import time
from typing import Final
from urllib.parse import quote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..logs import REQUEST_ID, fields, new_request_id

log = logging.getLogger("watergate.request")
HEADER: Final = b"x-request-id"
# What a proxy or a client's tracing puts there (a UUID, a hex id, "req-42:1"): anything longer
# or with other characters could forge a log line's look or carry junk into it, so it is
# replaced by an id of our own.
SAFE_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def request_id(scope: Scope) -> str:
    """The client's X-Request-ID when it is safe to log and echo, else a new one."""
    for name, value in scope["headers"]:
        if name == HEADER:
            given = value.decode("latin-1")
            return given if SAFE_ID.fullmatch(given) else new_request_id()
    return new_request_id()


def _target(scope: Scope) -> str:
    """The path and query as uvicorn's access line printed them (the formatter scrubs it)."""
    query = scope.get("query_string", b"").decode("latin-1")
    return quote(scope["path"]) + (f"?{query}" if query else "")


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else None


class RequestLog:
    """Wraps everything but the proxy headers (so `client` is the address they name): the line
    tells a request's status even when the rate limit, the body limit or the Origin check
    answered it. uvicorn's own access line is switched off; this one replaces it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)
        token = REQUEST_ID.set(rid)
        if scope["type"] == "websocket":  # the socket's opening; uvicorn logs it "[accepted]"
            try:
                await self.app(scope, receive, send)
            finally:
                REQUEST_ID.reset(token)
            return
        started, status, logged = time.perf_counter(), 500, False  # 500: raised before answering

        def line() -> None:
            """Written as the answer's last part goes out, not after: the client may act on the
            answer (or stop the server) before a line written later would be."""
            nonlocal logged
            logged = True
            method, target = scope["method"], _target(scope)
            version = scope.get("http_version", "1.1")
            log.info(
                '"%s %s HTTP/%s" %d',
                method, target, version, status,
                extra=fields(
                    method=method, path=target, status=status, client=_client(scope),
                    duration_ms=round((time.perf_counter() - started) * 1000, 2),
                ),
            )  # fmt: skip

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (HEADER, rid.encode())],
                }
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                line()
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if not logged:
                line()
            REQUEST_ID.reset(token)
