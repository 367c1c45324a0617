"""Admin API (Authorization: Bearer ADMIN_TOKEN, or the sign-in cookie): find, inspect, step
through, export, verify, count, abort and delete matches."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from engine.watergate import admin_view, open_view

from .. import admin
from ..deps import AdminDep, CtxDep
from ..errors import checked_id, not_found
from ..models import Match
from ..schemas import AdminMatchRow, ErrorBody

router = APIRouter(prefix="/api/admin", responses={401: {"model": ErrorBody}})


def _row(m: Match) -> AdminMatchRow:
    return AdminMatchRow(
        match_id=m.id,
        status=m.status,
        version=m.version,
        round=m.round,
        winner=m.winner,
        win_reason=m.win_reason,
        editor_kind=m.editor_kind,
        nixon_kind=m.nixon_kind,
        created_at=m.created_at.isoformat(),
        updated_at=m.updated_at.isoformat(),
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


QueryDep = Annotated[MatchQuery, Query()]


@router.get("/matches", response_model=list[AdminMatchRow])
async def list_matches(_: AdminDep, ctx: CtxDep, query: QueryDep) -> list[AdminMatchRow]:
    """Stored matches, filtered and sorted (default: most recently active first)."""
    page = await _page(ctx, query)
    rows: list[AdminMatchRow] = page["rows"]
    return rows


@router.get("/matches-page")
async def page_matches(_: AdminDep, ctx: CtxDep, query: QueryDep) -> dict[str, Any]:
    """One page of matches with the total count (for the console's pager)."""
    return await _page(ctx, query)


async def _page(ctx: Any, query: MatchQuery) -> dict[str, Any]:
    def load() -> dict[str, Any]:
        with ctx.db.reader() as db:
            page = admin.find_matches(
                db,
                status=query.status,
                winner=query.winner,
                opponent=query.opponent,
                q=query.q,
                sort=query.sort,
                descending=query.order != "asc",
                limit=query.limit,
                offset=query.offset,
            )
            return {"rows": [_row(m) for m in page.rows], "total": page.total}

    return await run_in_threadpool(load)


@router.get("/matches/{match_id}", responses={404: {"model": ErrorBody}})
async def match_detail(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """Everything about one match: full hidden state, seed, and the ordered command list."""

    def load() -> dict[str, Any]:
        with ctx.db.reader() as db:
            match = db.get(Match, checked_id(match_id))
            if match is None:
                raise not_found()
            entry = ctx.service.store.load(db, match)
            actions = admin.load_actions(db, match_id)
            return {
                "match": _row(match).model_dump(),
                "seed": match.seed,
                "seed_text": str(match.seed),  # exact even where JSON numbers are doubles
                "rules_version": match.rules_version,
                "options": match.options,
                "ended_by": match.ended_by,
                "state": admin_view(entry.state),
                "view": open_view(entry.state),
                "actions": [
                    {
                        "seq": a.seq,
                        "role": a.role,
                        "action": a.action,
                        "created_at": a.created_at.isoformat(),
                    }
                    for a in actions
                ],
                "log": list(entry.events),
            }

    return await run_in_threadpool(load)


@router.get("/matches/{match_id}/steps/{k}", responses={404: {"model": ErrorBody}})
async def match_step(match_id: str, k: int, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """The match after its first k actions, everything shown (built by replay)."""
    return await run_in_threadpool(step_payload, ctx, match_id, k)


def step_payload(ctx: Any, match_id: str, k: int) -> dict[str, Any]:
    """Shared by the admin step-through and players' replays of finished matches."""
    with ctx.db.reader() as db:
        match = db.get(Match, checked_id(match_id))
        if match is None:
            raise not_found()
        actions = admin.load_actions(db, match_id)
    k = max(0, min(k, len(actions)))
    state, events = admin.state_after(match, actions, k)
    return {
        "match_id": match_id,
        "step": k,
        "steps": len(actions),
        "action": {
            "seq": actions[k - 1].seq,
            "role": actions[k - 1].role,
            "action": actions[k - 1].action,
        }
        if k
        else None,
        "view": open_view(state),
        "events": events,  # everything is shown in a step-through
        "winner": state.winner,
        "win_reason": state.win_reason,
    }


@router.get("/matches/{match_id}/export", responses={404: {"model": ErrorBody}})
async def export_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """The match as JSON: seed, options, rules version and every action with a fingerprint."""

    def load() -> dict[str, Any]:
        with ctx.db.reader() as db:
            match = db.get(Match, checked_id(match_id))
            if match is None:
                raise not_found()
            return admin.export(match, admin.load_actions(db, match_id))

    return await run_in_threadpool(load)


@router.post("/verify")
async def verify_export(_: AdminDep, data: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Replay an export: 'replays identically', or where and why it diverges."""
    return await run_in_threadpool(admin.verify, data)


@router.get("/stats")
async def match_stats(_: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """Matches per day, by status, win rate per side, average rounds and duration, end reasons."""
    return await run_in_threadpool(admin.stats, ctx.db)


@router.post("/matches/{match_id}/abort", responses={404: {"model": ErrorBody}})
async def abort_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, str]:
    """End an active match (both seats see it was ended by the host); audited."""
    await run_in_threadpool(admin.abort, ctx.db, match_id)
    await ctx.changed(match_id)
    return {"status": "aborted"}


@router.delete("/matches/{match_id}", responses={404: {"model": ErrorBody}})
async def delete_match(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, str]:
    """Delete a match and its actions, seats and invite; audited."""
    await run_in_threadpool(admin.remove, ctx.db, match_id)
    ctx.service.store.forget(match_id)
    return {"status": "deleted"}


@router.get("/audit")
async def audit(_: AdminDep, ctx: CtxDep) -> list[dict[str, Any]]:
    """The newest admin actions."""

    def load() -> list[dict[str, Any]]:
        with ctx.db.reader() as db:
            return [
                {
                    "id": a.id,
                    "actor": a.actor,
                    "action": a.action,
                    "match_id": a.match_id,
                    "detail": a.detail,
                    "created_at": a.created_at.isoformat(),
                }
                for a in admin.audit_log(db)
            ]

    return await run_in_threadpool(load)
