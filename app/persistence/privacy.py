"""A player's data (issue 43, Privacy). The export's reads: what the player made or holds — its
player row, its seats, the chat lines it wrote, the follows and blocks it made, the reports it
filed — each newest first and at most `limit` rows; reports about the player, and other people's
rows about it, are never read here. What goes when a player deletes itself, and the pruning of
reports, moderation records, sanctions and abandonment records once kept long enough."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from .models import ChatMessage, Match, Player, Seat
from .people_tables import (
    Abandonment,
    Block,
    DirectChallenge,
    Follow,
    ModerationAction,
    Notification,
    Report,
    Sanction,
)


def player(db: Session, player_id: str) -> Player | None:
    return db.get(Player, player_id)


def games(db: Session, player_id: str, limit: int) -> list[dict[str, Any]]:
    """Every match the player holds (or held) a seat in, with how it went."""
    query = (
        select(Seat.name, Seat.left_reason, Match)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player == player_id)
        .order_by(Match.created_at.desc(), Match.id)
        .limit(limit)
    )
    found = []
    for seat, left, match in db.execute(query):
        found.append(
            {
                "match_id": match.id,
                "game": match.game,
                "seat": seat,
                "status": match.status,
                "winner": match.winner,
                "win_reason": match.win_reason,
                "left": left,
                "rated": match.options.get("rated") is True,
                "clock": match.options.get("clock"),
                "created_at": match.created_at.isoformat(),
                "updated_at": match.updated_at.isoformat(),
            }
        )
    return found


def chat_lines(db: Session, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The lines the player wrote (a shadow-hidden one too: it is theirs, and says so)."""
    query = (
        select(ChatMessage)
        .where(ChatMessage.player == player_id)
        .order_by(ChatMessage.created_at.desc(), ChatMessage.id.desc())
        .limit(limit)
    )
    return [
        {
            "match_id": line.match_id,
            "at": line.created_at.isoformat(),
            "seat": line.role,
            "name": line.name,
            "text": line.text,
            "hidden": line.hidden,
        }
        for line in db.scalars(query)
    ]


def following(db: Session, player_id: str, limit: int) -> list[dict[str, Any]]:
    query = (
        select(Follow.followee, Player.name, Follow.created_at)
        .join(Player, Player.id == Follow.followee)
        .where(Follow.follower == player_id)
        .order_by(Follow.created_at.desc(), Follow.followee)
        .limit(limit)
    )
    return [{"player_id": p, "name": n, "since": at.isoformat()} for p, n, at in db.execute(query)]


def blocks(db: Session, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The blocks the player made (never who blocked them)."""
    query = (
        select(Block.blocked, Player.name, Block.created_at)
        .join(Player, Player.id == Block.blocked)
        .where(Block.blocker == player_id)
        .order_by(Block.created_at.desc(), Block.blocked)
        .limit(limit)
    )
    return [{"player_id": p, "name": n, "since": at.isoformat()} for p, n, at in db.execute(query)]


def reports_filed(db: Session, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The reports the player filed, with their status (never reports about the player)."""
    query = (
        select(Report)
        .where(Report.reporter == player_id)
        .order_by(Report.created_at.desc(), Report.id.desc())
        .limit(limit)
    )
    return [
        {
            "report_id": r.id,
            "player_id": r.player,
            "reason": r.reason,
            "text": r.text,
            "match_id": r.match_id,
            "status": r.status,
            "outcome": r.outcome,
            "at": r.created_at.isoformat(),
        }
        for r in db.scalars(query)
    ]


def forget_people(db: Session, player_id: str) -> None:
    """A player deleting itself: its follows and blocks (both ways), bell lines and direct
    challenges go with it. Reports, moderation records, sanctions and abandonment records stay
    for their retention time (README, Privacy), then `prune` removes them."""
    for table, columns in (
        (Follow, (Follow.follower, Follow.followee)),
        (Block, (Block.blocker, Block.blocked)),
        (Notification, (Notification.player,)),
        (DirectChallenge, (DirectChallenge.challenger, DirectChallenge.target)),
    ):
        db.execute(delete(table).where(or_(*(c == player_id for c in columns))))


def prune(db: Session, cutoff: datetime) -> dict[str, int]:
    """Remove what its retention time is over for: reports closed, moderation actions taken,
    sanctions ended and abandonment records written before `cutoff`. How many of each."""
    statements = {
        "reports": delete(Report).where(
            Report.status == "closed", Report.resolved_at.is_not(None), Report.resolved_at < cutoff
        ),
        "moderation_actions": delete(ModerationAction).where(ModerationAction.created_at < cutoff),
        "sanctions": delete(Sanction).where(Sanction.until < cutoff),
        "abandonments": delete(Abandonment).where(Abandonment.created_at < cutoff),
    }
    done = {}
    for name, statement in statements.items():
        result = db.execute(statement.execution_options(synchronize_session=False))
        done[name] = int(getattr(result, "rowcount", 0) or 0)
    return done
