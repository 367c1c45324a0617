"""The rows of tournaments (issue 46, contract v1.2 "Tournaments"): the tournament itself, each
player's entry with the score and what pairing must know, each game (an ordinary match) with
the players on its seats and what each scored, and the record of what admins did. A game's
row is written in the transaction that pairs it; its score in the transaction that ends its
match, so a standing never disagrees with the stored games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base
from .models import UTCDateTime, utcnow

# upcoming -> running -> finished, or canceled from either of the first two
STATUSES = ("upcoming", "running", "finished", "canceled")


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(16))  # arena | swiss | tables
    clock: Mapped[str] = mapped_column(String(16))  # the clock's name: realtime-15 …
    players_per_game: Mapped[int] = mapped_column(Integer, default=2)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # an arena's length
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)  # swiss, tables
    # a correspondence round format's round length: the next round starts once every game of
    # the round has ended or these days have passed (none: only once its games have ended)
    round_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_players: Mapped[int] = mapped_column(Integer)
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    min_games: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a private tournament is joined by its link (this code); public ones are listed
    join_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    creator: Mapped[str | None] = mapped_column(  # none: made by the admin token
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )
    status: Mapped[str] = mapped_column(String(16), default="upcoming", index=True)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    round: Mapped[int] = mapped_column(Integer, default=0)
    # when the current round's time is up (none: no round time, or the round waits for its
    # games because those not playing could not make a round of their own)
    round_ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Entrant(Base):
    """A player in a tournament: joined, their score, and what pairing respects. `match_id` is
    the game they play now (none: free); `ready_at` the earliest they are paired again (a
    short wait after coming back); `present` whether they have the tournament page open."""

    __tablename__ = "tournament_players"
    __table_args__ = (Index("ix_tournament_players_player", "player"),)

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    rating: Mapped[float] = mapped_column(default=1500.0)  # at joining: the order of the unplayed
    # in the format's units: an arena's points; a Swiss's half points; a table round's 60ths
    score: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)  # wins in a row now
    vp: Mapped[int] = mapped_column(Integer, default=0)  # Nations' victory points, for tie-breaks
    first_seats: Mapped[int] = mapped_column(Integer, default=0)
    second_seats: Mapped[int] = mapped_column(Integer, default=0)
    last_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_opponent: Mapped[str | None] = mapped_column(String(32), nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    ready_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    present: Mapped[bool] = mapped_column(Boolean, default=False)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)  # by an admin: may not rejoin


class TournamentGame(Base):
    """One game of a tournament: its match, and once it ended, when. A Swiss bye is a game
    without a match, ended as it is made."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), unique=True, nullable=True
    )
    round: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TournamentSeat(Base):
    """A player's seat in a tournament game: berserk or not, and what the game gave them."""

    __tablename__ = "tournament_seats"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_games.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[str] = mapped_column(String(16))
    berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[str | None] = mapped_column(String(8), nullable=True)  # win|draw|loss|bye
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TournamentEvent(Base):
    """What an admin or moderator did to a tournament (cancel, pause, remove a player…)."""

    __tablename__ = "tournament_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    action: Mapped[str] = mapped_column(String(16))
    by: Mapped[str] = mapped_column(String(64))  # a moderator's player id or "admin"
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
