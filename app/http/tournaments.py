"""Tournament endpoints (issue 46, contract v1.2 "Tournaments"): create, list, read (standings,
games in progress, your place), join and withdraw (X-Player-Token of an account), the export of
every game and the standings, the admin's and moderators' list of every tournament, actions and
record, the live socket of a tournament's page, and the two pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ApiError
from ..outages import ANSWERED, as_api_error
from ..push.tournament_room import TournamentSocket, frame
from ..services.context import AppContext
from ..services.tournaments import Wanted
from . import ratelimit
from .deps import CtxDep, PlayerTokenDep, is_admin
from .pages import _page
from .schemas import ErrorBody
from .sockets import Meter, messages
from .ws import refuse

router = APIRouter()
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "player_required, unknown_player"},
    403: {"model": ErrorBody, "description": "account_required, not_enough_games, "
          "invite_required, removed, rating_too_low, bot_not_allowed, banned, not_moderator"},
    404: {"model": ErrorBody, "description": "No such tournament (or player)"},
    409: {"model": ErrorBody, "description": "already_joined, not_joined, tournament_full, "
          "tournament_closed, berserk_unavailable, not_your_game"},
    422: {"model": ErrorBody, "description": "invalid_clock, invalid_minutes, invalid_rounds, "
          "too_many_rounds, invalid_format, invalid_table_size, invalid_max_players, "
          "invalid_start, invalid_round_days, invalid_action"},
    429: {"model": ErrorBody, "description": "rate_limited, too_many_tournaments"},
}  # fmt: skip
TournamentId = Annotated[str, Field(min_length=1, max_length=32)]


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=3, max_length=60)
    game: Literal["watergate", "nations"] = "watergate"
    format: Literal["arena", "swiss", "tables"] = "arena"
    clock: Literal["realtime-15", "realtime-30", "turn-1", "turn-3"] = "realtime-15"
    starts_at: datetime
    minutes: int | None = Field(default=60, ge=1, le=24 * 60)
    rounds: int | None = Field(default=None, ge=1, le=50)
    table_size: int | None = Field(default=None, ge=3, le=5)
    rated: bool = True
    max_players: int = Field(default=100, ge=1, le=10_000)
    min_rating: int | None = Field(default=None, ge=0, le=4000)
    min_games: int | None = Field(default=None, ge=0, le=10_000)
    private: bool = False
    # a correspondence round format's round length (1-14 days; default 3), checked by the service
    round_days: int | None = Field(default=None, ge=-1000, le=1000)


class CreatedOut(BaseModel):
    tournament_id: str
    join_code: str | None


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, max_length=64)


class AdminBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["cancel", "pause", "resume", "remove"]
    player_id: str | None = Field(default=None, min_length=1, max_length=32)
    reason: str = Field(min_length=1, max_length=500)


@router.post("/api/tournaments", status_code=201, response_model=CreatedOut, responses=ERRORS)
async def create(
    body: CreateTournament, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> Any:
    """Create a tournament: the admin or a moderator any; a player with 20 rated games of the
    game a private one (joined by its link's code) or two public ones a day."""
    if body.starts_at.tzinfo is None:
        raise ApiError(422, "invalid_start", "starts_at needs a time zone (e.g. Z).")
    wanted = Wanted(
        body.name.strip(), body.game, body.format, body.clock, body.starts_at, body.minutes,
        body.rounds, body.table_size, body.rated, body.max_players, body.min_rating,
        body.min_games, body.private, body.round_days,
    )  # fmt: skip
    made = await ctx.tournaments.create(player, await is_admin(request), wanted)
    return CreatedOut(tournament_id=made.tournament_id, join_code=made.join_code)


@router.get("/api/tournaments", responses=ERRORS)
async def listed(
    ctx: CtxDep, game: Literal["watergate", "nations"] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Public tournaments: running, upcoming (soonest first) and finished (latest first)."""
    return await ctx.tournaments.listed(game)


@router.get("/api/tournaments/{tournament_id}", responses=ERRORS)
async def one(
    tournament_id: str,
    ctx: CtxDep,
    token: PlayerTokenDep,
    page: Annotated[int, Query(ge=1, le=100)] = 1,
    sort: Literal["rank", "name", "games", "rating"] = "rank",
) -> dict[str, Any]:
    """The tournament: status, standings (50 a page, by rank or by name, games or rating),
    games in progress with their spectator links, the podium once finished, and `me` (your
    place, game and results) with your token."""
    return await ctx.tournaments.one(tournament_id, token, page, sort)


@router.get("/api/tournaments/{tournament_id}/players/{player_id}", responses=ERRORS)
async def results_of(tournament_id: str, player_id: str, ctx: CtxDep) -> dict[str, Any]:
    """One entrant's games in the tournament, latest first, with their results."""
    return await ctx.tournaments.results_of(tournament_id, player_id)


@router.get("/api/tournaments/{tournament_id}/export", responses=ERRORS)
async def export(tournament_id: str, request: Request, ctx: CtxDep) -> dict[str, Any]:
    """Every game id with its seats and results, and the whole standings."""
    await ratelimit.check(request, "replay")
    return await ctx.tournaments.export(tournament_id)


@router.post("/api/tournaments/{tournament_id}/join", status_code=204, responses=ERRORS)
async def join(
    tournament_id: str, ctx: CtxDep, player: PlayerTokenDep, body: JoinBody | None = None
) -> Response:
    await ctx.tournament_entries.join(player, tournament_id, body.code if body else None)
    return Response(status_code=204)


@router.post("/api/tournaments/{tournament_id}/withdraw", status_code=204, responses=ERRORS)
async def withdraw(tournament_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """Leave; a game under way goes on, no new pairing comes."""
    await ctx.tournament_entries.withdraw(player, tournament_id)
    return Response(status_code=204)


class BerserkBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    match_id: str = Field(min_length=1, max_length=32)


@router.post("/api/tournaments/{tournament_id}/berserk", status_code=204, responses=ERRORS)
async def berserk(
    tournament_id: str, body: BerserkBody, ctx: CtxDep, player: PlayerTokenDep
) -> Response:
    """Halve your own clock (and drop its increment) before your first move of an arena game:
    a win then scores a point more. 409 berserk_unavailable after it, or not_your_game."""
    await ctx.tournament_entries.berserk(player, tournament_id, body.match_id)
    return Response(status_code=204)


@router.post("/api/tournaments/{tournament_id}/admin", status_code=204, responses=ERRORS)
async def act(
    tournament_id: str, body: AdminBody, request: Request, ctx: CtxDep, token: PlayerTokenDep
) -> Response:
    """Cancel, pause, resume, or remove a player (admin or moderator), recorded with why."""
    await ctx.tournament_admin.act(
        token, await is_admin(request), tournament_id, body.action, body.player_id, body.reason
    )
    return Response(status_code=204)


@router.get("/api/admin/tournaments", responses=ERRORS)
async def every(
    request: Request,
    ctx: CtxDep,
    token: PlayerTokenDep,
    status: Literal["upcoming", "running", "finished", "canceled"] | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """Every tournament, private ones too, of one status or any, the newest first, with how many
    there are (the admin, or a moderator's X-Player-Token)."""
    return await ctx.tournament_admin.every(token, await is_admin(request), status, limit, offset)


@router.get("/api/tournaments/{tournament_id}/history", responses=ERRORS)
async def history(
    tournament_id: str, request: Request, ctx: CtxDep, token: PlayerTokenDep
) -> dict[str, Any]:
    """Every action taken and every pairing made (admin or moderator)."""
    return await ctx.tournament_admin.history(token, await is_admin(request), tournament_id)


@router.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
async def tournaments_page(request: Request) -> HTMLResponse:
    return _page(request, "tournaments.html", page="tournaments")


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse, include_in_schema=False)
async def tournament_page(request: Request, tournament_id: str) -> HTMLResponse:
    return _page(request, "tournament.html", page="tournament", tournament_id=tournament_id[:32])


async def _who(ctx: AppContext, ws: WebSocket, tid: str) -> tuple[bool, str | None]:
    """The first message: `{"type":"auth","player_token"}` or `{"type":"watch"}`. (served, the
    entrant's player id when the token is an entrant's)."""
    try:
        async with asyncio.timeout(ctx.settings.ws_auth_seconds):
            first = await anext(aiter(messages(ws)), None)
    except TimeoutError:
        await refuse(ctx, ws, ApiError(408, "auth_timeout", "Send auth or watch first."))
        return False, None
    if first is None:
        return False, None
    try:
        msg = json.loads(first) if len(first) <= ctx.settings.max_ws_frame_bytes else None
    except (ValueError, RecursionError):
        msg = None
    kind = msg.get("type") if isinstance(msg, dict) else None
    token = msg.get("player_token") if isinstance(msg, dict) else None
    if kind == "watch" or (kind == "auth" and isinstance(token, str) and token):
        try:
            return True, await ctx.tournaments.entrant_of(tid, token if kind == "auth" else None)
        except ANSWERED as err:
            await refuse(ctx, ws, as_api_error(err))
            return False, None
    hint = 'The first message must be {"type":"auth","player_token":…} or {"type":"watch"}.'
    await refuse(ctx, ws, ApiError(401, "unauthorized", hint))
    return False, None


def _is_ping(text: str) -> bool:
    try:
        msg = json.loads(text) if len(text) <= 64 else None
    except (ValueError, RecursionError):
        return False
    return isinstance(msg, dict) and msg.get("type") == "ping"


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(ws: WebSocket, tournament_id: str) -> None:
    """The tournament's page, live: pushed again (coalesced) whenever it changes. An entrant's
    socket marks them present: only players with the page open are paired."""
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    tid = tournament_id[:32]
    served, player = await _who(ctx, ws, tid)
    if not served:
        return
    conn = TournamentSocket(ws, tid, player)
    try:
        ctx.tournament_room.add(conn)
    except ApiError as err:
        await refuse(ctx, ws, err)
        return
    meter = Meter(ctx, ws)
    try:
        if player is not None:
            await ctx.director.presence(tid, player, True)
        page, lines = await ctx.tournament_room.current(tid)
        await conn.send_text(frame(page, lines.get(player) if player else None))
        async for text in meter.messages():
            if _is_ping(text):
                await conn.send_text('{"type":"pong"}')
                continue
            await conn.send_text(
                json.dumps({"type": "error", "code": "unknown_message", "message": "ping only"})
            )
            meter.refused("unknown_message")
    except ANSWERED as err:
        await refuse(ctx, ws, as_api_error(err))
    finally:
        last = ctx.tournament_room.remove(conn)
        if player is not None and last:
            # the database away: they stay marked present, and a game they miss ends on its clock
            with contextlib.suppress(Exception):
                await ctx.director.presence(tid, player, False)
