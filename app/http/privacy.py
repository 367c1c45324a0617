"""A player's own standing and data (issue 43): `GET /api/players/me/sanctions` (what the player
is banned or muted from, until when and why: the lobby shows it) and `GET
/api/players/me/export` (their data as a JSON download). Both need X-Player-Token (401
unknown_player without a known one) and count against the replay limit (a heavy read each)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from ..services.privacy import Privacy
from .deps import CtxDep, PlayerTokenDep
from .schemas import ErrorBody

router = APIRouter(prefix="/api/players/me")
MINE: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "unknown_player: no or an unknown X-Player-Token"},
    429: {"model": ErrorBody, "description": "rate_limited, with Retry-After"},
}


class SanctionOut(BaseModel):
    scope: str  # lobby | pairing | rated | tournaments | chat
    until: str  # ISO 8601, UTC
    reason: str
    source: str  # moderator | word_list | abandonment


class SanctionsOut(BaseModel):
    sanctions: list[SanctionOut]


@router.get("/sanctions", response_model=SanctionsOut, responses=MINE)
async def my_sanctions(ctx: CtxDep, player: PlayerTokenDep) -> SanctionsOut:
    """The caller's bans and mutes running now, the one ending last first."""
    running = await Privacy(ctx.core).in_force(player)
    return SanctionsOut(sanctions=[SanctionOut(**asdict(s)) for s in running])


@router.get(
    "/export",
    responses={**MINE, 200: {"description": "The player's data as a JSON file"}},
)
async def my_export(ctx: CtxDep, player: PlayerTokenDep) -> JSONResponse:
    """The caller's data as a JSON download: profile, ratings, games, the chat lines they
    wrote, the follows and blocks they made, the reports they filed, their abandonment
    records and sanctions (never anything others filed about them)."""
    document = await Privacy(ctx.core).export(player)
    name = f"watergate-{document['profile']['player_id']}.json"
    return JSONResponse(
        document,
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store",
        },
    )
