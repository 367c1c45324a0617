"""The match websockets: a seat's socket (actions in, views and errors out) and a spectator's
read-only socket. A full view is sent at once and after every change.

Client messages on a seat's socket (one handler per `type`):
    {"type": "action", "action": {...from legal_actions...}, "expected_version": 12}
    {"type": "ping"}
Server messages: {"type": "view", ...view}, {"type": "error", "code", "message"}, {"type": "pong"}.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..errors import ApiError
from ..outages import ANSWERED, as_api_error
from ..push.hub import Connection
from ..services.context import AppContext

router = APIRouter()
Handler = Callable[[AppContext, Connection, dict[str, Any]], Awaitable[None]]


def _error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


async def _on_action(ctx: AppContext, conn: Connection, msg: dict[str, Any]) -> None:
    """{"type": "action", "action": {"type": "pass"}, "expected_version": 7}"""
    if conn.viewer is None:
        raise ApiError(403, "spectator", "Spectators cannot play.")
    expected = msg.get("expected_version")
    if expected is not None and (type(expected) is not int or expected < 0):
        raise ApiError(422, "invalid_request", "expected_version must be a non-negative integer.")
    if "action" not in msg:
        raise ApiError(422, "invalid_request", 'An action message needs an "action" object.')
    await ctx.play.act(conn.match_id, conn.viewer, msg["action"], expected)


async def _on_ping(ctx: AppContext, conn: Connection, msg: dict[str, Any]) -> None:
    """{"type": "ping"}"""
    await conn.send_text('{"type":"pong"}')


HANDLERS: dict[str, Handler] = {"action": _on_action, "ping": _on_ping}


async def _handle(ctx: AppContext, conn: Connection, text: str) -> None:
    if len(text) > ctx.settings.max_ws_frame_bytes:
        await conn.send_text(_error("payload_too_large", "The message is too large."))
        return
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        await conn.send_text(_error("invalid_json", "Messages must be JSON objects."))
        return
    kind = msg.get("type") if isinstance(msg, dict) else None
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        await conn.send_text(_error("unknown_message", "Known message types: action, ping."))
        return
    try:
        await handler(ctx, conn, msg)
    except ANSWERED as err:  # an outage is answered `unavailable`; the socket stays
        await conn.send_text(json.dumps({"type": "error", **as_api_error(err).body()}))


async def _serve(ctx: AppContext, ws: WebSocket, conn: Connection) -> None:
    """Keep the socket until the client leaves; presence is announced both ways."""
    await ctx.lifecycle.join(conn)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            await _handle(ctx, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        await ctx.lifecycle.leave(conn)


async def _refuse(ws: WebSocket, err: ApiError) -> None:
    await ws.send_text(json.dumps({"type": "error", **err.body()}))
    await ws.close(code=4000 + err.status)


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: str, token: str | None = None) -> None:
    """One seat's live connection to its match."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    try:
        conn = await ctx.views.seat_socket(ws, token, match_id)
    except ApiError as err:
        await _refuse(ws, err)
        return
    await _serve(ctx, ws, conn)


@router.websocket("/ws/watch/{match_id}")
async def spectator_socket(ws: WebSocket, match_id: str, key: str | None = None) -> None:
    """A spectator's read-only live connection: public information only."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    try:
        conn = await ctx.views.spectator_socket(ws, match_id, key)
    except ApiError as err:
        await _refuse(ws, err)
        return
    await _serve(ctx, ws, conn)
