"""Admin endpoints (Authorization: Bearer ADMIN_TOKEN): list matches, inspect one in full."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from engine.views import admin_view

from ..deps import AdminDep, CtxDep
from ..errors import not_found
from ..models import Match, MatchAction
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


@router.get("/matches", response_model=list[AdminMatchRow])
async def list_matches(
    _: AdminDep,
    ctx: CtxDep,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=10_000_000),
) -> list[AdminMatchRow]:
    """Stored matches, most recently active first."""

    def load() -> list[AdminMatchRow]:
        with ctx.db.reader() as db:
            rows = db.scalars(
                select(Match).order_by(Match.updated_at.desc()).limit(limit).offset(offset)
            ).all()
            return [_row(m) for m in rows]

    return await run_in_threadpool(load)


@router.get("/matches/{match_id}", responses={404: {"model": ErrorBody}})
async def match_detail(match_id: str, _: AdminDep, ctx: CtxDep) -> dict[str, Any]:
    """Everything about one match: full hidden state, seed, and the ordered command list."""

    def load() -> dict[str, Any]:
        with ctx.db.reader() as db:
            match = db.get(Match, match_id)
            if match is None:
                raise not_found()
            entry = ctx.service.store.load(db, match)
            actions = db.scalars(
                select(MatchAction)
                .where(MatchAction.match_id == match_id)
                .order_by(MatchAction.seq)
            ).all()
            return {
                "match": _row(match).model_dump(),
                "seed": match.seed,
                "rules_version": match.rules_version,
                "options": match.options,
                "state": admin_view(entry.state),
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
