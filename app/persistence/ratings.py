"""The statements of ratings: the accounts seated in a match with their ratings in its game
(locked, so two matches ending at once cannot both start from the same rating), their new
values, the history rows of the chart, and the leaderboard. Written against `Sql`, so rating
joins the transaction that ends the match, whichever it is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, literal_column, select, update
from sqlalchemy.orm import Session

from .models import Match
from .sql import Sql

TABLES = Match.metadata.tables
SEATS, PLAYERS = TABLES["seats"], TABLES["players"]
RATINGS, HISTORY = TABLES["ratings"], TABLES["rating_history"]


@dataclass(frozen=True, slots=True)
class RatingRow:
    player_id: str
    game: str
    rating: float
    rd: float
    volatility: float
    games: int


RATING_COLUMNS = [RATINGS.c.player_id, RATINGS.c.game, RATINGS.c.rating, RATINGS.c.rd]
RATING_COLUMNS += [RATINGS.c.volatility, RATINGS.c.games]

# the seats of a match held by accounts (a deleted player has none)
ACCOUNT_SEATS = (
    select(SEATS.c.name, SEATS.c.player)
    .join_from(SEATS, PLAYERS, PLAYERS.c.id == SEATS.c.player)
    .where(SEATS.c.match_id == bindparam("match_id"), PLAYERS.c.username_key.is_not(None))
    .order_by(SEATS.c.name)
)
RATING_LOCKED = (
    select(*RATING_COLUMNS)
    .where(RATINGS.c.player_id == bindparam("player"), RATINGS.c.game == bindparam("in_game"))
    .with_for_update()
)
ADD_RATING = insert(RATINGS)
SET_RATING = (
    update(RATINGS)
    .where(RATINGS.c.player_id == bindparam("player"), RATINGS.c.game == bindparam("in_game"))
    .values(
        rating=bindparam("new_rating"),
        rd=bindparam("new_rd"),
        volatility=bindparam("new_volatility"),
        games=RATINGS.c.games + literal_column("1"),  # inline: the move path binds names only
        updated_at=bindparam("when"),
    )
)
ADD_HISTORY = insert(HISTORY)


def account_seats(sql: Sql, match_id: str) -> list[tuple[str, str]]:
    """(seat, player id) of the match's seats whose players have accounts."""
    return [(str(s), str(p)) for s, p in sql.rows(ACCOUNT_SEATS, {"match_id": match_id})]


def locked_rating(sql: Sql, player_id: str, game: str) -> RatingRow | None:
    found = sql.rows(RATING_LOCKED, {"player": player_id, "in_game": game})
    return RatingRow(*found[0]) if found else None


def add_rating(sql: Sql, row: RatingRow, when: datetime) -> None:
    values: dict[str, Any] = {
        "player_id": row.player_id,
        "game": row.game,
        "rating": row.rating,
        "rd": row.rd,
        "volatility": row.volatility,
        "games": row.games,
        "updated_at": when,
    }
    sql.write(ADD_RATING, values)


def set_rating(
    sql: Sql, player_id: str, game: str, rating: tuple[float, float, float], when: datetime
) -> None:
    """The rating after one more rated match (its games count moves on by one)."""
    new_rating, new_rd, new_volatility = rating
    sql.write(
        SET_RATING,
        {
            "player": player_id,
            "in_game": game,
            "new_rating": new_rating,
            "new_rd": new_rd,
            "new_volatility": new_volatility,
            "when": when,
        },
    )


def add_history(
    sql: Sql, player_id: str, game: str, match_id: str, rating: float, rd: float, when: datetime
) -> None:
    values = {"player_id": player_id, "game": game, "match_id": match_id}
    sql.write(ADD_HISTORY, {**values, "rating": rating, "rd": rd, "created_at": when})


# ---- reading (profiles, the leaderboard) ---------------------------------------------------------


def ratings_of(db: Session, player_id: str) -> list[RatingRow]:
    query = select(*RATING_COLUMNS).where(RATINGS.c.player_id == player_id)
    return [RatingRow(*row) for row in db.connection().execute(query.order_by(RATINGS.c.game))]


def history_of(
    db: Session, player_id: str, game: str, limit: int
) -> list[tuple[str, float, float, datetime]]:
    """The player's newest rated matches in the game, oldest first: (match, rating, rd, when)."""
    query = (
        select(HISTORY.c.match_id, HISTORY.c.rating, HISTORY.c.rd, HISTORY.c.created_at)
        .where(HISTORY.c.player_id == player_id, HISTORY.c.game == game)
        .order_by(HISTORY.c.id.desc())
        .limit(limit)
    )
    found = [(str(m), float(r), float(d), w) for m, r, d, w in db.connection().execute(query)]
    return found[::-1]


def leaderboard(
    db: Session, game: str, limit: int, offset: int, bots: bool = False
) -> tuple[list[tuple[str, str, RatingRow]], int]:
    """One page of the game's rated players, best first: (player id, name, rating); and how
    many there are. Only accounts that have played a rated match, never a deleted one; people
    and bot accounts each have their own board (`bots`)."""
    ranked = (
        select(PLAYERS.c.id, PLAYERS.c.name, *RATING_COLUMNS)
        .join_from(RATINGS, PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
        .where(
            RATINGS.c.game == game,
            RATINGS.c.games > 0,
            PLAYERS.c.deleted_at.is_(None),
            PLAYERS.c.username_key.is_not(None),
            PLAYERS.c.bot == bots,
        )
    )
    total = db.connection().execute(select(func.count()).select_from(ranked.subquery())).scalar()
    page = ranked.order_by(RATINGS.c.rating.desc(), PLAYERS.c.id).limit(limit).offset(offset)
    rows = [
        (str(pid), str(name), RatingRow(*rest))
        for pid, name, *rest in db.connection().execute(page)
    ]
    return rows, int(total or 0)
