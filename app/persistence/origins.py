"""The SQL of rating farming's check (issue 40, finding 22): where a player was made (a keyed
hash of the address, `players.created_from`) and when; unrating a match whose seats were made
together, and the automatic report that says so. The seat-taking transaction (the move path's
own connection) runs the latter, so they are written against `Sql`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from .models import Match
from .people_tables import Report
from .sql import Sql

TABLES = Match.metadata.tables
PLAYERS, MATCHES, REPORTS = TABLES["players"], TABLES["matches"], TABLES[Report.__tablename__]

ORIGIN = select(PLAYERS.c.created_from, PLAYERS.c.created_at).where(
    PLAYERS.c.id == bindparam("who")
)
SET_OPTIONS = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("the_match"))
    .values(options=bindparam("new_options"))
)
ADD_REPORT = insert(REPORTS)


def set_origin(db: Session, player_id: str, digest: str) -> None:
    query = update(PLAYERS).where(PLAYERS.c.id == player_id).values(created_from=digest)
    db.connection().execute(query)


def origin(sql: Sql, player_id: str) -> tuple[str | None, datetime] | None:
    """(created_from, created_at) of a player, None if there is no such player."""
    found = sql.rows(ORIGIN, {"who": player_id})
    return (found[0][0], _utc(found[0][1])) if found else None


def _utc(value: datetime | str) -> datetime:
    """A timestamp as the move path's driver gives it (SQLite: text, naive) in UTC."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def set_options(sql: Sql, match_id: str, options: dict[str, Any]) -> None:
    sql.write(SET_OPTIONS, {"the_match": match_id, "new_options": options})


def file_report(sql: Sql, player: str, match_id: str, text: str, when: datetime) -> None:
    """A report filed by the site itself (no reporter), for the moderators' queue."""
    values = {"reporter": None, "player": player, "reason": "cheating", "text": text}
    sql.write(ADD_REPORT, {**values, "match_id": match_id, "status": "open", "created_at": when})
