"""The SQL of tournaments (issue 46): a tournament and its lists (the public one, and the
admins' of every tournament), its entrants and their standing, joining and withdrawing, who has
the page open, and admin events. The games (pairing
and recording a result) are in `tournament_games`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .models import Player
from .tournament_tables import Entrant, Tournament, TournamentEvent

# the columns a standing is ordered by, best first (then the rating at joining, then the id)
STANDING_ORDER = (
    Entrant.score.desc(),
    Entrant.vp.desc(),
    Entrant.rating.desc(),
    Entrant.player,
)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    name: str
    game: str
    format: str
    clock: str
    players_per_game: int
    rated: bool
    starts_at: datetime
    minutes: int | None
    rounds: int | None
    max_players: int
    min_rating: int | None
    min_games: int | None
    private: bool
    creator: str | None
    status: str
    paused: bool
    round: int
    started_at: datetime | None
    ends_at: datetime | None
    finished_at: datetime | None
    entrants: int
    created_at: datetime
    round_days: int | None = None
    round_ends_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings (withdrawn players stay in them, marked)."""

    player_id: str
    name: str
    score: int
    games: int
    wins: int
    streak: int
    vp: int
    rating: float
    playing: str | None  # the match they play now
    withdrawn: bool
    present: bool


def _tournament(t: Tournament, entrants: int) -> TournamentRow:
    return TournamentRow(
        t.id, t.name, t.game, t.format, t.clock, t.players_per_game, t.rated, t.starts_at,
        t.minutes, t.rounds, t.max_players, t.min_rating, t.min_games, t.join_code is not None,
        t.creator, t.status, t.paused, t.round, t.started_at, t.ends_at, t.finished_at, entrants,
        t.created_at, t.round_days, t.round_ends_at,
    )  # fmt: skip


def _count(db: Session, tournament_id: str) -> int:
    query = select(func.count()).where(
        Entrant.tournament_id == tournament_id, Entrant.removed.is_(False)
    )
    return int(db.scalar(query) or 0)


def add(db: Session, row: Tournament) -> None:
    db.add(row)
    db.flush()


def get(db: Session, tournament_id: str, *, lock: bool = False) -> TournamentRow | None:
    query = select(Tournament).where(Tournament.id == tournament_id)
    found = db.scalar(query.with_for_update() if lock else query)
    return None if found is None else _tournament(found, _count(db, tournament_id))


def join_code(db: Session, tournament_id: str) -> str | None:
    return db.scalar(select(Tournament.join_code).where(Tournament.id == tournament_id))


def listed(db: Session, status: str, game: str | None, limit: int) -> list[TournamentRow]:
    """Public tournaments of one status: upcoming soonest first, the others latest first."""
    query = select(Tournament).where(Tournament.status == status, Tournament.join_code.is_(None))
    if game is not None:
        query = query.where(Tournament.game == game)
    order = Tournament.starts_at.asc() if status == "upcoming" else Tournament.starts_at.desc()
    found = list(db.scalars(query.order_by(order, Tournament.id).limit(limit)))
    return [_tournament(t, _count(db, t.id)) for t in found]


def every(
    db: Session, status: str | None, limit: int, offset: int
) -> tuple[list[TournamentRow], int]:
    """Every tournament, private ones too, of one status or any: the newest first, one page of
    them and how many there are (the admins' list)."""
    where = [] if status is None else [Tournament.status == status]
    total = int(db.scalar(select(func.count()).select_from(Tournament).where(*where)) or 0)
    # each row's entrant count in the same query: a page of 100 is one round trip, not 101
    players = (
        select(func.count())
        .where(Entrant.tournament_id == Tournament.id, Entrant.removed.is_(False))
        .correlate(Tournament)
        .scalar_subquery()
    )
    query = (
        select(Tournament, players)
        .where(*where)
        .order_by(Tournament.created_at.desc(), Tournament.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [_tournament(t, int(n)) for t, n in db.execute(query)], total


def created_since(db: Session, creator: str, since: datetime) -> int:
    """The public tournaments a player created since then (their daily allowance)."""
    query = select(func.count()).where(
        Tournament.creator == creator,
        Tournament.created_at >= since,
        Tournament.join_code.is_(None),
    )
    return int(db.scalar(query) or 0)


def set_status(db: Session, tournament_id: str, status: str, **values: Any) -> bool:
    """Move a tournament on; false when it is no longer where `values` expects it."""
    stmt = update(Tournament).where(Tournament.id == tournament_id).values(status=status, **values)
    return bool(db.connection().execute(stmt).rowcount)


def wait_for_games(db: Session, tournament_id: str, round_: int) -> None:
    """The round's time is up but those not playing cannot make a round: the round now ends
    when its games do (no deadline), only if it is still that round."""
    stmt = (
        update(Tournament)
        .where(Tournament.id == tournament_id, Tournament.round == round_)
        .values(round_ends_at=None)
    )
    db.execute(stmt)


def set_paused(db: Session, tournament_id: str, paused: bool) -> None:
    db.execute(update(Tournament).where(Tournament.id == tournament_id).values(paused=paused))


def due(db: Session, now: datetime) -> list[str]:
    """Upcoming tournaments whose start has come."""
    query = select(Tournament.id).where(Tournament.status == "upcoming")
    return list(db.scalars(query.where(Tournament.starts_at <= now).order_by(Tournament.id)))


def running(db: Session) -> list[TournamentRow]:
    found = db.scalars(select(Tournament).where(Tournament.status == "running"))
    return [_tournament(t, 0) for t in found]


def entrant(db: Session, tournament_id: str, player: str) -> Entrant | None:
    return db.get(Entrant, (tournament_id, player))


def entrants(db: Session, tournament_id: str, players: list[str]) -> list[Entrant]:
    """These players' entries (one read for a pass's pairings' own lines)."""
    query = select(Entrant).where(
        Entrant.tournament_id == tournament_id, Entrant.player.in_(players)
    )
    return list(db.scalars(query))


def add_entrant(db: Session, tournament_id: str, player: str, rating: float, now: datetime) -> None:
    db.add(Entrant(tournament_id=tournament_id, player=player, rating=rating, joined_at=now))
    db.flush()


def rejoin(db: Session, tournament_id: str, player: str, ready_at: datetime | None) -> None:
    stmt = (
        update(Entrant)
        .where(Entrant.tournament_id == tournament_id, Entrant.player == player)
        .values(withdrawn=False, ready_at=ready_at)
    )
    db.execute(stmt)


def withdraw(db: Session, tournament_id: str, player: str, *, removed: bool = False) -> bool:
    values: dict[str, Any] = {"withdrawn": True, "present": False}
    if removed:
        values["removed"] = True
    stmt = (
        update(Entrant)
        .where(Entrant.tournament_id == tournament_id, Entrant.player == player)
        .values(**values)
    )
    return bool(db.connection().execute(stmt).rowcount)


def delete_entrant(db: Session, tournament_id: str, player: str) -> None:
    """Leaving before the start: no trace (nothing was played)."""
    found = db.get(Entrant, (tournament_id, player))
    if found is not None:
        db.delete(found)


def set_present(
    db: Session, tournament_id: str, player: str, present: bool, ready_at: datetime | None
) -> None:
    """Whether the player has the tournament open; coming back sets the wait before pairing."""
    values: dict[str, Any] = {"present": present}
    if present and ready_at is not None:
        values["ready_at"] = ready_at
    stmt = (
        update(Entrant)
        .where(
            Entrant.tournament_id == tournament_id,
            Entrant.player == player,
            Entrant.present.is_not(present),
        )
        .values(**values)
    )
    db.execute(stmt)


STANDING_COLUMNS = (
    Entrant.player, Player.name, Entrant.score, Entrant.games, Entrant.wins, Entrant.streak,
    Entrant.vp, Entrant.rating, Entrant.match_id, Entrant.withdrawn, Entrant.present,
)  # fmt: skip


def standings(db: Session, tournament_id: str, limit: int, offset: int) -> list[Standing]:
    """The entrants in the standings' order, as plain columns: every push of a 500-player
    arena reads them all, and building an ORM object a line was most of that read."""
    query = (
        select(*STANDING_COLUMNS)
        .join(Player, Player.id == Entrant.player)
        .where(Entrant.tournament_id == tournament_id, Entrant.removed.is_(False))
        .order_by(*STANDING_ORDER)
        .limit(limit)
        .offset(offset)
    )
    return [Standing(*row) for row in db.execute(query)]


def playing_entrants(db: Session, tournament_id: str) -> list[Entrant]:
    """The entrants still playing (not withdrawn nor removed): a round's field, but for those
    whose game of an earlier round still goes on (`match_id`)."""
    query = select(Entrant).where(
        Entrant.tournament_id == tournament_id, Entrant.withdrawn.is_(False)
    )
    return list(db.scalars(query.order_by(Entrant.player)))


def entrant_ids(db: Session, tournament_id: str) -> list[str]:
    """The players in the tournament (not withdrawn nor removed)."""
    query = select(Entrant.player).where(
        Entrant.tournament_id == tournament_id, Entrant.withdrawn.is_(False)
    )
    return list(db.scalars(query))


def joined_by(db: Session, player: str, statuses: tuple[str, ...]) -> list[str]:
    """The tournaments of these statuses the player is in (not withdrawn)."""
    query = (
        select(Entrant.tournament_id)
        .join(Tournament, Tournament.id == Entrant.tournament_id)
        .where(Entrant.player == player, Entrant.withdrawn.is_(False))
        .where(Tournament.status.in_(statuses))
    )
    return list(db.scalars(query))


def add_event(
    db: Session, tournament_id: str, action: str, by: str, detail: dict[str, Any], now: datetime
) -> None:
    db.add(
        TournamentEvent(
            tournament_id=tournament_id, action=action, by=by, detail=detail, created_at=now
        )
    )


def names(db: Session, player_ids: set[str]) -> dict[str, str]:
    """The names of these players (those who still exist), for the record of admin events."""
    if not player_ids:
        return {}
    query = select(Player.id, Player.name).where(Player.id.in_(player_ids))
    return dict(db.execute(query).all())


def events(db: Session, tournament_id: str, limit: int) -> list[TournamentEvent]:
    query = select(TournamentEvent).where(TournamentEvent.tournament_id == tournament_id)
    return list(db.scalars(query.order_by(TournamentEvent.id.desc()).limit(limit)))
