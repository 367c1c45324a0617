"""The SQL of direct challenges (contract v1.2 "People"): one player's challenge to another,
the waiting match it made, and what became of it. A challenge changes state once: `answer`
moves it from open to accepted, declined, canceled or expired only while it is still open, so
two answers at once cannot both win."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from .models import Invite, Player
from .people_tables import DirectChallenge

OPEN = "open"
ENDED = ("accepted", "declined", "canceled", "expired")


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """A challenge with both players' current names."""

    id: str
    challenger: str
    challenger_name: str
    target: str
    target_name: str
    match_id: str
    game: str
    players: int
    clock: str
    rated: bool
    target_seat: str
    status: str
    reason: str | None
    created_at: datetime
    expires_at: datetime
    answered_at: datetime | None


FROM, TO = aliased(Player), aliased(Player)
LISTED = (
    select(
        DirectChallenge.id, DirectChallenge.challenger, FROM.name, DirectChallenge.target, TO.name,
        DirectChallenge.match_id, DirectChallenge.game, DirectChallenge.players,
        DirectChallenge.clock, DirectChallenge.rated, DirectChallenge.target_seat,
        DirectChallenge.status, DirectChallenge.reason, DirectChallenge.created_at,
        DirectChallenge.expires_at, DirectChallenge.answered_at,
    )
    .join(FROM, FROM.id == DirectChallenge.challenger)
    .join(TO, TO.id == DirectChallenge.target)
)  # fmt: skip


def _row(columns: Any) -> ChallengeRow:
    return ChallengeRow(*columns)


def add(db: Session, row: DirectChallenge) -> None:
    db.add(row)
    db.flush()


def get(db: Session, challenge_id: str) -> ChallengeRow | None:
    found = db.execute(LISTED.where(DirectChallenge.id == challenge_id)).first()
    return None if found is None else _row(found)


def incoming(db: Session, target: str, now: datetime, limit: int) -> list[ChallengeRow]:
    """The open, unexpired challenges to `target`, the newest first."""
    query = LISTED.where(
        DirectChallenge.target == target,
        DirectChallenge.status == OPEN,
        DirectChallenge.expires_at > now,
    ).order_by(DirectChallenge.created_at.desc(), DirectChallenge.id)
    return [_row(r) for r in db.execute(query.limit(limit))]


def outgoing(db: Session, challenger: str, since: datetime, limit: int) -> list[ChallengeRow]:
    """`challenger`'s challenges still open, and those answered since `since` (so the
    challenger learns what became of them), the newest first."""
    query = LISTED.where(
        DirectChallenge.challenger == challenger,
        or_(DirectChallenge.status == OPEN, DirectChallenge.answered_at >= since),
    ).order_by(DirectChallenge.created_at.desc(), DirectChallenge.id)
    return [_row(r) for r in db.execute(query.limit(limit))]


def open_count(db: Session, challenger: str, now: datetime) -> int:
    query = select(func.count()).where(
        DirectChallenge.challenger == challenger,
        DirectChallenge.status == OPEN,
        DirectChallenge.expires_at > now,
    )
    return db.scalar(query) or 0


def open_to(db: Session, challenger: str, target: str, now: datetime) -> bool:
    """Whether `challenger` has an open, unexpired challenge to `target`."""
    query = select(DirectChallenge.id).where(
        DirectChallenge.challenger == challenger,
        DirectChallenge.target == target,
        DirectChallenge.status == OPEN,
        DirectChallenge.expires_at > now,
    )
    return db.execute(query.limit(1)).first() is not None


def answer(
    db: Session, challenge_id: str, status: str, now: datetime, reason: str | None = None
) -> bool:
    """Close the challenge as `status` if it is still open; False when it was not."""
    done = db.execute(
        update(DirectChallenge)
        .where(DirectChallenge.id == challenge_id, DirectChallenge.status == OPEN)
        .values(status=status, reason=reason, answered_at=now)
    )
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


def withdraw_seat(db: Session, match_id: str, seat: str, now: datetime) -> bool:
    """Mark the target seat's invite used, so nobody can take it any more; False when it was
    taken first (an accept won the race)."""
    done = db.execute(
        update(Invite)
        .where(Invite.match_id == match_id, Invite.seat == seat, Invite.claimed_at.is_(None))
        .values(claimed_at=now)
    )
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


def target_code(db: Session, match_id: str, seat: str) -> str | None:
    """The unused invite code of the target's seat (never shown to anyone: accepting uses it)."""
    query = select(Invite.code).where(
        Invite.match_id == match_id, Invite.seat == seat, Invite.claimed_at.is_(None)
    )
    return db.execute(query).scalar()


def due(db: Session, now: datetime, limit: int) -> list[ChallengeRow]:
    """Open challenges past their expiry, the oldest first."""
    query = LISTED.where(DirectChallenge.status == OPEN, DirectChallenge.expires_at <= now)
    return [_row(r) for r in db.execute(query.order_by(DirectChallenge.expires_at).limit(limit))]


def open_between(db: Session, one: str, other: str) -> list[ChallengeRow]:
    """The open challenges between two players, either way (a block ends them)."""
    query = LISTED.where(
        DirectChallenge.status == OPEN,
        or_(
            and_(DirectChallenge.challenger == one, DirectChallenge.target == other),
            and_(DirectChallenge.challenger == other, DirectChallenge.target == one),
        ),
    )
    return [_row(r) for r in db.execute(query)]


def close_all_of(db: Session, player: str, now: datetime) -> list[str]:
    """A player deleting itself: its open challenges, either way, are canceled and their target
    seats withdrawn; the waiting matches' ids (to be ended)."""
    query = LISTED.where(
        DirectChallenge.status == OPEN,
        or_(DirectChallenge.challenger == player, DirectChallenge.target == player),
    )
    ended = []
    for row in (_row(r) for r in db.execute(query)):
        if answer(db, row.id, "canceled", now) and withdraw_seat(
            db, row.match_id, row.target_seat, now
        ):
            ended.append(row.match_id)
    return ended
