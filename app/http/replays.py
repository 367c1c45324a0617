"""Public replays (no token): an ended match at every step, its export and its deal's check; a
live match is 404 not_found, as a missing one is."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from .api import json_text
from .deps import CtxDep, TokenDep
from .schemas import ErrorBody

router = APIRouter(
    prefix="/api/replays",
    responses={404: {"model": ErrorBody, "description": "No ended match with this id"}},
)


@router.get("/{match_id}")
async def replay(match_id: str, ctx: CtxDep, token: TokenDep) -> Response:
    """Every step of an ended match as a spectator sees it (with a seat's bearer token, as that
    seat saw it), the log, and the revealed seed."""
    return json_text(await ctx.replays.replay(token, match_id))


@router.get("/{match_id}/export")
async def export(match_id: str, ctx: CtxDep) -> dict[str, Any]:
    """The ended match as JSON: seed, rules version and every action with a fingerprint."""
    return await ctx.replays.export(match_id)


@router.get("/{match_id}/verify")
async def verify(match_id: str, ctx: CtxDep) -> dict[str, Any]:
    """Recompute the commitment from the revealed seed and replay every action from it."""
    return await ctx.replays.verify(match_id)
