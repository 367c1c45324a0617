"""The SQL of follows (contract v1.2 "People"): who a player follows, who follows them, and who
of them are friends (a follow each way). Bounded reads only: a player follows at most so many
(the service's cap), and every list is read with a limit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.orm import Session

from .models import Match, Player, Seat
from .people_tables import Follow


@dataclass(frozen=True, slots=True)
class Person:
    """A followed (or following) player as the people page lists it."""

    player_id: str
    name: str
    since: datetime
    bot: bool = False  # a bot account: the page marks it BOT


def follow(db: Session, follower: str, followee: str, now: datetime) -> bool:
    """Record the follow; False when it was already there."""
    if db.get(Follow, (follower, followee)) is not None:
        return False
    db.add(Follow(follower=follower, followee=followee, created_at=now))
    db.flush()
    return True


def unfollow(db: Session, follower: str, followee: str) -> bool:
    """Remove the follow; False when there was none."""
    gone = db.execute(
        delete(Follow).where(Follow.follower == follower, Follow.followee == followee)
    )
    return bool(gone.rowcount)  # type: ignore[attr-defined]


def part(db: Session, one: str, other: str) -> None:
    """Remove the follows between two players, both ways (a block ends them)."""
    db.execute(
        delete(Follow).where(
            or_(
                and_(Follow.follower == one, Follow.followee == other),
                and_(Follow.follower == other, Follow.followee == one),
            )
        )
    )


def count(db: Session, follower: str) -> int:
    return db.scalar(select(func.count()).where(Follow.follower == follower)) or 0


def follows(db: Session, follower: str, followee: str) -> bool:
    return db.get(Follow, (follower, followee)) is not None


def friends(db: Session, one: str, other: str) -> bool:
    """A follow each way."""
    return follows(db, one, other) and follows(db, other, one)


def _people(db: Session, mine: Any, theirs: Any, me: str, limit: int) -> list[Person]:
    query = (
        select(theirs, Player.name, Follow.created_at, Player.bot)
        .join(Player, Player.id == theirs)
        .where(mine == me, Player.deleted_at.is_(None))
        .order_by(func.lower(Player.name), Player.id)
        .limit(limit)
    )
    return [Person(str(p), str(n), at, bool(b)) for p, n, at, b in db.execute(query)]


def following(db: Session, player: str, limit: int) -> list[Person]:
    """Whom `player` follows, by name."""
    return _people(db, Follow.follower, Follow.followee, player, limit)


def followers(db: Session, player: str, limit: int) -> list[Person]:
    """Who follows `player`, by name."""
    return _people(db, Follow.followee, Follow.follower, player, limit)


def following_among(db: Session, player: str, others: Iterable[str]) -> set[str]:
    """Of `others`, those `player` follows."""
    wanted = set(others)
    if not wanted:
        return set()
    query = select(Follow.followee).where(Follow.follower == player, Follow.followee.in_(wanted))
    return set(db.execute(query).scalars())


def active_seats(db: Session, players: Iterable[str], limit: int) -> list[tuple[str, str, str]]:
    """(player, match id, seat) of the players' seats in active matches, the newest first."""
    wanted = set(players)
    if not wanted:
        return []
    query = (
        select(Seat.player, Seat.match_id, Seat.name)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player.in_(wanted), Match.status == "active")
        .order_by(Match.updated_at.desc())
        .limit(limit)
    )
    return [(str(p), str(m), str(s)) for p, m, s in db.execute(query)]
