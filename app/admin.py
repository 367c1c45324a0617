"""Admin use cases: sign-in sessions, finding matches, stepping through them, export and verify,
statistics in SQL, and the audited actions (abort, delete)."""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, case, cast, delete, func, select
from sqlalchemy.orm import Session

import engine.watergate as engine
from engine import EngineError
from engine.watergate import MatchState, Role
from engine.watergate.describe import describe

from .db import Database, is_sqlite
from .errors import ApiError, checked_id, not_found
from .models import AdminAudit, Match, MatchAction, utcnow

SESSION_COOKIE = "wg_admin"
SESSION_SECONDS = 8 * 3600
SORTS = {"created": Match.created_at, "activity": Match.updated_at}
STATUSES = ("waiting", "active", "finished", "abandoned")


# ---- sessions: an expiring value signed with the admin token; the token itself never leaves ----


def _sign(secret: str, expires: int) -> str:
    return hmac.new(secret.encode(), f"admin:{expires}".encode(), hashlib.sha256).hexdigest()


def new_session(secret: str, now: float | None = None) -> str:
    expires = int((now or time.time()) + SESSION_SECONDS)
    return f"{expires}.{_sign(secret, expires)}"


def session_valid(secret: str | None, cookie: str | None, now: float | None = None) -> bool:
    if not secret or not cookie or "." not in cookie:
        return False
    expires_text, _, signature = cookie.partition(".")
    if not expires_text.isdigit() or int(expires_text) < (now or time.time()):
        return False
    return hmac.compare_digest(signature, _sign(secret, int(expires_text)))


# ---- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    rows: list[Match]
    total: int


def find_matches(
    db: Session,
    *,
    status: str | None,
    winner: str | None,
    opponent: str | None,
    q: str | None,
    sort: str,
    descending: bool,
    limit: int,
    offset: int,
) -> Page:
    query = select(Match)
    if status:
        query = query.where(Match.status == status)
    if winner:
        query = query.where(Match.winner == winner)
    if opponent == "bot":
        query = query.where((Match.editor_kind == "bot") | (Match.nixon_kind == "bot"))
    elif opponent == "human":
        query = query.where(Match.editor_kind == "human", Match.nixon_kind == "human")
    wanted = "".join(c for c in (q or "") if c.isascii() and c.isalnum()).lower()[:32]
    if wanted:
        query = query.where(Match.id.startswith(wanted))
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    column = SORTS.get(sort, Match.updated_at)
    query = query.order_by(column.desc() if descending else column.asc(), Match.id)
    return Page(list(db.scalars(query.limit(limit).offset(offset)).all()), total)


def load_actions(db: Session, match_id: str) -> list[MatchAction]:
    return list(
        db.scalars(
            select(MatchAction).where(MatchAction.match_id == match_id).order_by(MatchAction.seq)
        ).all()
    )


def state_after(match: Match, actions: list[MatchAction], k: int) -> tuple[MatchState, list[Any]]:
    """The state after the first k actions, and the events of the k-th (all of set-up for 0)."""
    k = max(0, min(k, len(actions)))
    step = engine.start(match.seed)
    state, events = step.state, list(step.events)
    for row in actions[:k]:
        step = engine.apply(state, _role(row.role), row.action)
        state, events = step.state, list(step.events)
    return state, events


def _role(text: str) -> Role:
    return "editor" if text == "editor" else "nixon"


def digest(state: MatchState) -> str:
    """A short fingerprint of a whole state (for export/verify)."""
    return hashlib.sha256(describe(state).encode()).hexdigest()[:16]


def export(match: Match, actions: list[MatchAction]) -> dict[str, Any]:
    """Everything needed to rebuild the match, with a fingerprint after every action."""
    state = engine.new_match(match.seed)
    steps = []
    for row in actions:
        state = engine.apply(state, _role(row.role), row.action).state
        steps.append(
            {"seq": row.seq, "role": row.role, "action": row.action, "digest": digest(state)}
        )
    return {
        "format": "watergate-match/1",
        "match_id": match.id,
        "seed": match.seed,
        "rules_version": match.rules_version,
        "options": match.options,
        "length": len(steps),  # so a shortened export is caught
        "actions": steps,
    }


def verify(data: dict[str, Any]) -> dict[str, Any]:
    """Replay an export: 'replays identically', or the first action where it diverges and why."""
    seed, actions = data.get("seed"), data.get("actions")
    if type(seed) is not int or not isinstance(actions, list) or "rules_version" not in data:
        raise ApiError(
            422, "invalid_export", "An export needs rules_version, an integer seed and actions."
        )
    if data["rules_version"] != engine.RULES_VERSION:
        return {
            "ok": False,
            "seq": 0,
            "reason": f"rules version {data['rules_version']!r} is not this server's "
            f"{engine.RULES_VERSION!r}",
        }
    state = engine.new_match(seed)
    for i, step in enumerate(actions, start=1):
        if not isinstance(step, dict) or step.get("role") not in ("editor", "nixon"):
            return {"ok": False, "seq": i, "reason": "not an action record"}
        try:
            state = engine.apply(state, step["role"], step.get("action")).state
        except EngineError as err:
            return {"ok": False, "seq": i, "reason": f"{err.code}: {err.message}"}
        if "digest" in step and step["digest"] != digest(state):
            return {"ok": False, "seq": i, "reason": "the state after this action differs"}
    # every action replayed: a shortened export is caught by the count it names
    length = data.get("length")
    if length is not None and length != len(actions):
        return {
            "ok": False,
            "seq": min(len(actions), int(length)) if type(length) is int else 0,
            "reason": f"the export names {length} actions but holds {len(actions)}",
        }
    return {
        "ok": True,
        "seq": len(actions),
        "reason": "replays identically",
        "winner": state.winner,
        "version": state.version,
    }


def _utc_day(database: Database) -> Any:
    """The UTC calendar day of created_at (SQLite stores UTC; PostgreSQL would use its zone)."""
    if is_sqlite(database.url):
        return func.date(Match.created_at)
    return func.date(func.timezone("UTC", Match.created_at))


def stats(database: Database) -> dict[str, Any]:
    """Aggregates over every stored match, computed by the database."""
    seconds = (
        (func.julianday(Match.updated_at) - func.julianday(Match.created_at)) * 86400.0
        if is_sqlite(database.url)
        else func.extract("epoch", Match.updated_at - Match.created_at)
    )
    with database.reader() as db:
        per_day = db.execute(
            select(_utc_day(database).label("day"), func.count()).group_by("day").order_by("day")
        ).all()
        by_status = dict(
            db.execute(select(Match.status, func.count()).group_by(Match.status)).all()
        )
        finished = Match.status == "finished"
        row = db.execute(
            select(
                func.count(),
                func.sum(case((Match.winner == "editor", 1), else_=0)),
                func.sum(case((Match.winner == "nixon", 1), else_=0)),
                func.avg(cast(Match.round, Float)),
                func.avg(cast(seconds, Float)),
            ).where(finished, Match.winner.is_not(None))
        ).one()
        reasons = dict(
            db.execute(
                select(Match.win_reason, func.count())
                .where(finished, Match.win_reason.is_not(None))
                .group_by(Match.win_reason)
            ).all()
        )
    decided = int(row[0] or 0)
    return {
        "matches_per_day": [{"day": str(day), "count": int(n)} for day, n in per_day],
        "by_status": {status: int(by_status.get(status, 0)) for status in STATUSES},
        "decided": decided,
        "editor_wins": int(row[1] or 0),
        "nixon_wins": int(row[2] or 0),
        "editor_win_rate": (int(row[1] or 0) / decided) if decided else None,
        "avg_rounds": float(row[3]) if row[3] is not None else None,
        "avg_duration_seconds": float(row[4]) if row[4] is not None else None,
        "end_reasons": {str(k): int(v) for k, v in reasons.items()},
    }


# ---- audited actions -----------------------------------------------------------------------------


def abort(database: Database, match_id: str) -> Match:
    """End an active match; both seats see that the host ended it."""
    with database.write() as db:
        match = db.get(Match, checked_id(match_id), with_for_update=True)
        if match is None:
            raise not_found()
        if match.status not in ("waiting", "active"):
            raise ApiError(409, "not_active", "Only a waiting or active match can be aborted.")
        match.status = "finished"
        match.ended_by = "host"
        match.updated_at = utcnow()
        db.add(AdminAudit(actor="admin", action="abort", match_id=match_id, detail={}))
        return match


def remove(database: Database, match_id: str) -> None:
    """Delete a match and everything stored about it."""
    with database.write() as db:
        match = db.get(Match, checked_id(match_id))
        if match is None:
            raise not_found()
        db.execute(delete(MatchAction).where(MatchAction.match_id == match_id))
        db.delete(match)
        db.add(
            AdminAudit(
                actor="admin",
                action="delete",
                match_id=match_id,
                detail={"status": match.status, "version": match.version},
            )
        )


def audit_log(db: Session, limit: int = 100) -> list[AdminAudit]:
    return list(db.scalars(select(AdminAudit).order_by(AdminAudit.id.desc()).limit(limit)).all())
