"""Around the game: resign, rematch (offer, accept, take your new seat), spectators."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response
from starlette.concurrency import run_in_threadpool

from ..deps import CtxDep, TokenDep
from ..errors import ApiError
from ..lifecycle import NewSeat
from ..schemas import Claimed, ErrorBody
from ..wire import view_json
from .admin import step_payload

router = APIRouter(prefix="/api", responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}})


def _seat(seat: NewSeat) -> Claimed:
    return Claimed(match_id=seat.match_id, role=seat.role, seat_token=seat.seat_token)


@router.post("/matches/{match_id}/resign", responses={422: {"model": ErrorBody}})
async def resign(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, str]:
    """Give up the match: the opponent wins."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    await run_in_threadpool(ctx.lifecycle.resign, match_id, role)
    await ctx.changed(match_id)
    return {"status": "resigned"}


@router.post("/matches/{match_id}/rematch", responses={409: {"model": ErrorBody}})
async def offer_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, Any]:
    """Offer a rematch with roles swapped (against the computer it starts at once)."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    seat = await run_in_threadpool(ctx.lifecycle.offer_rematch, match_id, role)
    await ctx.changed(match_id)
    if seat is None:
        return {"status": "offered"}
    ctx.bots.poke(seat.match_id)
    return {"status": "started", **_seat(seat).model_dump()}


@router.post(
    "/matches/{match_id}/rematch/accept",
    response_model=Claimed,
    responses={409: {"model": ErrorBody}},
)
async def accept_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> Claimed:
    """Accept the opponent's offer: a new match with roles swapped; this is your new seat."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    seat = await run_in_threadpool(ctx.lifecycle.accept_rematch, match_id, role)
    await ctx.changed(match_id)
    return _seat(seat)


@router.post(
    "/matches/{match_id}/rematch/claim",
    response_model=Claimed,
    responses={409: {"model": ErrorBody}},
)
async def claim_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> Claimed:
    """The seat that offered takes its seat in the accepted rematch (once)."""
    role = await run_in_threadpool(ctx.service.seat_for, token, match_id)
    seat = await run_in_threadpool(ctx.lifecycle.claim_rematch, match_id, role)
    await ctx.changed(seat.match_id)
    await ctx.changed(match_id)
    return _seat(seat)


@router.get("/matches/{match_id}/spectate", responses={403: {"model": ErrorBody}})
async def spectate(match_id: str, ctx: CtxDep, key: str = Query("", max_length=64)) -> Response:
    """The match as a spectator sees it: public information only."""
    info, entry = await run_in_threadpool(ctx.lifecycle.spectate, match_id, key)
    text = view_json(info, entry, None, extras=await ctx.live.extras(info, entry, None))
    return Response(content=text, media_type="application/json")


@router.get("/matches/{match_id}/replay/{k}", responses={409: {"model": ErrorBody}})
async def replay_step(match_id: str, k: int, ctx: CtxDep, token: TokenDep) -> dict[str, Any]:
    """A seat of a finished match steps through it with everything revealed."""
    await run_in_threadpool(ctx.service.seat_for, token, match_id)
    info, _ = await run_in_threadpool(ctx.service.current, match_id)
    if info.status != "finished":
        raise ApiError(409, "match_not_finished", "Replays open when the match has ended.")
    return await run_in_threadpool(step_payload, ctx, match_id, k)
