"""Personal API tokens (contract v1.2 "Bots", issue 45): an account's tokens for programs that act
for it, each with its scopes. Only a token's SHA-256 is stored (the token itself is shown once,
when made); a revoked token keeps its row (its last use stays on record) and stops working."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, String, func, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from .db import Base
from .models import UTCDateTime, utcnow

# what a token may do: play the account's seats (bot:play), send and answer challenges
# (challenge:write), read its matches' streams (match:read)
SCOPES = ("bot:play", "challenge:write", "match:read")


class ApiToken(Base):
    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # public: names it in lists
    player: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(40))
    scopes: Mapped[list[str]] = mapped_column(JSON)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


def add(db: Session, row: ApiToken) -> None:
    db.add(row)


def live_count(db: Session, player: str) -> int:
    found = db.scalar(
        select(func.count()).where(ApiToken.player == player, ApiToken.revoked_at.is_(None))
    )
    return found or 0


def listed(db: Session, player: str) -> list[ApiToken]:
    """The player's tokens still working, the newest first."""
    rows = db.scalars(
        select(ApiToken)
        .where(ApiToken.player == player, ApiToken.revoked_at.is_(None))
        .order_by(ApiToken.created_at.desc(), ApiToken.id)
    )
    return list(rows)


def revoke(db: Session, player: str, token_id: str, now: datetime) -> bool:
    """End one of the player's tokens; False when it has no such working token."""
    done = db.execute(
        update(ApiToken)
        .where(ApiToken.id == token_id, ApiToken.player == player, ApiToken.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]


def working(db: Session, digest: str) -> ApiToken | None:
    return db.scalar(
        select(ApiToken).where(ApiToken.digest == digest, ApiToken.revoked_at.is_(None))
    )


def used(db: Session, token_id: str, now: datetime) -> None:
    db.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))
