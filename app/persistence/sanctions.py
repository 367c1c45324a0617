"""The SQL of sanctions: impose one, read the ones in force for a player and some scopes. The
caller's transaction holds it: a sanction imposed by a moderation action or an abandonment
commits with the record that caused it."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .people_tables import Sanction


def impose(
    db: Session, player: str, scope: str, until: datetime, reason: str, source: str, now: datetime
) -> None:
    db.add(
        Sanction(
            player=player, scope=scope, until=until, reason=reason, source=source, created_at=now
        )
    )


def in_force(db: Session, player: str, scopes: tuple[str, ...], now: datetime) -> list[Sanction]:
    """The player's sanctions of these scopes still running, the one ending last first."""
    found = db.scalars(
        select(Sanction)
        .where(Sanction.player == player, Sanction.scope.in_(scopes), Sanction.until > now)
        .order_by(Sanction.until.desc())
    )
    return list(found)


def sanctioned(db: Session, players: Collection[str], scope: str, now: datetime) -> set[str]:
    """Of these players, those under a sanction of this scope now (one query for a field)."""
    if not players:
        return set()
    found = db.scalars(
        select(Sanction.player).where(
            Sanction.player.in_(set(players)), Sanction.scope == scope, Sanction.until > now
        )
    )
    return set(found)


def lift(db: Session, player: str, scope: str, now: datetime) -> int:
    """End the player's sanctions of this scope now (a moderator lifting a mute or a ban)."""
    running = db.scalars(
        select(Sanction).where(
            Sanction.player == player, Sanction.scope == scope, Sanction.until > now
        )
    )
    count = 0
    for row in running:
        row.until = now
        count += 1
    return count
