"""The SQL of tournament games (issue 46): who is free to be paired, claiming players for a new
game (only players still free: two directors pairing at once cannot both seat one player), the
games and their seats, and a game's result. The result's statements are module constants
written against `Sql`, as ratings' are, so they run in the transaction that ends the match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Boolean, and_, bindparam, func, null, select, update
from sqlalchemy.orm import Session

from .models import Match, Player
from .sql import Sql
from .tournament_tables import Entrant, Tournament, TournamentGame, TournamentSeat


@dataclass(frozen=True, slots=True)
class FreeRow:
    player_id: str
    score: int
    rating: float
    last_opponent: str | None
    first_seats: int
    second_seats: int
    last_seat: int | None


@dataclass(frozen=True, slots=True)
class SeatResult:
    player_id: str
    name: str
    seat: str
    berserk: bool
    outcome: str | None
    points: int | None


@dataclass(frozen=True, slots=True)
class GameRow:
    match_id: str | None  # none: a Swiss bye
    round: int
    created_at: datetime
    ended_at: datetime | None
    seats: tuple[SeatResult, ...]


def free(db: Session, tournament_id: str, now: datetime) -> list[FreeRow]:
    """Entrants with the page open, not withdrawn, not in a game, their wait over."""
    query = select(
        Entrant.player, Entrant.score, Entrant.rating, Entrant.last_opponent,
        Entrant.first_seats, Entrant.second_seats, Entrant.last_seat,
    ).where(
        Entrant.tournament_id == tournament_id, Entrant.present.is_(True),
        Entrant.withdrawn.is_(False), Entrant.match_id.is_(None),
        (Entrant.ready_at.is_(None)) | (Entrant.ready_at <= now),
    )  # fmt: skip
    return [FreeRow(*row) for row in db.execute(query)]


def claim(db: Session, tournament_id: str, players: list[str], match_id: str) -> bool:
    """Mark the players as playing `match_id`: all of them, or (false) the caller rolls back."""
    stmt = (
        update(Entrant)
        .where(
            Entrant.tournament_id == tournament_id,
            Entrant.player.in_(players),
            Entrant.match_id.is_(None),
            Entrant.withdrawn.is_(False),
        )
        .values(match_id=match_id)
    )
    return bool(db.connection().execute(stmt).rowcount == len(players))


def add_game(
    db: Session, tournament_id: str, match_id: str, round_: int, seats: dict[str, str],
    now: datetime,
) -> None:  # fmt: skip
    """The game's row and its seats (`seats`: player -> seat name)."""
    game = TournamentGame(
        tournament_id=tournament_id, match_id=match_id, round=round_, created_at=now
    )
    db.add(game)
    db.flush()
    for player, seat in seats.items():
        db.add(TournamentSeat(game_id=game.id, player=player, seat=seat))
    db.flush()


def games(
    db: Session,
    tournament_id: str,
    *,
    running: bool,
    limit: int,
    player: str | None = None,
    matches: Sequence[str] | None = None,
) -> list[GameRow]:
    """Latest first: the games in progress, or every game (of one player); with `matches`,
    the games of those matches in that order."""
    query = select(TournamentGame).where(TournamentGame.tournament_id == tournament_id)
    if running:
        query = query.where(TournamentGame.ended_at.is_(None))
    if player is not None:
        mine = select(TournamentSeat.game_id).where(TournamentSeat.player == player)
        query = query.where(TournamentGame.id.in_(mine))
    if matches is not None:
        query = query.where(TournamentGame.match_id.in_(matches))
    found = list(db.scalars(query.order_by(TournamentGame.id.desc()).limit(limit)))
    if matches is not None:
        order = {m: i for i, m in enumerate(matches)}
        found.sort(key=lambda g: order.get(g.match_id or "", len(order)))
    seats: dict[int, list[SeatResult]] = {g.id: [] for g in found}
    if found:
        rows = db.execute(
            select(TournamentSeat, Player.name)
            .join(Player, Player.id == TournamentSeat.player)
            .where(TournamentSeat.game_id.in_(seats))
            .order_by(TournamentSeat.seat)
        )
        for s, name in rows:
            seats[s.game_id].append(
                SeatResult(s.player, name, s.seat, s.berserk, s.outcome, s.points)
            )
    return [
        GameRow(g.match_id, g.round, g.created_at, g.ended_at, tuple(seats[g.id])) for g in found
    ]


def watch_keys(db: Session, match_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each of these matches' game and spectator key (one read for a page's games)."""
    if not match_ids:
        return {}
    query = select(Match.id, Match.game, Match.spectator_key).where(Match.id.in_(match_ids))
    return {m: (game, key) for m, game, key in db.execute(query) if key}


def add_bye(
    db: Session, tournament_id: str, round_: int, player: str, points: int, now: datetime
) -> None:
    """A Swiss bye: a game without a match, scored a win as it is made."""
    game = TournamentGame(
        tournament_id=tournament_id, match_id=None, round=round_, created_at=now, ended_at=now
    )
    db.add(game)
    db.flush()
    db.add(TournamentSeat(game_id=game.id, player=player, seat="", outcome="bye", points=points))
    db.execute(
        update(Entrant)
        .where(Entrant.tournament_id == tournament_id, Entrant.player == player)
        .values(score=Entrant.score + points)
    )


def advance_round(
    db: Session, tournament_id: str, old: int, ends_at: datetime | None = None
) -> bool:
    """Move the tournament to round old + 1, only from `old` (one process starts a round);
    `ends_at`: when the new round's time is up (none: it ends when its games do)."""
    stmt = (
        update(Tournament)
        .where(Tournament.id == tournament_id, Tournament.round == old)
        .values(round=old + 1, round_ends_at=ends_at)
    )
    return bool(db.connection().execute(stmt).rowcount)


def unended(db: Session, tournament_id: str, round_: int | None = None) -> int:
    """The games still going on (of one round)."""
    query = select(func.count()).where(
        TournamentGame.tournament_id == tournament_id, TournamentGame.ended_at.is_(None)
    )
    if round_ is not None:
        query = query.where(TournamentGame.round == round_)
    return int(db.scalar(query) or 0)


def tournament_of(db: Session, match_id: str) -> tuple[str, str] | None:
    """(tournament id, name) of a match that is a tournament game."""
    query = (
        select(Tournament.id, Tournament.name)
        .join(TournamentGame, TournamentGame.tournament_id == Tournament.id)
        .where(TournamentGame.match_id == match_id)
    )
    row = db.execute(query).first()
    return None if row is None else (str(row[0]), str(row[1]))


# a player's berserk, in the match's transaction (the clock and the score move together)
SET_BERSERK = (
    update(TournamentSeat)
    .where(
        TournamentSeat.game_id.in_(
            select(TournamentGame.id)
            .where(TournamentGame.match_id == bindparam("match_id"))
            .scalar_subquery()
        ),
        TournamentSeat.player == bindparam("p"),
        TournamentSeat.berserk.is_(False),
    )
    .values(berserk=bindparam("yes", type_=Boolean))
)


def set_berserk(sql: Sql, match_id: str, player: str) -> bool:
    return sql.write(SET_BERSERK, {"match_id": match_id, "p": player, "yes": True}) == 1


# --- a result, in the transaction that ends the match (module constants: compiled once) ---

GAME_OF_MATCH = (
    select(TournamentGame.id, TournamentGame.tournament_id, Tournament.format)
    .join(Tournament, Tournament.id == TournamentGame.tournament_id)
    .where(TournamentGame.match_id == bindparam("match_id"), TournamentGame.ended_at.is_(None))
    .with_for_update(of=TournamentGame)
)
SEATS_OF_GAME = (
    select(TournamentSeat.player, TournamentSeat.seat, TournamentSeat.berserk, Entrant.streak)
    .join(
        Entrant,
        and_(Entrant.tournament_id == bindparam("tid"), Entrant.player == TournamentSeat.player),
    )
    .where(TournamentSeat.game_id == bindparam("game_id"))
)
END_GAME = (
    update(TournamentGame)
    .where(TournamentGame.id == bindparam("game_id"), TournamentGame.ended_at.is_(None))
    .values(ended_at=bindparam("when"))
)
SCORE_SEAT = (
    update(TournamentSeat)
    .where(TournamentSeat.game_id == bindparam("game_id"), TournamentSeat.player == bindparam("p"))
    .values(outcome=bindparam("outcome"), points=bindparam("pts"))
)
SCORE_ENTRANT = (
    update(Entrant)
    .where(Entrant.tournament_id == bindparam("tid"), Entrant.player == bindparam("p"))
    .values(
        score=Entrant.score + bindparam("pts"),
        games=Entrant.games + bindparam("played"),
        wins=Entrant.wins + bindparam("won"),
        vp=Entrant.vp + bindparam("vp"),
        streak=bindparam("streak"),
        first_seats=Entrant.first_seats + bindparam("first"),
        second_seats=Entrant.second_seats + bindparam("second"),
        # a game that did not count leaves the seat and opponent of the last one that did
        last_seat=func.coalesce(bindparam("last_seat"), Entrant.last_seat),
        last_opponent=func.coalesce(bindparam("opponent"), Entrant.last_opponent),
        match_id=null(),
        # a round format's player who let their game lapse is withdrawn from the next rounds
        withdrawn=Entrant.withdrawn | bindparam("missed", type_=Boolean),
    )
)


# a round format's player who left a table that goes on (Nations): withdrawn as they leave
WITHDRAW = (
    update(Entrant)
    .where(Entrant.tournament_id == bindparam("tid"), Entrant.player == bindparam("p"))
    .values(withdrawn=bindparam("yes", type_=Boolean))  # named: the move path binds names only
)


def withdraw(sql: Sql, tid: str, player: str) -> None:
    """In the match transaction that hands the player's seat to the computer."""
    sql.write(WITHDRAW, {"tid": tid, "p": player, "yes": True})


@dataclass(frozen=True, slots=True)
class Played:
    """A seat of a game being scored: its player, seat, berserk, and streak before the game."""

    player_id: str
    seat: str
    berserk: bool
    streak: int


@dataclass(frozen=True, slots=True)
class OpenGame:
    game_id: int
    tournament_id: str
    format: str
    seats: list[Played]


def open_game(sql: Sql, match_id: str) -> OpenGame | None:
    """The match's unscored tournament game, locked, with its seats; none when the match is
    not a tournament game or its result is in."""
    found = sql.rows(GAME_OF_MATCH, {"match_id": match_id})
    if not found:
        return None
    game_id, tid, kind = int(found[0][0]), str(found[0][1]), str(found[0][2])
    seats = sql.rows(SEATS_OF_GAME, {"tid": tid, "game_id": game_id})
    played = [Played(str(p), str(s), bool(b), int(k)) for p, s, b, k in seats]
    return OpenGame(game_id, tid, kind, played)


@dataclass(frozen=True, slots=True)
class Scoring:
    """What a game gives one of its players."""

    player_id: str
    outcome: str | None  # none: the game did not count (nobody was ranked)
    points: int
    streak: int
    seat_index: int  # 0: the first seat
    opponent: str | None
    missed: bool = False  # lost by letting the clock run out or abandoning (round formats)
    vp: int = 0  # the game's final score for this player (Nations), a table round's tie-break


def score(sql: Sql, game_id: int, tid: str, lines: list[Scoring], when: datetime) -> None:
    sql.write(END_GAME, {"game_id": game_id, "when": when})
    for line in lines:
        counted = line.outcome is not None
        sql.write(
            SCORE_SEAT,
            {"game_id": game_id, "p": line.player_id, "outcome": line.outcome, "pts": line.points},
        )
        sql.write(
            SCORE_ENTRANT,
            {
                "tid": tid, "p": line.player_id, "pts": line.points, "played": int(counted),
                "won": int(line.outcome == "win"), "streak": line.streak, "vp": line.vp,
                "first": int(counted and line.seat_index == 0),
                "second": int(counted and line.seat_index == 1),
                "last_seat": line.seat_index if counted else None,
                "opponent": line.opponent if counted else None, "missed": line.missed,
            },
        )  # fmt: skip
