"""The post-game analysis of a finished match, for its seats (contract v1.1)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .deps import CtxDep, TokenDep
from .ratelimit import client_key
from .schemas import ErrorBody

router = APIRouter(
    prefix="/api/matches",
    responses={404: {"model": ErrorBody, "description": "No finished match with this id"}},
)


@router.get("/{match_id}/analysis")
async def analysis(match_id: str, ctx: CtxDep, token: TokenDep, request: Request) -> JSONResponse:
    """The seat's own decisions, each with its chance to win before and after and the hard
    search's preferred action, judged from that seat's observation; 202 while computing (429
    when the asker already waits for several)."""
    status, body = await ctx.analyses.analysis(token, match_id, client_key(request.scope))
    return JSONResponse(body, status_code=status)
