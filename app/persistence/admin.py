"""The admin console's statements: a filtered, sorted page of matches, the totals of the
statistics page (computed by the database), and the audit log of what the admin did."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, and_, case, cast, func, select, true
from sqlalchemy.orm import Session

from . import repository
from .models import AdminAudit, Match

SORTS = {"created": Match.created_at, "activity": Match.updated_at}


@dataclass(frozen=True)
class MatchFilter:
    status: str | None
    winner: str | None
    opponent: str | None  # bot | human
    id_prefix: str
    sort: str
    descending: bool
    limit: int
    offset: int


def find_matches(db: Session, f: MatchFilter) -> tuple[list[Match], int]:
    """One page of matches and the number of all that match the filter."""
    query = select(Match)
    if f.status:
        query = query.where(Match.status == f.status)
    if f.winner:
        query = query.where(Match.winner == f.winner)
    if f.opponent == "bot":
        query = query.where(Match.id.in_(repository.with_bot()))
    elif f.opponent == "human":
        query = query.where(Match.id.not_in(repository.with_bot()))
    if f.id_prefix:
        query = query.where(Match.id.startswith(f.id_prefix))
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    column = SORTS.get(f.sort, Match.updated_at)
    query = query.order_by(column.desc() if f.descending else column.asc(), Match.id)
    return list(db.scalars(query.limit(f.limit).offset(f.offset)).all()), total


@dataclass(frozen=True)
class Totals:
    per_day: list[tuple[str, int]]
    by_status: dict[str, int]
    decided: int
    wins: dict[str, int]
    avg_rounds: float | None
    avg_seconds: float | None
    reasons: dict[str, int]


def totals(db: Session, sqlite: bool, seats: Sequence[str], game: str | None = None) -> Totals:
    """Aggregates over every stored match of `game` (of every game when None), computed by the
    database (UTC days on both); `wins` counts each of `seats`."""
    of_game = Match.game == game if game is not None else true()
    day = (
        func.date(Match.created_at) if sqlite else func.date(func.timezone("UTC", Match.created_at))
    )
    seconds = (
        (func.julianday(Match.updated_at) - func.julianday(Match.created_at)) * 86400.0
        if sqlite
        else func.extract("epoch", Match.updated_at - Match.created_at)
    )
    per_day = db.execute(
        select(day.label("day"), func.count()).where(of_game).group_by("day").order_by("day")
    )
    by_status = db.execute(
        select(Match.status, func.count()).where(of_game).group_by(Match.status)
    ).all()
    finished = and_(Match.status == "finished", of_game)
    row = db.execute(
        select(
            func.count(),
            func.avg(cast(Match.round, Float)),
            func.avg(cast(seconds, Float)),
            *(func.sum(case((Match.winner == seat, 1), else_=0)) for seat in seats),
        ).where(finished, Match.winner.is_not(None))
    ).one()
    reasons = db.execute(
        select(Match.win_reason, func.count())
        .where(finished, Match.win_reason.is_not(None))
        .group_by(Match.win_reason)
    ).all()
    return Totals(
        per_day=[(str(d), int(n)) for d, n in per_day.all()],
        by_status={str(s): int(n) for s, n in by_status},
        decided=int(row[0] or 0),
        wins={seat: int(row[3 + i] or 0) for i, seat in enumerate(seats)},
        avg_rounds=float(row[1]) if row[1] is not None else None,
        avg_seconds=float(row[2]) if row[2] is not None else None,
        reasons={str(k): int(v) for k, v in reasons},
    )


def add_audit(db: Session, action: str, match_id: str | None, detail: dict[str, Any]) -> None:
    db.add(AdminAudit(actor="admin", action=action, match_id=match_id, detail=detail))


def audit_log(db: Session, limit: int = 100) -> list[AdminAudit]:
    return list(db.scalars(select(AdminAudit).order_by(AdminAudit.id.desc()).limit(limit)).all())
