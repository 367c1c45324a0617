"""The statements of accounts and sessions: an account by its username, a player's sessions
(one per device, by token hash), a deleted player's wiping, and the matches a player sits in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import notifications
from .models import Match

TABLES = Match.metadata.tables
PLAYERS, SESSIONS, SEATS = TABLES["players"], TABLES["player_sessions"], TABLES["seats"]
MATCHES, RATINGS, HISTORY = TABLES["matches"], TABLES["ratings"], TABLES["rating_history"]
DEVICES = TABLES["account_devices"]
SESSIONS_KEPT = 20  # per player: a new sign-in beyond this ends the oldest
DEVICES_KEPT = 20  # per player: the browsers known to it, the least recently seen forgotten


@dataclass(frozen=True, slots=True)
class AccountRow:
    player_id: str
    name: str
    username: str
    password_hash: str


@dataclass(frozen=True, slots=True)
class SessionRow:
    session_id: str
    created_at: datetime
    current: bool  # the session of the token asking


ACCOUNT = select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.username, PLAYERS.c.password_hash)


def account_by_key(db: Session, key: str) -> AccountRow | None:
    row = db.connection().execute(ACCOUNT.where(PLAYERS.c.username_key == key)).first()
    return None if row is None else AccountRow(*row)


def account_of(db: Session, player_id: str) -> AccountRow | None:
    query = ACCOUNT.where(PLAYERS.c.id == player_id, PLAYERS.c.username_key.is_not(None))
    row = db.connection().execute(query).first()
    return None if row is None else AccountRow(*row)


def set_account(db: Session, player_id: str, username: str, key: str, digest: str) -> None:
    """Give the player an account (the username's key is unique: IntegrityError if taken)."""
    db.connection().execute(
        update(PLAYERS)
        .where(PLAYERS.c.id == player_id)
        .values(username=username, username_key=key, password_hash=digest)
    )


def set_password(db: Session, player_id: str, digest: str) -> None:
    db.connection().execute(
        update(PLAYERS).where(PLAYERS.c.id == player_id).values(password_hash=digest)
    )


def replace_password(db: Session, player_id: str, old_digest: str, new_digest: str) -> None:
    """The same password, hashed with the current parameters: kept only if the hash is still
    the one that was checked (not changed meanwhile by a password change)."""
    db.connection().execute(
        update(PLAYERS)
        .where(PLAYERS.c.id == player_id, PLAYERS.c.password_hash == old_digest)
        .values(password_hash=new_digest)
    )


def session_id_of(db: Session, digest: str) -> str | None:
    query = select(SESSIONS.c.id).where(SESSIONS.c.token_hash == digest)
    found = db.connection().execute(query).scalar()
    return None if found is None else str(found)


def sessions_of(db: Session, player_id: str, digest: str) -> list[SessionRow]:
    """The player's sessions, newest first, marking the one of the asking token."""
    query = (
        select(SESSIONS.c.id, SESSIONS.c.created_at, SESSIONS.c.token_hash == digest)
        .where(SESSIONS.c.player_id == player_id)
        .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.id)
    )
    return [SessionRow(str(i), c, bool(m)) for i, c, m in db.connection().execute(query)]


def trim_sessions(db: Session, player_id: str) -> None:
    """Keep the player's newest SESSIONS_KEPT sessions; end the older ones."""
    kept = (
        select(SESSIONS.c.id)
        .where(SESSIONS.c.player_id == player_id)
        .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.id)
        .limit(SESSIONS_KEPT)
        .scalar_subquery()
    )
    db.connection().execute(
        delete(SESSIONS).where(SESSIONS.c.player_id == player_id, SESSIONS.c.id.not_in(kept))
    )


def end_other_sessions(db: Session, player_id: str, kept_digest: str) -> int:
    """End every session of the player but the one of the token hashed `kept_digest`; how
    many ended."""
    done = db.connection().execute(
        delete(SESSIONS).where(
            SESSIONS.c.player_id == player_id, SESSIONS.c.token_hash != kept_digest
        )
    )
    return int(done.rowcount)


def end_session(db: Session, player_id: str, session_id: str) -> bool:
    """Revoke one of the player's sessions; false if it has none by that id."""
    done = db.connection().execute(
        delete(SESSIONS).where(SESSIONS.c.player_id == player_id, SESSIONS.c.id == session_id)
    )
    return bool(done.rowcount == 1)


def device_known(db: Session, player_id: str, digest: str) -> bool:
    query = select(DEVICES.c.digest).where(
        DEVICES.c.player_id == player_id, DEVICES.c.digest == digest
    )
    return db.connection().execute(query).first() is not None


def remember_device(db: Session, player_id: str, digest: str, now: datetime) -> None:
    """The browser (its device cookie's hash) has signed in to the player's account now; the
    player keeps its DEVICES_KEPT most recently seen browsers."""
    conn = db.connection()
    seen = conn.execute(
        update(DEVICES)
        .where(DEVICES.c.player_id == player_id, DEVICES.c.digest == digest)
        .values(seen_at=now)
    )
    if seen.rowcount == 0:
        try:
            with db.begin_nested():
                conn.execute(
                    DEVICES.insert().values(
                        player_id=player_id, digest=digest, created_at=now, seen_at=now
                    )
                )
        except IntegrityError:  # the same browser signed in twice at once: the other noted it
            pass
    kept = (
        select(DEVICES.c.digest)
        .where(DEVICES.c.player_id == player_id)
        .order_by(DEVICES.c.seen_at.desc(), DEVICES.c.digest)
        .limit(DEVICES_KEPT)
        .scalar_subquery()
    )
    conn.execute(
        delete(DEVICES).where(DEVICES.c.player_id == player_id, DEVICES.c.digest.not_in(kept))
    )


def forget_devices(db: Session, player_id: str, kept_digest: str | None) -> None:
    """Forget every browser known to the player's account but the one hashed `kept_digest`."""
    query = delete(DEVICES).where(DEVICES.c.player_id == player_id)
    if kept_digest is not None:
        query = query.where(DEVICES.c.digest != kept_digest)
    db.connection().execute(query)


def wipe_player(db: Session, player_id: str, when: datetime) -> None:
    """A player deleting itself: its sessions, ratings and their history go; its row stays (its
    seats refer to it) with no name, account or password left, marked deleted."""
    conn = db.connection()
    for table in (SESSIONS, RATINGS, HISTORY, DEVICES):
        conn.execute(delete(table).where(table.c.player_id == player_id))
    notifications.forget(db, player_id)  # its bell (issue 43)
    conn.execute(
        update(PLAYERS)
        .where(PLAYERS.c.id == player_id)
        .values(name="", username=None, username_key=None, password_hash=None, deleted_at=when)
    )


def matches_of(db: Session, player_id: str) -> list[str]:
    query = select(SEATS.c.match_id).where(SEATS.c.player == player_id)
    return [str(m) for m in db.connection().execute(query).scalars()]


@dataclass(frozen=True, slots=True)
class Ongoing:
    match_id: str
    game: str
    seat: str
    status: str  # waiting | active
    rated: bool
    updated_at: datetime
    options: dict[str, Any] = field(default_factory=dict)  # the computer's levels among them


def ongoing_of(db: Session, player_id: str, limit: int) -> list[Ongoing]:
    """The player's waiting and active matches, most recently moved first."""
    query = (
        select(
            MATCHES.c.id, MATCHES.c.game, SEATS.c.name, MATCHES.c.status, MATCHES.c.options,
            MATCHES.c.updated_at,
        )
        .join_from(SEATS, MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(SEATS.c.player == player_id, MATCHES.c.status.in_(("waiting", "active")))
        .order_by(MATCHES.c.updated_at.desc(), MATCHES.c.id)
        .limit(limit)
    )  # fmt: skip
    return [
        Ongoing(str(m), str(g), str(s), str(st), (o or {}).get("rated") is True, u, dict(o or {}))
        for m, g, s, st, o, u in db.connection().execute(query)
    ]


def record_by_seat(db: Session, player_id: str) -> list[tuple[str, int, int]]:
    """(seat, games, wins) of the player's decided matches, per seat it played."""
    won = func.sum(case((MATCHES.c.winner == SEATS.c.name, 1), else_=0))
    query = (
        select(SEATS.c.name, func.count(), won)
        .join_from(SEATS, MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(
            SEATS.c.player == player_id,
            MATCHES.c.status == "finished",
            MATCHES.c.winner.is_not(None),
        )
        .group_by(SEATS.c.name)
        .order_by(SEATS.c.name)
    )
    return [(str(s), int(n or 0), int(w or 0)) for s, n, w in db.connection().execute(query)]
