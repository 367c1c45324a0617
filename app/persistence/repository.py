"""The statements of matches, seats, invites, actions and rematches, as small functions over a
session the caller's transaction owns, and the Core statements built once that the other
statement modules of this package (players, admin, accounts…) join on. Services call these;
nothing outside app/persistence writes SQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Select,
    and_,
    bindparam,
    delete,
    false,
    func,
    insert,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import BindParameter

from .models import Match, MatchAction, MatchAnalysis, Rematch, Seat, utcnow
from .records import Ending, InviteRow, MatchRow, SeatRow

# ---- matches -------------------------------------------------------------------------------------


def get_match(db: Session, match_id: str, *, lock: bool = False) -> Match | None:
    """The match row; `lock` takes the row lock (PostgreSQL; SQLite holds the database lock)."""
    return db.get(Match, match_id, with_for_update=lock)


# The paths every match takes (create, claim, every move) in plain Core statements, built once:
# the ORM's identity map and unit of work cost about 2 ms of CPU per action, most of a move's
# time on the server; rows come back as typed records.
MATCHES = Match.metadata.tables["matches"]
ROWS = select(*(MATCHES.c[f.name] for f in fields(MatchRow)))
ROW = ROWS.where(MATCHES.c.id == bindparam("match_id"))
ROW_LOCKED = ROW.with_for_update()
ADVANCE = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("match_id"))
    .values(
        version=bindparam("version"),
        round=bindparam("round"),
        updated_at=bindparam("when"),
        due_at=bindparam("due"),
    )
)
FINISH = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("match_id"))
    .values(
        status=bindparam("status"),
        winner=bindparam("winner"),
        win_reason=bindparam("win_reason"),
        ended_by=bindparam("ended_by"),
        updated_at=bindparam("when"),
    )
)
FINISH_AT = FINISH.where(MATCHES.c.status == "active", MATCHES.c.version == bindparam("at_version"))
ADD_ACTION = insert(Match.metadata.tables["match_actions"])
ADD_AUDIT = insert(Match.metadata.tables["admin_audit"])
SEATS = Match.metadata.tables["seats"]
PLAYERS = Match.metadata.tables["players"]
SESSIONS = Match.metadata.tables["player_sessions"]
RATINGS = Match.metadata.tables["ratings"]
SEAT_ROWS: Select[Any] = select(  # (the star makes the typing guess a shorter row)
    *(SEATS.c[f.name] for f in fields(SeatRow) if not f.name.startswith("player_")),
    PLAYERS.c.name,
    PLAYERS.c.deleted_at.is_not(None),
    RATINGS.c.rating,
    func.coalesce(PLAYERS.c.bot, false()),
).select_from(
    SEATS.outerjoin(PLAYERS, SEATS.c.player == PLAYERS.c.id)
    .join(MATCHES, MATCHES.c.id == SEATS.c.match_id)
    .outerjoin(  # the player's rating in the match's game, as the match is read
        RATINGS, and_(RATINGS.c.player_id == SEATS.c.player, RATINGS.c.game == MATCHES.c.game)
    )
)
SEATS_OF = SEAT_ROWS.where(SEATS.c.match_id == bindparam("match_id"))
INVITES = Match.metadata.tables["invites"]
INVITE = select(*(INVITES.c[f.name] for f in fields(InviteRow))).where(
    INVITES.c.code == bindparam("code")
)


def match_row(db: Session, match_id: str, *, lock: bool = False) -> MatchRow | None:
    """The match row's columns as a record; `lock` as in get_match."""
    found = db.connection().execute(ROW_LOCKED if lock else ROW, {"match_id": match_id})
    row = found.first()
    return None if row is None else MatchRow(*row)


def ending_values(ending: Ending, when: datetime) -> dict[str, Any]:
    """FINISH's parameters besides the match id."""
    return {
        "status": ending.status,
        "winner": ending.winner,
        "win_reason": ending.win_reason,
        "ended_by": ending.ended_by,
        "when": when,
    }


def finish(
    db: Session, match_id: str, ending: Ending, when: datetime, *, at_version: int | None = None
) -> bool:
    """End the match; with `at_version`, only if it is still active at that version (a sweep's
    verdict must not overrule a move accepted since it looked)."""
    params = {"match_id": match_id, **ending_values(ending, when)}
    if at_version is None:
        done = db.connection().execute(FINISH, params)
    else:  # (a parameter named like a column would be taken as one more column to set)
        done = db.connection().execute(FINISH_AT, {**params, "at_version": at_version})
    return done.rowcount == 1


def add_match(db: Session, match: Match) -> None:
    """Insert a new (transient) row; unset columns take their defaults."""
    values = {c.key: getattr(match, c.key) for c in MATCHES.c}
    db.connection().execute(insert(MATCHES), {k: v for k, v in values.items() if v is not None})


def delete_match(db: Session, match: Match) -> None:
    db.execute(delete(MatchAction).where(MatchAction.match_id == match.id))
    # SQLite enforces no foreign keys here: the analysis goes explicitly, as the actions do
    db.execute(delete(MatchAnalysis).where(MatchAnalysis.match_id == match.id))
    db.delete(match)


def with_bot() -> Any:
    """The ids of matches with a computer seat (a subquery)."""
    return select(Seat.match_id).where(Seat.kind == "bot")


def bot_matches_active(db: Session) -> list[str]:
    """Active matches with a computer seat."""
    query = select(Match.id).where(Match.status == "active", Match.id.in_(with_bot()))
    return list(db.scalars(query).all())


def _between_people() -> Any:
    """The ids of matches with two or more people's seats (taken or still open): a duel between
    people, or a table with people at it, but not a person alone with the computer."""
    return (  # literals inline: the match transaction's statements bind names only
        select(SEATS.c.match_id)
        .where(SEATS.c.kind == literal_column("'human'"))
        .group_by(SEATS.c.match_id)
        .having(func.count() >= literal_column("2"))
    )


def _idle(cutoff: datetime | BindParameter[Any]) -> Any:
    """Waiting or active matches between people with no activity since `cutoff`."""
    return and_(
        MATCHES.c.status.in_((literal_column("'waiting'"), literal_column("'active'"))),
        MATCHES.c.updated_at < cutoff,
        MATCHES.c.id.in_(_between_people()),
    )


IDLE = select(MATCHES.c.id).where(_idle(bindparam("cutoff")))
# whether one match is still idle (read under its lock before it is abandoned)
STILL_IDLE = select(MATCHES.c.id).where(
    MATCHES.c.id == bindparam("the_match"), _idle(bindparam("cutoff"))
)


def idle_human_matches(db: Session, cutoff: datetime) -> list[str]:
    return list(db.connection().execute(IDLE, {"cutoff": cutoff}).scalars())


def idle_bot_matches(db: Session, cutoff: datetime, limit: int) -> list[MatchRow]:
    """Active matches untouched since `cutoff` where a bot account holds a seat it still plays,
    the stalest first (the sweep keeps those without a clock, and asks whose turn it is)."""
    bot_seats = (
        select(SEATS.c.match_id)
        .join(PLAYERS, PLAYERS.c.id == SEATS.c.player)
        .where(PLAYERS.c.bot.is_(True), SEATS.c.kind == literal_column("'human'"))
    )
    query = (
        ROWS.where(
            MATCHES.c.status == "active",
            MATCHES.c.updated_at < cutoff,
            MATCHES.c.id.in_(bot_seats),
        )
        .order_by(MATCHES.c.updated_at)
        .limit(limit)
    )
    return [MatchRow(*row) for row in db.connection().execute(query)]


# A match without a clock: due never (a far date rather than null, which means "not known yet").
NEVER = datetime(9999, 1, 1, tzinfo=UTC)


DUE = ROWS.where(
    MATCHES.c.status == "active",
    or_(MATCHES.c.due_at.is_(None), MATCHES.c.due_at <= bindparam("now")),
)


def due_matches(db: Session, now: datetime) -> list[MatchRow]:
    """Active matches whose deciding seat may have run out of time by `now`, or whose moment
    is not known yet (index ix_matches_status_due_at: a quiet sweep reads no row at all)."""
    return [MatchRow(*row) for row in db.connection().execute(DUE, {"now": now})]


# the deciding seat changed outside a move (a leaver's seat went to the computer): unknown again
SET_DUE = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("the_match"), MATCHES.c.version == bindparam("at_version"))
    .values(due_at=bindparam("due"))
)


def set_due(db: Session, match_id: str, due: datetime | None, *, at_version: int) -> None:
    """Record when the match's clock runs out (None: work it out again at the next sweep),
    unless a move has moved it on since."""
    db.connection().execute(
        update(MATCHES)
        .where(MATCHES.c.id == match_id, MATCHES.c.version == at_version)
        .values(due_at=due)
    )


# ---- seats and invites ---------------------------------------------------------------------------

# A person leaves a table of three or more: the computer takes the seat over (contract v1.2). The
# token stays, so the leaver can still watch the table; the seat's kind refuses their moves.
LEAVE_SEAT = (
    update(SEATS)
    .where(
        SEATS.c.match_id == bindparam("in_match"),
        SEATS.c.name == bindparam("seat"),
        SEATS.c.kind == literal_column("'human'"),  # inline: the move path binds names only
    )
    .values(
        kind=literal_column("'bot'"),
        left_at=bindparam("when"),
        left_reason=bindparam("reason"),
        left_log=bindparam("log_length"),
    )
)


def add_seats(
    db: Session,
    match_id: str,
    kinds: dict[str, str],
    held: dict[str, str],
    players: dict[str, str | None],
) -> None:
    """A row per seat of a new match: its kind, the token hash of the seats already taken, and
    the player on each seat that has one."""
    rows = [
        {
            "match_id": match_id,
            "name": name,
            "kind": kind,
            "token_hash": held.get(name),
            "player": players.get(name),
        }
        for name, kind in kinds.items()
    ]
    db.connection().execute(insert(SEATS), rows)


def seat_by_token(db: Session, digest: str) -> tuple[str, str] | None:
    """(match id, seat name) of the seat holding the token with this hash."""
    query = select(SEATS.c.match_id, SEATS.c.name).where(SEATS.c.token_hash == digest)
    row = db.connection().execute(query).first()
    return None if row is None else (str(row[0]), str(row[1]))


def seats_of(db: Session, match_id: str) -> list[SeatRow]:
    found = db.connection().execute(SEATS_OF, {"match_id": match_id})
    return [SeatRow(*row) for row in found]


def seats_of_many(db: Session, match_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    """match id -> its seat rows (with their players' names), for the listed matches."""
    found: dict[str, list[SeatRow]] = {m: [] for m in match_ids}
    if match_ids:
        query = SEAT_ROWS.add_columns(SEATS.c.match_id).where(SEATS.c.match_id.in_(match_ids))
        for *columns, match_id in db.connection().execute(query):
            found[match_id].append(SeatRow(*columns))
    return found


def touch_seat(db: Session, match_id: str, seat: str, when: datetime) -> None:
    db.connection().execute(
        update(SEATS)
        .where(SEATS.c.match_id == match_id, SEATS.c.name == seat)
        .values(last_seen_at=when)
    )


def add_invite(db: Session, code: str, match_id: str, seat: str) -> None:
    db.connection().execute(
        insert(INVITES), {"code": code, "match_id": match_id, "seat": seat, "created_at": utcnow()}
    )


def get_invite(db: Session, code: str) -> InviteRow | None:
    row = db.connection().execute(INVITE, {"code": code}).first()
    return None if row is None else InviteRow(*row)


# ---- actions -------------------------------------------------------------------------------------


def actions_between(db: Session, match_id: str, after: int, upto: int | None) -> list[MatchAction]:
    """The stored actions with after < seq <= upto (all after `after` when upto is None)."""
    query = select(MatchAction).where(MatchAction.match_id == match_id, MatchAction.seq > after)
    if upto is not None:
        query = query.where(MatchAction.seq <= upto)
    return list(db.scalars(query.order_by(MatchAction.seq)).all())


def add_action(
    db: Session, match_id: str, seq: int, seat: str, action: Any, when: datetime
) -> None:
    """The (match_id, seq) unique constraint refuses a second action at the same version."""
    db.connection().execute(
        ADD_ACTION,
        {"match_id": match_id, "seq": seq, "role": seat, "action": action, "created_at": when},
    )


# ---- rematches -----------------------------------------------------------------------------------


def get_rematch(db: Session, old_match_id: str, *, lock: bool = False) -> Rematch | None:
    return db.get(Rematch, old_match_id, with_for_update=lock)


def add_rematch(db: Session, old_match_id: str, offered_by: str, now: datetime) -> None:
    """The offer: its maker has accepted it by making it. `now` is the app's clock, the one its
    lapse is read by (the column's default would be the wall clock)."""
    answers = {offered_by: "accepted"}
    db.add(
        Rematch(old_match_id=old_match_id, offered_by=offered_by, answers=answers, offered_at=now)
    )


# ---- readiness -----------------------------------------------------------------------------------


def ping(db: Session) -> None:
    """A read of the matches table: the database answers and holds our schema."""
    db.execute(select(Match.id).limit(1)).all()


def try_write(db: Session) -> None:
    """Raises if the database refuses writes: SQLite's file read-only (or its disk, or its
    shared-memory file), PostgreSQL read-only (a standby, default_transaction_read_only). The
    caller rolls back: an UPDATE that changes nothing still needs the write lock, and SQLite
    refuses it at once on a database it cannot write."""
    if db.get_bind().dialect.name == "sqlite":
        db.execute(text("UPDATE alembic_version SET version_num = version_num"))
    elif db.execute(text("SHOW transaction_read_only")).scalar() == "on":
        raise OperationalError("SHOW transaction_read_only", {}, Exception("read-only"))
