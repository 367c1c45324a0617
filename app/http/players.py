"""Player endpoints (contract v1.1): create an anonymous player, rename it, read its public
profile. The token comes once, in the answer to its creation; after that only as X-Player-Token."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..addresses import client_key
from ..services.ratings import provisional
from .account_schemas import ProfileOut, RatingOut, RoleOut
from .accounts import played_out
from .deps import CtxDep, PlayerTokenDep
from .schemas import ErrorBody, NameBody, PlayerCreated, PlayerName

router = APIRouter(prefix="/api/players")
BAD_NAME: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorBody, "description": "invalid_name, with the rule broken as `reason`"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}


@router.post("", status_code=201, response_model=PlayerCreated, responses=BAD_NAME)
async def create_player(body: NameBody, request: Request, ctx: CtxDep) -> PlayerCreated:
    """A new anonymous player; keep its token (the browser keeps it in localStorage)."""
    made = await ctx.players.create(body.name, client_key(request.scope))
    return PlayerCreated(player_id=made.player_id, name=made.name, player_token=made.player_token)


@router.patch(
    "/me",
    response_model=PlayerName,
    responses={**BAD_NAME, 401: {"model": ErrorBody, "description": "unknown_player"}},
)
async def rename_player(body: NameBody, ctx: CtxDep, player: PlayerTokenDep) -> PlayerName:
    """Change the name of the player whose token comes as X-Player-Token; its open tables show
    the new name at once."""
    renamed = await ctx.players.rename(player, body.name)
    return PlayerName(player_id=renamed.id, name=renamed.name)


@router.get(
    "/{player_id}",
    response_model=ProfileOut,
    response_model_exclude_none=True,  # an opponent without a player has no player_id, as in views
    responses={404: {"model": ErrorBody}},
)
async def player_profile(player_id: str, ctx: CtxDep) -> ProfileOut:
    """A player's public profile: name, decided matches, wins (also per role), the newest of
    them, and an account's rating in each game it has played rated."""
    found = await ctx.players.profile(player_id)
    ratings = {
        r.game: RatingOut(rating=r.rating, rd=r.rd, provisional=provisional(r.rd), games=r.games)
        for r in found.ratings
    }
    return ProfileOut(
        player_id=found.player_id,
        name=found.name,
        games=found.games,
        wins=found.wins,
        recent=[played_out(p) for p in found.recent],
        rating=ratings or None,
        roles={r.role: RoleOut(games=r.games, wins=r.wins) for r in found.roles},
        reliability=found.reliability,
        bot=found.bot or None,
    )
