"""Around the game: resign, rematch (offer, accept, take your new seat), spectators, replays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response

from ..services.matches import SeatTaken
from .api import json_text
from .deps import CtxDep, SamePlayer, TokenDep
from .schemas import Claimed, ErrorBody

# every call here is a seat's (or a spectator's): one that also names a player must be its own
router = APIRouter(
    prefix="/api",
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
    dependencies=[SamePlayer],
)


def _seat(seat: SeatTaken) -> Claimed:
    return Claimed(match_id=seat.match_id, role=seat.seat, seat_token=seat.seat_token)


@router.post("/matches/{match_id}/resign", responses={422: {"model": ErrorBody}})
async def resign(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, str]:
    """Give up the match: the opponent wins."""
    await ctx.lifecycle.resign(token, match_id)
    return {"status": "resigned"}


@router.post("/matches/{match_id}/rematch", responses={409: {"model": ErrorBody}})
async def offer_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, Any]:
    """Offer a rematch with roles swapped (against the computer it starts at once)."""
    seat = await ctx.lifecycle.offer_rematch(token, match_id)
    if seat is None:
        return {"status": "offered"}
    return {"status": "started", **_seat(seat).model_dump()}


@router.post("/matches/{match_id}/rematch/accept", responses={409: {"model": ErrorBody}})
async def accept_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> dict[str, Any]:
    """Accept the offer: in a duel a new match with roles swapped starts and this is your new
    seat; at a table (v1.2) the same seats, once every person has accepted (until then
    `{"status": "accepted"}`: take your seat with /rematch/claim when the view says it began)."""
    seat = await ctx.lifecycle.accept_rematch(token, match_id)
    if seat is None:
        return {"status": "accepted"}
    return {"status": "started", **_seat(seat).model_dump()}


@router.post(
    "/matches/{match_id}/rematch/decline", status_code=204, responses={409: {"model": ErrorBody}}
)
async def decline_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> Response:
    """Decline the offer (v1.2): the rematch will not start, and everyone's view says who."""
    await ctx.lifecycle.decline_rematch(token, match_id)
    return Response(status_code=204)


@router.post(
    "/matches/{match_id}/rematch/claim",
    response_model=Claimed,
    responses={409: {"model": ErrorBody}},
)
async def claim_rematch(match_id: str, ctx: CtxDep, token: TokenDep) -> Claimed:
    """The seat that offered takes its seat in the accepted rematch (once)."""
    return _seat(await ctx.lifecycle.claim_rematch(token, match_id))


@router.get("/matches/{match_id}/spectate", responses={403: {"model": ErrorBody}})
async def spectate(match_id: str, ctx: CtxDep, key: str = Query("", max_length=64)) -> Response:
    """The match as a spectator sees it: public information only."""
    return json_text(await ctx.views.spectator_view(match_id, key))


@router.get("/matches/{match_id}/access", responses={404: {"model": ErrorBody}})
async def access(match_id: str, ctx: CtxDep) -> dict[str, object]:
    """Issue 42: what a browser without a seat may do at a match: `{"game", "status",
    "watch_path"}`, the spectator's address only for a public match (else null: private)."""
    return await ctx.views.access(match_id)


@router.get("/matches/{match_id}/replay/{k}", responses={409: {"model": ErrorBody}})
async def replay_step(match_id: str, k: int, ctx: CtxDep, token: TokenDep) -> dict[str, Any]:
    """A seat of a finished match steps through it with everything revealed."""
    return await ctx.admin.replay(token, match_id, k)
