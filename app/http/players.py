"""Player endpoints (contract v1.1): create an anonymous player, rename it, read its public
profile. The token comes once, in the answer to its creation; after that only as X-Player-Token."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..services.players import Played
from .deps import CtxDep, PlayerTokenDep
from .schemas import (
    ErrorBody,
    NameBody,
    PlayedOut,
    PlayerCreated,
    PlayerName,
    ProfileOut,
    SeatPlayer,
)

router = APIRouter(prefix="/api/players")
BAD_NAME: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorBody, "description": "invalid_name, with the rule broken as `reason`"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}


@router.post("", status_code=201, response_model=PlayerCreated, responses=BAD_NAME)
async def create_player(body: NameBody, ctx: CtxDep) -> PlayerCreated:
    """A new anonymous player; keep its token (the browser keeps it in localStorage)."""
    made = await ctx.players.create(body.name)
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


def _played(p: Played) -> PlayedOut:
    opponent = SeatPlayer.model_validate(p.opponent.wire_player())
    return PlayedOut(match_id=p.match_id, role=p.role, result=p.result, opponent=opponent)


@router.get(
    "/{player_id}",
    response_model=ProfileOut,
    response_model_exclude_none=True,  # an opponent without a player has no player_id, as in views
    responses={404: {"model": ErrorBody}},
)
async def player_profile(player_id: str, ctx: CtxDep) -> ProfileOut:
    """A player's public profile: name, decided matches, wins, and the newest of them."""
    found = await ctx.players.profile(player_id)
    return ProfileOut(
        player_id=found.player_id,
        name=found.name,
        games=found.games,
        wins=found.wins,
        recent=[_played(p) for p in found.recent],
    )
