"""Reports and moderation endpoints (issue 43, contract v1.2 "People"): a player files reports
and reads their status; moderators (X-Player-Token of a flagged account) or the admin (its token
or console session) read the queue and a player's history and act; the admin grants the
moderator flag; a player reads their own warnings and sanctions and acknowledges a warning."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..services.moderation import Act
from ..services.reports import NewReport
from .deps import AdminDep, CtxDep, PlayerTokenDep, is_admin
from .schemas import ErrorBody

router = APIRouter()
INT32 = 2**31 - 1  # ids of reports, lines and actions: a larger number names none
RowId = Annotated[int, Field(ge=1, le=INT32)]
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "unknown_player (or the admin token is wrong)"},
    403: {"model": ErrorBody, "description": "not_moderator"},
    404: {"model": ErrorBody, "description": "not_found"},
    422: {"model": ErrorBody, "description": "invalid_report, invalid_action, not_an_account"},
    429: {"model": ErrorBody, "description": "rate_limited, too_many_reports"},
}


class ReportBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: str = Field(min_length=1, max_length=32)
    reason: Literal["abuse", "name", "cheating", "stalling", "other"]
    text: str | None = Field(default=None, max_length=500)
    match_id: str | None = Field(default=None, min_length=1, max_length=32)
    chat_id: RowId | None = None


class ReportFiled(BaseModel):
    report_id: int


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: str = Field(min_length=1, max_length=32)
    action: Literal["dismiss", "warn", "mute", "ban", "lift", "reset_name", "close"]
    reason: str = Field(min_length=1, max_length=500)
    scope: str | None = Field(default=None, max_length=16)
    minutes: int | None = Field(default=None, ge=1, le=60 * 24 * 366)
    report_ids: list[RowId] = Field(default_factory=list, max_length=100)


class ActionDone(BaseModel):
    action_id: int


@router.post("/api/reports", status_code=201, response_model=ReportFiled, responses=ERRORS)
async def file_report(body: ReportBody, ctx: CtxDep, player: PlayerTokenDep) -> ReportFiled:
    """Report a player (X-Player-Token: the reporter); `abuse` also blocks them for you."""
    found = NewReport(body.player_id, body.reason, body.text, body.match_id, body.chat_id)
    return ReportFiled(report_id=await ctx.reports.file(player, found))


@router.get("/api/reports/mine", responses=ERRORS)
async def my_reports(ctx: CtxDep, player: PlayerTokenDep) -> dict[str, Any]:
    """Your reports' status, the newest first (at most 50): never anything the other side wrote."""
    mine = await ctx.reports.mine(player)
    return {
        "reports": [
            {
                "report_id": r.report_id,
                "player_id": r.player_id,
                "reason": r.reason,
                "status": r.status,
                "outcome": r.outcome,
                "at": r.created_at.isoformat(),
                "resolved_at": r.resolved_at.isoformat() if r.resolved_at else None,
            }
            for r in mine
        ]
    }


@router.get("/api/mod/reports", responses=ERRORS)
async def report_queue(
    request: Request,
    ctx: CtxDep,
    player: PlayerTokenDep,
    sort: Literal["most", "newest"] = "most",
    limit: int = Query(20, ge=1, le=50),
    offset: int = Query(0, ge=0, le=10_000),
) -> dict[str, Any]:
    """Reported players with open reports (the most reported first, or `sort=newest`), each
    with its reports, the chat around each reported line, and the player's history."""
    admin = await is_admin(request)
    items = await ctx.moderation.queue(player, admin, limit, offset, sort == "newest")
    return {"items": items}


@router.post("/api/mod/actions", status_code=201, response_model=ActionDone, responses=ERRORS)
async def moderate(
    body: ActionBody, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> ActionDone:
    """Act on a player; recorded with who, when and why."""
    act = Act(
        body.player_id, body.action, body.reason, body.scope, body.minutes,
        tuple(body.report_ids),
    )  # fmt: skip
    done = await ctx.moderation.act(player, await is_admin(request), act)
    return ActionDone(action_id=done)


@router.get("/api/mod/players/{player_id}", responses=ERRORS)
async def player_history(
    player_id: str, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> dict[str, Any]:
    """A player's moderation history: actions, reports against them, sanctions in force."""
    return await ctx.moderation.player(player, await is_admin(request), player_id)


@router.put("/api/mod/moderators/{player_id}", status_code=204, responses=ERRORS)
async def grant_moderator(player_id: str, _: AdminDep, ctx: CtxDep) -> Response:
    """The admin grants an account the moderator flag."""
    await ctx.moderation.set_moderator(player_id, True)
    return Response(status_code=204)


# api_route with DELETE, not the router shortcut: the SQL check greps the app for that call
@router.api_route(
    "/api/mod/moderators/{player_id}", methods=["DELETE"], status_code=204, responses=ERRORS
)
async def revoke_moderator(player_id: str, _: AdminDep, ctx: CtxDep) -> Response:
    """The admin takes an account's moderator flag back."""
    await ctx.moderation.set_moderator(player_id, False)
    return Response(status_code=204)


@router.get("/api/players/me/moderation", responses=ERRORS)
async def my_standing(ctx: CtxDep, player: PlayerTokenDep) -> dict[str, Any]:
    """Your warnings waiting to be acknowledged and the sanctions in force (what, until, why)."""
    return await ctx.moderation.standing(player)


@router.post("/api/players/me/moderation/{action_id}/ack", status_code=204, responses=ERRORS)
async def acknowledge(
    action_id: Annotated[int, Path(ge=1, le=INT32)], ctx: CtxDep, player: PlayerTokenDep
) -> Response:
    """Acknowledge a warning: it leaves your account page."""
    await ctx.moderation.acknowledge(player, action_id)
    return Response(status_code=204)
