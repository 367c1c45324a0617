"""The bell's endpoints (contract v1.2 "Notifications"), all as the player of X-Player-Token:
list one's notifications newest first in pages, mark them read, choose which kinds also come
by Web Push; and the bell socket, which pushes each new one live.

The socket's first message says who the player is, never the URL:
    {"type": "auth", "player_token": "<player token>"}
within WS_AUTH_SECONDS (else closed 4408; anything else 4401). Then the server sends
{"type": "unread", "unread": n} at once and whenever the count changes elsewhere, and
{"type": "notification", "notification": {...as listed}, "unread": n} for each new one;
the client may send {"type": "ping"} (answered {"type": "pong"}), within the message budget."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ApiError
from ..outages import ANSWERED, as_api_error
from ..push.bell import BellSocket
from ..services.context import AppContext
from ..services.notices import READ_IDS_MAX
from . import ratelimit
from .deps import CtxDep, PlayerTokenDep
from .schemas import ErrorBody
from .sockets import Meter, messages
from .ws import refuse

router = APIRouter()
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "player_required, or unknown_player"},
    422: {"model": ErrorBody, "description": "invalid_request, invalid_kind"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}
ID_MAX = 2**31 - 1  # a line's id is a 32-bit integer: a larger one names none
AUTH_HINT = '{"type": "auth", "player_token": "<player token>"}'


class NotificationOut(BaseModel):
    id: int
    kind: str
    at: str
    read: bool
    data: dict[str, Any]  # the producer's: name, match_id, game, reason, …
    url: str  # where the line leads (a path on this site)
    name: str | None  # the other person the line is about, if any


class NotificationsOut(BaseModel):
    unread: int
    items: list[NotificationOut]
    next_before: int | None  # ask again with ?before= this for the next page (None: no more)


class ReadBody(BaseModel):
    """Either `ids` (the player's lines to mark read) or `"all": true`."""

    model_config = ConfigDict(extra="forbid")

    ids: list[Annotated[int, Field(ge=1, le=ID_MAX)]] | None = Field(
        default=None, max_length=READ_IDS_MAX
    )
    all: bool = False


class UnreadOut(BaseModel):
    unread: int


class PushKinds(BaseModel):
    """The kinds that also come by Web Push (to the browsers that turned notices on)."""

    model_config = ConfigDict(extra="forbid")

    push: list[str] = Field(max_length=32)


@router.get("/api/notifications", response_model=NotificationsOut, responses=ERRORS)
async def notifications(
    request: Request,
    ctx: CtxDep,
    player: PlayerTokenDep,
    unread: bool = False,
    before: int | None = Query(default=None, ge=1, le=ID_MAX),
    limit: int = Query(default=20, ge=1, le=50),
) -> NotificationsOut:
    """The player's notifications, newest first (`unread=1`: only unread ones), `limit` a page
    (at most 50), older than `before` (an id) for the next page; and the unread count."""
    await ratelimit.check(request, "notifications")
    found = await ctx.notices.listed(player, unread, before, limit)
    return NotificationsOut.model_validate(
        {"unread": found.unread, "items": found.items, "next_before": found.next_before}
    )


@router.post("/api/notifications/read", response_model=UnreadOut, responses=ERRORS)
async def mark_read(body: ReadBody, ctx: CtxDep, player: PlayerTokenDep) -> UnreadOut:
    """Mark the lines `ids` read, or every line with `"all": true`; the unread count after.
    Ids that are not the player's are ignored."""
    if (body.ids is None) == (not body.all):
        raise ApiError(422, "invalid_request", 'Send either "ids" or "all": true.')
    return UnreadOut(unread=await ctx.notices.read(player, None if body.all else body.ids))


@router.get("/api/notifications/push", response_model=PushKinds, responses=ERRORS)
async def push_kinds(request: Request, ctx: CtxDep, player: PlayerTokenDep) -> PushKinds:
    """The kinds the player also gets by Web Push (by default every kind)."""
    await ratelimit.check(request, "notifications")
    return PushKinds(push=await ctx.notices.push_kinds(player))


@router.put("/api/notifications/push", response_model=PushKinds, responses=ERRORS)
async def choose_push(body: PushKinds, ctx: CtxDep, player: PlayerTokenDep) -> PushKinds:
    """Choose the kinds that also come by Web Push; the others come to the bell only."""
    return PushKinds(push=await ctx.notices.choose_push(player, body.push))


def _error(err: ApiError) -> str:
    return json.dumps({"type": "error", **err.body()})


async def _authenticated(ctx: AppContext, ws: WebSocket) -> str | None:
    """The player of the socket's first message, or None once it is refused or gone."""
    try:
        async with asyncio.timeout(ctx.settings.ws_auth_seconds):
            first = await anext(aiter(messages(ws)), None)
    except TimeoutError:
        await refuse(ctx, ws, ApiError(408, "auth_timeout", f"Send {AUTH_HINT} first."))
        return None
    if first is None:
        return None
    try:
        msg = json.loads(first) if len(first) <= ctx.settings.max_ws_frame_bytes else None
    except (ValueError, RecursionError):
        msg = None
    auth = isinstance(msg, dict) and msg.get("type") == "auth"
    token = msg.get("player_token") if auth and isinstance(msg, dict) else None
    if not isinstance(token, str) or not token:
        hint = f"The first message must be {AUTH_HINT}."
        await refuse(ctx, ws, ApiError(401, "unauthorized", hint))
        return None
    try:
        return await ctx.notices.player_id(token)
    except ANSWERED as err:
        await refuse(ctx, ws, as_api_error(err))
        return None


@router.websocket("/ws/notifications")
async def bell_socket(ws: WebSocket) -> None:
    """The player's bell, live."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    player = await _authenticated(ctx, ws)
    if player is None:
        return
    conn = BellSocket(ws, player)
    try:
        ctx.bell_room.add(conn)
    except ApiError as err:
        await refuse(ctx, ws, err)
        return
    meter = Meter(ctx, ws)
    try:
        await conn.send_text(await ctx.notices.hello(player))
        async for text in meter.messages():
            meter.refused(await _on_message(conn, text))
    except ANSWERED as err:  # the database away at the start: told, then closed
        await refuse(ctx, ws, as_api_error(err))
    finally:
        ctx.bell_room.remove(conn)


async def _on_message(conn: BellSocket, text: str) -> str | None:
    """One message after the auth; the code of the error it was answered with, if any."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        msg = None
    if isinstance(msg, dict) and msg.get("type") == "ping":
        await conn.send_text('{"type":"pong"}')
        return None
    await conn.send_text(_error(ApiError(400, "unknown_message", "Known message types: ping.")))
    return "unknown_message"
