"""The SQL of the bell's notifications. `add` runs in the transaction of whatever caused the
notification (a challenge, a report's outcome, …), so the two commit together; the caller then
publishes `Notified(player, id)` for the player's live sockets and Web Push."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from .people_tables import Notification


def add(db: Session, player: str, kind: str, data: dict[str, Any], now: datetime) -> int:
    """Store one notification for `player`; its id (flushed, so known before the commit)."""
    row = Notification(player=player, kind=kind, data=data, created_at=now)
    db.add(row)
    db.flush()
    return row.id
