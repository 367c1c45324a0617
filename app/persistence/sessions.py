"""Admin sign-in sessions: their row (only a keyed hash of each session id) and their SQL, apart
from the matches' repository because they share nothing with a match."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .db import Base
from .models import UTCDateTime


class AdminSession(Base):
    """One signed-in admin browser. Deleting the row signs it out, wherever its cookie is."""

    __tablename__ = "admin_sessions"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


def add_session(db: Session, digest: str, now: datetime, expires: datetime) -> None:
    db.add(AdminSession(digest=digest, created_at=now, expires_at=expires))


def session_alive(db: Session, digest: str, now: datetime) -> bool:
    found = db.scalar(
        select(AdminSession.digest).where(
            AdminSession.digest == digest, AdminSession.expires_at > now
        )
    )
    return found is not None


def drop_session(db: Session, digest: str) -> None:
    db.execute(delete(AdminSession).where(AdminSession.digest == digest))


def drop_all_sessions(db: Session) -> int:
    dropped = db.execute(delete(AdminSession))
    return int(dropped.rowcount)  # type: ignore[attr-defined]


def drop_expired_sessions(db: Session, now: datetime) -> None:
    db.execute(delete(AdminSession).where(AdminSession.expires_at <= now))
