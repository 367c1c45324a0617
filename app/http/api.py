"""Player endpoints: create a match, claim an invite, read a seat's view, submit an action."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ..addresses import client_key
from ..clocks import clock_option
from . import ratelimit
from .deps import CtxDep, PlayerTokenDep, SamePlayer, TokenDep
from .links import link_base
from .schemas import Claimed, Created, CreateMatch, ErrorBody, MatchView, SubmitAction

router = APIRouter(prefix="/api")
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "Missing or unknown seat (or player) token"},
    403: {"model": ErrorBody, "description": "The token belongs to another match (or player)"},
    404: {"model": ErrorBody, "description": "No such match"},
}


def json_text(text: str, status: int = 200) -> Response:
    return Response(content=text, status_code=status, media_type="application/json")


PLAYER_401: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "unknown_player: X-Player-Token names nobody"}
}


@router.post("/matches", status_code=201, response_model=Created, responses=PLAYER_401)
async def create_match(
    body: CreateMatch, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> Created:
    """Create a match and take a seat (as the player of X-Player-Token, or as a guest); against
    a friend you get an invite link for the other."""
    clock = clock_option(*body.clock_choice())
    public = body.clock if body.visibility == "public" else None
    if public is not None:  # listed to everyone: its own, tighter limit beside "create"
        await ratelimit.check(request, "challenge")
    made = await ctx.matches.create(
        body.game,
        body.role,
        body.opponent,
        clock,
        player,
        level=body.level,
        rated=body.rated,
        public=public,
        address=client_key(request.scope),
        players=body.players,
        seats=body.seats,
        levels=body.levels,
        handicaps=body.handicaps,
        rules_version=body.rules_version,
    )
    base = link_base(request, ctx.settings) + "/invite/"
    invites = {seat: base + code for seat, code in made.invites.items()}
    invite_url = None if made.invite_code is None else base + made.invite_code
    return Created(
        match_id=made.match_id,
        role=made.seat,
        seat_token=made.seat_token,
        invite_url=invite_url,
        invites=invites,
    )


@router.post(
    "/invites/{code}/claim",
    response_model=Claimed,
    responses={
        **PLAYER_401,
        404: ERRORS[404],
        409: {"model": ErrorBody, "description": "Already claimed, or your own invite"},
    },
)
async def claim_invite(code: str, ctx: CtxDep, player: PlayerTokenDep) -> Claimed:
    """Claim the invited seat (once only, as the player of X-Player-Token or as a guest) and
    receive its seat token."""
    made = await ctx.matches.claim(code[:128], player)
    return Claimed(match_id=made.match_id, role=made.seat, seat_token=made.seat_token)


@router.post(
    "/matches/{match_id}/seat",
    response_model=Claimed,
    responses={
        **PLAYER_401,
        403: {"model": ErrorBody, "description": "not_your_seat: this player holds no seat in it"},
    },
)
async def seat_on_this_device(
    match_id: str, request: Request, ctx: CtxDep, player: PlayerTokenDep
) -> Claimed:
    """Your seat on this device (v1.2): a signed-in player who holds a seat in the match gets a
    seat token of its own for the device asking (X-Player-Token of that device's session); the
    device's earlier one for the match stops working. 403 not_your_seat otherwise."""
    await ratelimit.check(request, "join")
    made = await ctx.devices.seat_key(player, match_id)
    return Claimed(match_id=match_id, role=made.role, seat_token=made.seat_token)


@router.get(
    "/matches/{match_id}", response_model=MatchView, responses=ERRORS, dependencies=[SamePlayer]
)
async def get_view(match_id: str, ctx: CtxDep, token: TokenDep) -> Response:
    """The match as this seat sees it, with its legal actions and its log."""
    return json_text(await ctx.views.seat_view(token, match_id))


@router.post(
    "/matches/{match_id}/actions",
    response_model=MatchView,
    responses={
        **ERRORS,
        409: {"model": ErrorBody, "description": "Stale expected_version or match not started"},
        422: {"model": ErrorBody, "description": "Not a legal action now, or malformed"},
    },
    dependencies=[SamePlayer],
)
async def submit_action(
    match_id: str, body: SubmitAction, ctx: CtxDep, token: TokenDep
) -> Response:
    """Play one action taken from legal_actions; both seats get the new view pushed."""
    return json_text(await ctx.play.submit(token, match_id, body.action, body.expected_version))
