"""Lobby endpoints (contract v1.1): the open public challenges, joining one, quick pairing,
cancelling one's own, and the lobby socket that pushes the list whenever it changes.

The lobby socket needs no token; to keep their challenges listed while they look on, a player
says who they are with a first (or any later) message, never in the URL:
    {"type": "auth", "player_token": "<player token>"}
Server messages: {"type": "lobby", "challenges": [...]}, {"type": "error", "code", "message"},
{"type": "pong"}, and to a socket that said who it is, {"type": "notified", "id"} whenever a
notification is stored for that player (a direct challenge, an answer to one: issue 43)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from ..addresses import client_key
from ..clocks import clock_option
from ..errors import ApiError
from ..games import SITES
from ..outages import ANSWERED, as_api_error
from ..push.lobby import LobbySocket
from ..services.context import AppContext
from ..services.lobby import Listed
from .deps import CtxDep, PlayerTokenDep
from .schemas import Claimed, ClockChoice, CreateMatch, ErrorBody
from .sockets import Meter
from .ws import refuse

router = APIRouter()
LOBBY_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "player_required, or unknown_player"},
    404: {"model": ErrorBody, "description": "No such match or challenge"},
    409: {"model": ErrorBody, "description": "taken (by someone else), or own_challenge"},
    429: {"model": ErrorBody, "description": "too_many_challenges(_from_address), rate_limited"},
}


class CreatorOut(BaseModel):
    player_id: str
    name: str
    rating: float | None
    reliability: int | None = None  # issue 43: 0-100, null below 5 ended games


class ChallengeOut(BaseModel):
    match_id: str
    game: str
    open_role: str
    creator: CreatorOut
    clock: str
    rated: bool
    created_at: str
    players: int = 2  # v1.2: the table's size
    open_seats: list[str] = []  # v1.2: the seats a joiner may still take, in seat order
    rules_version: str | None = None  # v1.2: the match's rules edition (issue 41)


class LobbyOut(BaseModel):
    challenges: list[ChallengeOut]


class QuickPair(BaseModel):
    """What a quick pairing looks for (and opens, finding nothing): the caller's wished seat."""

    model_config = ConfigDict(extra="forbid")

    game: str = "watergate"
    clock: ClockChoice = "none"
    rated: bool = False
    role: str = Field(default="random", max_length=16)
    players: int = Field(default=2, ge=1, le=8)  # v1.2: the table size looked for (and opened)


class JoinBody(BaseModel):
    """Which open seat of a table to take (v1.2); none: its first open one."""

    model_config = ConfigDict(extra="forbid")

    seat: str | None = Field(default=None, max_length=16)


class PairedOut(Claimed):
    created: bool  # true: no compatible challenge was open, so this one was opened


def wire(found: list[Listed]) -> LobbyOut:
    return LobbyOut.model_validate({"challenges": [asdict(c) for c in found]})


@router.get("/api/lobby", response_model=LobbyOut)
async def lobby(ctx: CtxDep, player: PlayerTokenDep) -> LobbyOut:
    """The open public challenges, oldest first (at most 100); with X-Player-Token, without
    those of players kept apart from it by a block."""
    found = await ctx.lobby.challenges()
    if player:
        with contextlib.suppress(ApiError):  # an unknown token: everyone's list
            me = await ctx.lobby.player_id(player)
            found = await ctx.lobby.visible_to(me, found)
    return wire(found)


@router.post("/api/lobby/{match_id}/join", response_model=Claimed, responses=LOBBY_ERRORS)
async def join(
    match_id: str, ctx: CtxDep, player: PlayerTokenDep, body: JoinBody | None = None
) -> Claimed:
    """Take a challenge's open seat (`seat`, else its first open one; as the player of
    X-Player-Token, or as a guest)."""
    made = await ctx.matches.join(match_id[:64], player, body.seat if body else None)
    return Claimed(match_id=made.match_id, role=made.seat, seat_token=made.seat_token)


@router.post("/api/lobby/quick", response_model=PairedOut, responses=LOBBY_ERRORS)
async def quick(
    body: QuickPair, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> PairedOut:
    """Join the oldest compatible challenge (same game, clock and rated; the wished role open;
    not one's own), or open one; needs X-Player-Token."""
    if body.game not in _games():
        raise ApiError(422, "invalid_request", f"game must be one of {sorted(_games())}.")
    choice = CreateMatch(clock=body.clock)
    clock = clock_option(*choice.clock_choice())
    done = await ctx.lobby.quick(
        player, body.game, body.clock, clock, body.rated, body.role, body.players,
        client_key(request.scope),
    )  # fmt: skip
    made = done.taken
    return PairedOut(
        match_id=made.match_id, role=made.seat, seat_token=made.seat_token, created=done.created
    )


@router.delete(
    "/api/lobby/{match_id}", status_code=204, responses={**LOBBY_ERRORS, 403: {"model": ErrorBody}}
)
async def cancel(match_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """The creator (X-Player-Token) takes the challenge out of the lobby; the match stays, as a
    private one whose invite link still works."""
    await ctx.lobby.cancel(player, match_id[:64])
    return Response(status_code=204)


def _games() -> set[str]:
    return set(SITES)  # what POST /api/matches creates: every game with a table


def _error(err: Exception) -> str:
    return json.dumps({"type": "error", **as_api_error(err).body()})


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """The lobby, live: the list at once and after every change."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    conn = LobbySocket(ws)
    try:
        ctx.lobby_room.add(conn)
    except ApiError as err:
        await refuse(ctx, ws, err)
        return
    meter = Meter(ctx, ws)
    try:
        async for text in meter.messages():
            meter.refused(await _on_message(ctx, conn, text))
    finally:
        await ctx.lobby_room.remove(conn)


async def _on_message(ctx: AppContext, conn: LobbySocket, text: str) -> str | None:
    """One message; the code of the error it was answered with, if any."""
    if len(text) > ctx.settings.max_ws_frame_bytes:
        await conn.send_text(_error(ApiError(413, "payload_too_large", "Too large.")))
        return "payload_too_large"
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        msg = None
    kind = msg.get("type") if isinstance(msg, dict) else None
    if kind == "ping":
        await conn.send_text('{"type":"pong"}')
    elif kind == "auth" and isinstance(msg, dict):
        token = msg.get("player_token")
        try:
            conn.player_id = await ctx.lobby.player_id(token if isinstance(token, str) else None)
            ctx.lobby_room.wake()  # its list as this player sees it (blocks hide challenges)
        except ANSWERED as err:
            answer = as_api_error(err)
            await conn.send_text(_error(answer))
            return answer.code
    else:
        hint = "Known message types: auth (with player_token), ping."
        await conn.send_text(_error(ApiError(400, "unknown_message", hint)))
        return "unknown_message"
    return None
