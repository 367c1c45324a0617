"""The statements of players: a player made, found by session token or id, renamed, and its
record (the matches it sits in, its decided games and newest results)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, insert, select, update
from sqlalchemy.orm import Session

from . import repository
from .records import PlayerRow, SeatRow
from .repository import MATCHES, PLAYERS, SEATS, SESSIONS

PLAYER = select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.username.is_not(None), PLAYERS.c.bot).where(
    PLAYERS.c.deleted_at.is_(None)
)


def add_player(db: Session, player_id: str, name: str, when: datetime) -> None:
    db.connection().execute(insert(PLAYERS), {"id": player_id, "name": name, "created_at": when})


def add_session(db: Session, session_id: str, player_id: str, digest: str, when: datetime) -> None:
    """One more device holding the player: the hash of its token."""
    values = {"id": session_id, "player_id": player_id, "token_hash": digest, "created_at": when}
    db.connection().execute(insert(SESSIONS), values)


def player_by_token(db: Session, digest: str) -> PlayerRow | None:
    """The (not deleted) player a session's token holds."""
    query = PLAYER.join_from(PLAYERS, SESSIONS, SESSIONS.c.player_id == PLAYERS.c.id).where(
        SESSIONS.c.token_hash == digest
    )
    row = db.connection().execute(query).first()
    return None if row is None else PlayerRow(*row)


def player_by_id(db: Session, player_id: str) -> PlayerRow | None:
    """The player, unless it does not exist or was deleted."""
    row = db.connection().execute(PLAYER.where(PLAYERS.c.id == player_id)).first()
    return None if row is None else PlayerRow(*row)


def rename_player(db: Session, player_id: str, name: str) -> None:
    db.connection().execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(name=name))


def open_matches_of(db: Session, player_id: str) -> list[str]:
    """The waiting and active matches the player sits in (their tables show its name)."""
    query = (
        select(SEATS.c.match_id)
        .join(MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(SEATS.c.player == player_id, MATCHES.c.status.in_(("waiting", "active")))
    )
    return list(db.connection().execute(query).scalars())


def has_sat(db: Session, player_id: str) -> bool:
    """Whether the player has ever taken a seat (a bot account may only be made before)."""
    query = select(SEATS.c.match_id).where(SEATS.c.player == player_id).limit(1)
    return db.connection().execute(query).first() is not None


def playing(db: Session, player_id: str, limit: int) -> set[str]:
    """The matches under way in which the player holds a person's seat."""
    query = (
        select(SEATS.c.match_id)
        .join(MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(SEATS.c.player == player_id, SEATS.c.kind == "human", MATCHES.c.status == "active")
        .limit(limit)
    )
    return set(db.connection().execute(query).scalars())


def finished_since(
    db: Session, player_id: str, since: datetime, limit: int
) -> list[tuple[str, str, str | None]]:
    """(match id, status, winner) of the finished matches in which the player holds a person's
    seat that started at `since` or later (bounded: an event stream's window of recent ends)."""
    query = (
        select(MATCHES.c.id, MATCHES.c.status, MATCHES.c.winner)
        .join(SEATS, SEATS.c.match_id == MATCHES.c.id)
        .where(
            SEATS.c.player == player_id,
            SEATS.c.kind == "human",
            MATCHES.c.status == "finished",
            MATCHES.c.activated_at >= since,
        )
        .limit(limit)
    )
    return [(m, s, w) for m, s, w in db.connection().execute(query)]


def ends_of(db: Session, match_ids: set[str]) -> list[tuple[str, str, str | None]]:
    """(match id, status, winner) of these matches."""
    if not match_ids:
        return []
    query = select(MATCHES.c.id, MATCHES.c.status, MATCHES.c.winner).where(
        MATCHES.c.id.in_(match_ids)
    )
    return [(m, s, w) for m, s, w in db.connection().execute(query)]


def _decided_of(player_id: str) -> Any:
    """The player's seats in finished matches that have a winner (an aborted one has none)."""
    return (
        select(SEATS.c.match_id, SEATS.c.name, MATCHES.c.winner)
        .join(MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(
            SEATS.c.player == player_id,
            MATCHES.c.status == "finished",
            MATCHES.c.winner.is_not(None),
        )
    )


def record_of(db: Session, player_id: str) -> tuple[int, int]:
    """(games, wins) of the player's decided matches."""
    decided = _decided_of(player_id).subquery()
    won = func.sum(case((decided.c.winner == decided.c.name, 1), else_=0))
    row = db.connection().execute(select(func.count(), won).select_from(decided)).one()
    return int(row[0] or 0), int(row[1] or 0)


@dataclass(frozen=True)
class Decided:
    """One of a player's decided matches, as a profile and "my games" list it."""

    match_id: str
    seat: str
    winner: str
    others: list[SeatRow]  # the other seats in seat order: one in a duel, up to four in Nations
    game: str = "watergate"
    options: dict[str, Any] = field(default_factory=dict)  # the computer's levels among them
    ended_at: datetime | None = None


def recent_of(db: Session, player_id: str, limit: int) -> list[Decided]:
    """The player's newest decided matches, with their game, options and when they ended."""
    query = (
        _decided_of(player_id)
        .add_columns(MATCHES.c.game, MATCHES.c.options, MATCHES.c.updated_at)
        .order_by(MATCHES.c.updated_at.desc(), MATCHES.c.id)
        .limit(limit)
    )
    mine = [
        Decided(str(m), str(seat), str(winner), [], str(g), dict(o or {}), u)
        for m, seat, winner, g, o, u in db.connection().execute(query)
    ]
    seats = repository.seats_of_many(db, [d.match_id for d in mine])
    played = []
    for d in mine:
        others = sorted((s for s in seats[d.match_id] if s.name != d.seat), key=lambda s: s.name)
        if others:
            played.append(replace(d, others=others))
    return played
