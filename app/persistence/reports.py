"""The SQL of reports and moderation records (issue 43): filing a report (by a player, or by the
chat word list with no reporter), a reporter's own reports, the moderators' queue (open reports
grouped by the reported player, the most reported and newest first), closing reports, and a
player's moderation history. Everything runs inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .models import ChatMessage, Player
from .people_tables import ModerationAction, Report, Sanction


def file(
    db: Session,
    reporter: str | None,
    player: str,
    reason: str,
    text: str | None,
    match_id: str | None,
    chat_id: int | None,
    now: datetime,
) -> int:
    row = Report(
        reporter=reporter, player=player, reason=reason, text=text, match_id=match_id,
        chat_id=chat_id, created_at=now,
    )  # fmt: skip
    db.add(row)
    db.flush()
    return int(row.id)


def filed_since(db: Session, reporter: str, since: datetime) -> int:
    """How many reports `reporter` filed since then (the per-day cap)."""
    query = select(func.count()).where(Report.reporter == reporter, Report.created_at >= since)
    return int(db.scalar(query) or 0)


def marks_since(db: Session, player: str, since: datetime) -> int:
    """How many of the player's chat lines the word list marked since then."""
    query = select(func.count()).where(
        Report.player == player, Report.reporter.is_(None), Report.created_at >= since
    )
    return int(db.scalar(query) or 0)


def word_list_mutes_since(db: Session, player: str, since: datetime) -> int:
    query = select(func.count()).where(
        Sanction.player == player, Sanction.source == "word_list", Sanction.created_at >= since
    )
    return int(db.scalar(query) or 0)


def mine(db: Session, reporter: str, limit: int) -> list[Report]:
    query = (
        select(Report).where(Report.reporter == reporter).order_by(Report.id.desc()).limit(limit)
    )
    return list(db.scalars(query))


@dataclass(frozen=True, slots=True)
class Reported:
    """One reported player in the queue: how many open reports, the newest's time."""

    player: str
    name: str
    count: int
    newest: datetime


def queue(db: Session, limit: int, offset: int, newest_first: bool) -> list[Reported]:
    """Players with open reports: the most reported first (then the newest), or the newest."""
    count, newest = func.count(Report.id), func.max(Report.created_at)
    order = (newest.desc(), count.desc()) if newest_first else (count.desc(), newest.desc())
    rows = db.execute(
        select(Report.player, Player.name, count, newest)
        .join(Player, Player.id == Report.player)
        .where(Report.status == "open")
        .group_by(Report.player, Player.name)
        .order_by(*order, Report.player)
        .limit(limit)
        .offset(offset)
    )
    return [Reported(p, n, int(c), w) for p, n, c, w in rows]


def open_of(db: Session, player: str, limit: int) -> list[Report]:
    query = (
        select(Report)
        .where(Report.player == player, Report.status == "open")
        .order_by(Report.id.desc())
        .limit(limit)
    )
    return list(db.scalars(query))


def of_player(db: Session, player: str, limit: int) -> list[Report]:
    query = select(Report).where(Report.player == player).order_by(Report.id.desc()).limit(limit)
    return list(db.scalars(query))


def close(db: Session, ids: list[int], player: str, outcome: str, now: datetime) -> list[Report]:
    """Close these open reports of the player; the ones closed (their reporters are told)."""
    if not ids:
        return []
    found = list(
        db.scalars(
            select(Report).where(
                Report.id.in_(ids), Report.player == player, Report.status == "open"
            )
        )
    )
    db.execute(
        update(Report)
        .where(Report.id.in_([r.id for r in found]))
        .values(status="closed", outcome=outcome, resolved_at=now)
    )
    return found


def context(db: Session, match_id: str, chat_id: int, around: int) -> list[ChatMessage]:
    """The chat lines around a reported one (hidden ones too: moderators read everything)."""
    before = db.scalars(
        select(ChatMessage)
        .where(ChatMessage.match_id == match_id, ChatMessage.id <= chat_id)
        .order_by(ChatMessage.id.desc())
        .limit(around + 1)
    )
    after = db.scalars(
        select(ChatMessage)
        .where(ChatMessage.match_id == match_id, ChatMessage.id > chat_id)
        .order_by(ChatMessage.id)
        .limit(around)
    )
    return [*reversed(list(before)), *after]


def chat_line(db: Session, chat_id: int) -> ChatMessage | None:
    return db.get(ChatMessage, chat_id)


def record(
    db: Session,
    player: str,
    action: str,
    reason: str,
    by: str,
    now: datetime,
    *,
    scope: str | None = None,
    until: datetime | None = None,
    report_ids: list[int] | None = None,
) -> int:
    row = ModerationAction(
        player=player, action=action, scope=scope, until=until, reason=reason, by=by,
        report_ids=report_ids or [], created_at=now,
    )  # fmt: skip
    db.add(row)
    db.flush()
    return int(row.id)


def actions_of(db: Session, player: str, limit: int) -> list[ModerationAction]:
    query = (
        select(ModerationAction)
        .where(ModerationAction.player == player)
        .order_by(ModerationAction.id.desc())
        .limit(limit)
    )
    return list(db.scalars(query))


def unacknowledged(db: Session, player: str) -> list[ModerationAction]:
    """The player's warnings not yet acknowledged, the newest first."""
    query = (
        select(ModerationAction)
        .where(
            ModerationAction.player == player,
            ModerationAction.action == "warn",
            ModerationAction.acknowledged_at.is_(None),
        )
        .order_by(ModerationAction.id.desc())
        .limit(20)
    )
    return list(db.scalars(query))


def acknowledge(db: Session, player: str, action_id: int, now: datetime) -> bool:
    done = db.execute(
        update(ModerationAction)
        .where(
            ModerationAction.id == action_id,
            ModerationAction.player == player,
            ModerationAction.action == "warn",
            ModerationAction.acknowledged_at.is_(None),
        )
        .values(acknowledged_at=now)
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]
