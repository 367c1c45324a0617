"""The SQL of reliability (issue 43): a seat's abandonment record and the ban it may bring,
written against `Sql` so both join the transaction that ends the match or hands the seat to the
computer (the move path's own connection); and the reliability figure, the finished share of
each player's last ended games, read for many players in one statement (the lobby lists up to a
hundred challenges)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import and_, bindparam, distinct, func, insert, literal_column, select
from sqlalchemy.orm import Session

from .models import Match
from .people_tables import Abandonment, Sanction
from .sql import Sql

TABLES = Match.metadata.tables
SEATS, MATCHES = TABLES["seats"], TABLES["matches"]
ABANDONMENTS, SANCTIONS = TABLES["abandonments"], TABLES["sanctions"]
ENDED = ("finished", "abandoned")  # row statuses of an ended match

ADD_RECORD = insert(ABANDONMENTS)
ADD_SANCTION = insert(SANCTIONS)
# the player's records since a moment (this one included, once written)
RECORDS_SINCE = select(func.count()).where(
    ABANDONMENTS.c.player == bindparam("who"), ABANDONMENTS.c.created_at >= bindparam("since")
)


def add_record(sql: Sql, player: str, match_id: str, reason: str, when: datetime) -> None:
    values = {"player": player, "match_id": match_id, "reason": reason, "created_at": when}
    sql.write(ADD_RECORD, values)


def records_since(sql: Sql, player: str, since: datetime) -> int:
    found = sql.rows(RECORDS_SINCE, {"who": player, "since": since})
    return int(found[0][0]) if found else 0


def add_sanction(
    sql: Sql, player: str, scope: str, until: datetime, reason: str, when: datetime
) -> None:
    """A ban from abandonment (`source` abandonment), in the caller's transaction."""
    values = {"player": player, "scope": scope, "until": until, "reason": reason}
    sql.write(ADD_SANCTION, {**values, "source": "abandonment", "created_at": when})


def figures(db: Session, players: Collection[str], last: int) -> dict[str, tuple[int, int]]:
    """player -> (ended games counted, those of them the player abandoned), over each player's
    `last` newest ended matches; players without an ended match are absent. One statement:
    each player's matches numbered newest first, the first `last` joined to the records."""
    if not players:
        return {}
    numbered = (
        select(
            SEATS.c.player.label("player"),
            SEATS.c.match_id.label("match_id"),
            func.row_number()
            .over(
                partition_by=SEATS.c.player,
                order_by=(MATCHES.c.updated_at.desc(), MATCHES.c.id.desc()),
            )
            .label("n"),
        )
        .join_from(SEATS, MATCHES, MATCHES.c.id == SEATS.c.match_id)
        .where(SEATS.c.player.in_(list(players)), MATCHES.c.status.in_(ENDED))
        .subquery()
    )
    left = and_(
        ABANDONMENTS.c.player == numbered.c.player,
        ABANDONMENTS.c.match_id == numbered.c.match_id,
    )
    query = (
        select(numbered.c.player, func.count(distinct(numbered.c.match_id)))
        .add_columns(func.count(distinct(ABANDONMENTS.c.match_id)))
        .select_from(numbered.outerjoin(ABANDONMENTS, left))
        .where(numbered.c.n <= literal_column(str(int(last))))
        .group_by(numbered.c.player)
    )
    return {str(p): (int(n), int(a)) for p, n, a in db.connection().execute(query)}


def records_of(db: Session, player: str, limit: int) -> list[Abandonment]:
    """The player's own records, newest first (their export)."""
    query = (
        select(Abandonment)
        .where(Abandonment.player == player)
        .order_by(Abandonment.created_at.desc(), Abandonment.id.desc())
        .limit(limit)
    )
    return list(db.scalars(query))


def sanctions_of(db: Session, player: str, limit: int) -> list[Sanction]:
    """Every sanction the player has had, newest first (their export)."""
    query = (
        select(Sanction)
        .where(Sanction.player == player)
        .order_by(Sanction.created_at.desc(), Sanction.id.desc())
        .limit(limit)
    )
    return list(db.scalars(query))
