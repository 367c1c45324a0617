"""The SQL of seat keys (contract v1.2 "Your seats on every device"): which seat of a match a
signed-in player holds, and the extra tokens given for it, one per device (session) and match."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .models import Seat, SeatKey


def held_seat(db: Session, match_id: str, player_id: str) -> str | None:
    """The seat of the match that this player took and still plays (a person's seat, taken);
    none for a seat they left to the computer or never took."""
    query = (
        select(Seat.name)
        .where(
            Seat.match_id == match_id,
            Seat.player == player_id,
            Seat.kind == "human",
            Seat.token_hash.is_not(None),
        )
        .order_by(Seat.id)
        .limit(1)
    )
    found = db.scalar(query)
    return None if found is None else str(found)


def give_key(
    db: Session, digest: str, match_id: str, seat: str, session_id: str, now: datetime
) -> None:
    """Keep the hash of a new key for the seat; the key this session had for the match goes."""
    db.execute(
        delete(SeatKey).where(SeatKey.session_id == session_id, SeatKey.match_id == match_id)
    )
    db.add(
        SeatKey(digest=digest, match_id=match_id, seat=seat, session_id=session_id, created_at=now)
    )


def seat_by_key(db: Session, digest: str) -> tuple[str, str] | None:
    """(match id, seat) of the seat key with this hash, while its session lasts."""
    row = db.execute(select(SeatKey.match_id, SeatKey.seat).where(SeatKey.digest == digest)).first()
    return None if row is None else (str(row[0]), str(row[1]))
