"""The match websockets: a seat's socket (actions in, views and errors out) and a spectator's
read-only socket. A full view is sent at once and after every change.

A seat's socket without `?token=` authenticates with its first message, so that no seat token
appears in a URL (or in a log line that prints one):
    {"type": "auth", "token": "<seat token>"}
Client messages after that (one handler per `type`):
    {"type": "action", "action": {...from legal_actions...}, "expected_version": 12}
    {"type": "ping"}
    {"type": "chat", "text": "…"} or {"type": "chat", "phrase": "good_game"} (v1.1)
Server messages: {"type": "view", ...view}, {"type": "error", "code", "message"}, {"type": "pong"},
{"type": "chat", "role", "name", "text", "at", "phrase"?} (seats and spectators alike).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket

from ..errors import ApiError
from ..logs import REQUEST_ID, new_request_id
from ..outages import ANSWERED, as_api_error
from ..push.hub import Connection
from ..services.context import AppContext
from .ratelimit import client_key
from .sockets import Meter

router = APIRouter()
AUTH_HINT = '{"type": "auth", "token": "<seat token>"}'
# (app, socket, the message, when it arrived: epoch seconds)
Handler = Callable[[AppContext, Connection, dict[str, Any], float], Awaitable[None]]


def _error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


async def _on_action(ctx: AppContext, conn: Connection, msg: dict[str, Any], at: float) -> None:
    """{"type": "action", "action": {"type": "pass"}, "expected_version": 7}"""
    if conn.viewer is None:
        raise ApiError(403, "spectator", "Spectators cannot play.")
    expected = msg.get("expected_version")
    if expected is not None and (type(expected) is not int or expected < 0):
        raise ApiError(422, "invalid_request", "expected_version must be a non-negative integer.")
    if "action" not in msg:
        raise ApiError(422, "invalid_request", 'An action message needs an "action" object.')
    await ctx.play.act(conn.match_id, conn.viewer, msg["action"], expected, at, person=True)


async def _on_ping(ctx: AppContext, conn: Connection, msg: dict[str, Any], at: float) -> None:
    """{"type": "ping"}"""
    await conn.send_text('{"type":"pong"}')


async def _on_auth(ctx: AppContext, conn: Connection, msg: dict[str, Any], at: float) -> None:
    """{"type": "auth", ...} once the socket already serves a seat: nothing to change."""
    raise ApiError(409, "already_authenticated", "This socket is already authenticated.")


async def _on_chat(ctx: AppContext, conn: Connection, msg: dict[str, Any], at: float) -> None:
    """{"type": "chat", "text": "Good move!"}, or a preset: {"type": "chat", "phrase": "thanks"}"""
    address = client_key(conn.ws.scope)
    await ctx.chat.say(conn.match_id, conn.viewer, msg.get("text"), msg.get("phrase"), address)


HANDLERS: dict[str, Handler] = {
    "action": _on_action, "ping": _on_ping, "auth": _on_auth, "chat": _on_chat,
}  # fmt: skip


async def _handle(ctx: AppContext, conn: Connection, text: str) -> str | None:
    """One message; each is a request of its own, with its own request id in the log. The code
    of the error it was answered with, if any."""
    at = time.time()
    token = REQUEST_ID.set(new_request_id())
    try:
        return await _dispatch(ctx, conn, text, at)
    finally:
        REQUEST_ID.reset(token)


async def _dispatch(ctx: AppContext, conn: Connection, text: str, at: float) -> str | None:
    if len(text) > ctx.settings.max_ws_frame_bytes:
        return await _refuse(conn, "payload_too_large", "The message is too large.")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return await _refuse(conn, "invalid_json", "Messages must be JSON objects.")
    kind = msg.get("type") if isinstance(msg, dict) else None
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return await _refuse(conn, "unknown_message", "Known message types: action, chat, ping.")
    try:
        await handler(ctx, conn, msg, at)
    except ANSWERED as err:  # an outage is answered `unavailable`; the socket stays
        answer = as_api_error(err)
        await conn.send_text(json.dumps({"type": "error", **answer.body()}))
        return answer.code
    return None


async def _refuse(conn: Connection, code: str, message: str) -> str:
    await conn.send_text(_error(code, message))
    return code


async def _serve(ctx: AppContext, ws: WebSocket, conn: Connection) -> None:
    """Keep the socket until the client leaves; presence is announced both ways. A socket over
    one of the caps is refused (4429) before it counts for anything."""
    try:
        await ctx.lifecycle.join(conn)
    except ApiError as err:
        await refuse(ctx, ws, err)
        return
    meter = Meter(ctx, ws)
    try:
        async for text in meter.messages():
            meter.refused(await _handle(ctx, conn, text))
    finally:
        await ctx.lifecycle.leave(conn)


async def refuse(ctx: AppContext, ws: WebSocket, err: ApiError) -> None:
    """Tell the client why in an error frame, then close with 4000 + the status."""
    ctx.metrics.refused(4000 + err.status, err.code)
    await ws.send_text(json.dumps({"type": "error", **err.body()}))
    await ws.close(code=4000 + err.status)


def _auth_token(text: str) -> str | None:
    """The token of an auth message, or None when the text is anything else."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(msg, dict) or msg.get("type") != "auth":
        return None
    token = msg.get("token")
    return token if isinstance(token, str) and token else None


async def _first_frame_token(ctx: AppContext, ws: WebSocket) -> str | None:
    """The seat token from the socket's first message, or None once the socket is refused
    (4408 when nothing came in time, 4401 for anything but an auth message) or gone. Nothing
    about the match is looked up before it: what the answer tells a stranger is what ?token=
    tells (v1)."""
    try:
        async with asyncio.timeout(ctx.settings.ws_auth_seconds):
            message = await ws.receive()
    except TimeoutError:
        await refuse(ctx, ws, ApiError(408, "auth_timeout", f"Send {AUTH_HINT} first."))
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", "replace")
    token = _auth_token(text) if len(text) <= ctx.settings.max_ws_frame_bytes else None
    if token is None:
        hint = f"The first message must be {AUTH_HINT}."
        await refuse(ctx, ws, ApiError(401, "unauthorized", hint))
    return token


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: str, token: str | None = None) -> None:
    """One seat's live connection to its match: the token in the first message (or, as in v1,
    in ?token=)."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    if token is None:
        token = await _first_frame_token(ctx, ws)
        if token is None:
            return
    try:
        conn = await ctx.views.seat_socket(ws, token, match_id)
    except ApiError as err:
        await refuse(ctx, ws, err)
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
        await refuse(ctx, ws, err)
        return
    await _serve(ctx, ws, conn)
