"""The SQL of the bell's notifications. `add` runs in the transaction of whatever caused the
notification (a challenge, a report's outcome, …), so the two commit together; the caller then
publishes `Notified(player, id)` for the player's live sockets and Web Push. `add_on` is the same
against `Sql`, so the match transaction (an abandonment's ban) can write a line too.

Pruned as they are added, so no player's bell grows without bound and no periodic task is
needed: a player keeps at most MAX_PER_PLAYER (the oldest go first, read or not), and read
ones older than READ_KEPT_DAYS go with the next one added."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from .models import Player
from .people_tables import Notification
from .sql import OnSession, Sql

MAX_PER_PLAYER: Final = 200  # lines one player's bell keeps
READ_KEPT_DAYS: Final = 30  # a read line older than this goes with the next one added
PAGE_MAX: Final = 50  # lines one page of the list holds at most
KINDS: Final[tuple[str, ...]] = (
    "challenge", "challenge_declined", "challenge_accepted", "challenge_canceled", "your_turn",
    "rematch",
    "report_outcome", "moderation", "sanction", "tournament_start", "tournament_paired",
)  # fmt: skip
_TABLE = Player.metadata.tables["notifications"]
# the statements `add_on` runs: module constants, so the match transaction compiles each once
_ADD = insert(_TABLE).returning(_TABLE.c.id)
_MINE = _TABLE.c.player == bindparam("player")
# one statement: it runs with every line added (a 500-player arena's pairing pass adds 500),
# and three round trips a line were a third of the pass
_PRUNE = delete(_TABLE).where(
    _MINE,
    or_(
        and_(_TABLE.c.read_at.is_not(None), _TABLE.c.created_at < bindparam("old")),
        _TABLE.c.id <= (
            select(_TABLE.c.id).where(_MINE).order_by(_TABLE.c.id.desc())
            .offset(bindparam("kept")).limit(bindparam("one")).scalar_subquery()
        ),
    ),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Line:
    """One stored notification, as the bell lists it."""

    id: int
    kind: str
    data: dict[str, Any]
    at: datetime
    read: bool


def add(db: Session, player: str, kind: str, data: dict[str, Any], now: datetime) -> int:
    """Store one notification for `player`; its id (known before the commit). The player's
    oldest lines beyond the cap, and read ones past their age, go now."""
    db.flush()  # the session's pending rows first, as before a statement of its own
    return add_on(OnSession(db), player, kind, data, now)


def add_on(sql: Sql, player: str, kind: str, data: dict[str, Any], now: datetime) -> int:
    """`add` in whichever transaction `sql` runs (an ORM session's, or the match's own)."""
    values = {"player": player, "kind": kind, "data": data, "created_at": now}
    made = int(sql.rows(_ADD, values)[0][0])
    prune(sql, player, now)
    return made


def prune(sql: Sql, player: str, now: datetime) -> None:
    """Keep the player's bell bounded: read lines older than READ_KEPT_DAYS go, and beyond
    MAX_PER_PLAYER the oldest ones."""
    old = now - timedelta(days=READ_KEPT_DAYS)
    sql.write(_PRUNE, {"player": player, "old": old, "kept": MAX_PER_PLAYER, "one": 1})


def line(db: Session, player: str, notification_id: int) -> Line | None:
    """One of the player's lines (None: not theirs, or gone)."""
    row = db.get(Notification, notification_id)
    return None if row is None or row.player != player else _line(row)


def page(db: Session, player: str, unread: bool, before: int | None, limit: int) -> list[Line]:
    """The player's lines, newest first: those with ids below `before`, at most `limit` (one
    more than a page, so the caller knows whether another follows)."""
    query = select(Notification).where(Notification.player == player)
    if unread:
        query = query.where(Notification.read_at.is_(None))
    if before is not None:
        query = query.where(Notification.id < before)
    query = query.order_by(Notification.id.desc()).limit(min(limit, PAGE_MAX + 1))
    return [_line(row) for row in db.execute(query).scalars()]


def newest_id(db: Session, player: str) -> int:
    """The id of the player's newest line (0: none): what comes after it is new."""
    query = select(func.max(Notification.id)).where(Notification.player == player)
    return int(db.execute(query).scalar() or 0)


def after(db: Session, player: str, last: int, limit: int) -> list[tuple[int, str, Any]]:
    """(id, kind, data) of the player's lines newer than `last`, the oldest first."""
    query = (
        select(Notification.id, Notification.kind, Notification.data)
        .where(Notification.player == player, Notification.id > last)
        .order_by(Notification.id)
        .limit(limit)
    )
    return [(i, k, d) for i, k, d in db.execute(query)]


def unread_count(db: Session, player: str) -> int:
    query = select(func.count()).where(
        Notification.player == player, Notification.read_at.is_(None)
    )
    return int(db.execute(query).scalar_one())


def mark_read(db: Session, player: str, ids: list[int] | None, now: datetime) -> int:
    """Mark the player's lines read (`ids`, or all with None); how many changed. Ids of other
    players' lines change nothing, and say nothing."""
    query = update(Notification).where(
        Notification.player == player, Notification.read_at.is_(None)
    )
    if ids is not None:
        query = query.where(Notification.id.in_(ids))
    done = db.connection().execute(query.values(read_at=now))
    return int(done.rowcount or 0)


def unread_about(db: Session, player: str, kind: str, match_id: str) -> list[int]:
    """The player's unread lines of `kind` about the match (one `your_turn` per match at a
    time, however many moves)."""
    query = select(Notification.id, Notification.data).where(
        Notification.player == player, Notification.kind == kind,
        Notification.read_at.is_(None),
    )  # fmt: skip
    return [i for i, data in db.execute(query) if (data or {}).get("match_id") == match_id]


def chosen(kinds: list[str] | None) -> list[str]:
    """The kinds pushed: the player's choice, or by default every kind."""
    return list(KINDS) if kinds is None else [k for k in KINDS if k in kinds]


def push_kinds(db: Session, player: str) -> list[str]:
    """The kinds the player gets by Web Push too (their choice, else every kind)."""
    row = db.get(Player, player)
    return chosen(None if row is None else row.push_kinds)


def set_push_kinds(db: Session, player: str, kinds: list[str]) -> None:
    db.execute(update(Player).where(Player.id == player).values(push_kinds=kinds))


def forget(db: Session, player: str) -> None:
    """A player deleting itself: its bell goes with it."""
    db.execute(delete(Notification).where(Notification.player == player))


def _line(row: Notification) -> Line:
    return Line(row.id, row.kind, dict(row.data or {}), row.created_at, row.read_at is not None)
