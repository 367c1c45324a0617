"""Use cases of tournaments (issue 46, contract v1.2 "Tournaments"): create one, list them,
read one (standings, games in progress, your place), join, withdraw, export every game and the
standings, and the admin's and moderators' cancel, pause, resume and removal, each recorded.
Pairing and starting are the director's (`tournament_director`); a game's score is written as
its match ends (`tournament_results`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..auth import new_invite_code, new_match_id
from ..errors import ApiError, checked_id, not_found
from ..games import site
from ..persistence import ratings as ratings_repo
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.models import Player
from ..persistence.tournament_tables import Entrant, Tournament
from ..push.changes import TournamentChanged
from ..tournaments.swiss import max_rounds
from ..tournaments.tables import MAX_SIZE, MIN_SIZE
from .core import Core
from .matches import player_required
from .players import player_of
from .reliability import refuse_banned
from .tournament_results import UNITS
from .tournament_standings import Ranked, ranked, shown, sorted_by, standing_json

MIN_RATED_GAMES = 20  # of the game, to create a tournament as a player
PUBLIC_PER_DAY = 2  # public tournaments a player may create a day (private ones: unlimited)
MAX_PLAYERS = 500
MAX_AHEAD = timedelta(days=30)  # how far ahead a tournament may start
STANDINGS_PAGE = 50
GAMES_SHOWN = 50  # one player's games
RUNNING_SHOWN = 20  # games in progress on the page: the leaders' (a phone's screenful or two)
EXPORT_GAMES = 5000  # every game of a 500-player, 2-hour arena fits
ARENA_MINUTES = (30, 60, 90, 120)
ARENA_CLOCKS = ("realtime-15", "realtime-30")


@dataclass(frozen=True)
class Wanted:
    name: str
    game: str
    format: str
    clock: str
    starts_at: datetime
    minutes: int | None
    rounds: int | None
    table_size: int | None
    rated: bool
    max_players: int
    min_rating: int | None
    min_games: int | None
    private: bool
    round_days: int | None = None  # a correspondence round format's round length


@dataclass(frozen=True)
class Created:
    tournament_id: str
    join_code: str | None


SWISS_CLOCKS = ("realtime-15", "realtime-30", "turn-1", "turn-3")
CORRESPONDENCE = ("turn-1", "turn-3")
MAX_ROUNDS = 30
ROUND_DAYS = range(1, 15)  # a correspondence round's length: 1 to 14 days
DEFAULT_ROUND_DAYS = 3


def round_days(wanted: Wanted) -> int | None:
    """The round length a tournament keeps: the one asked for, else 3 days for a
    correspondence round format; none for a live one (its rounds wait for their games)."""
    if wanted.round_days is not None:
        return wanted.round_days
    if wanted.format != "arena" and wanted.clock in CORRESPONDENCE:
        return DEFAULT_ROUND_DAYS
    return None


def _check_round_days(wanted: Wanted) -> None:
    if wanted.round_days is None:
        return
    if wanted.format == "arena" or wanted.clock not in CORRESPONDENCE:
        raise ApiError(
            422, "invalid_round_days",
            "Only a correspondence (turn-1, turn-3) Swiss or table round has a round length.",
        )  # fmt: skip
    if wanted.round_days not in ROUND_DAYS:
        raise ApiError(
            422, "invalid_round_days", f"A round lasts {ROUND_DAYS[0]} to {ROUND_DAYS[-1]} days."
        )


def check_format(wanted: Wanted) -> None:
    """What each format needs (422 with a stable code): an arena is live and lasts 30-120
    minutes; a Swiss is a duel of a set number of rounds, live or by correspondence; table
    rounds are Nations at tables of 3-5. A correspondence round format may set its round length
    (1-14 days); nothing else has one."""
    _check_round_days(wanted)
    if wanted.format == "arena":
        if wanted.clock not in ARENA_CLOCKS:
            raise ApiError(422, "invalid_clock", "An arena is live: realtime-15 or realtime-30.")
        if wanted.minutes not in ARENA_MINUTES:
            raise ApiError(422, "invalid_minutes", "An arena lasts 30, 60, 90 or 120 minutes.")
        return
    if wanted.clock not in SWISS_CLOCKS:
        raise ApiError(422, "invalid_clock", f"Clocks: {', '.join(SWISS_CLOCKS)}.")
    if wanted.rounds is None or not 1 <= wanted.rounds <= MAX_ROUNDS:
        raise ApiError(422, "invalid_rounds", f"From 1 to {MAX_ROUNDS} rounds.")
    if wanted.format == "swiss" and wanted.rounds > max_rounds(wanted.max_players):
        raise ApiError(
            422, "too_many_rounds",
            f"{wanted.max_players} players meet each other in {max_rounds(wanted.max_players)} "
            "rounds at most: a Swiss never repeats a pairing.",
        )  # fmt: skip
    if wanted.format == "tables":
        if wanted.game != "nations":
            raise ApiError(422, "invalid_format", "Table rounds are for Nations.")
        size = wanted.table_size or 0
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ApiError(422, "invalid_table_size", f"Tables of {MIN_SIZE} to {MAX_SIZE}.")
        if wanted.max_players < MIN_SIZE:
            raise ApiError(422, "invalid_max_players", f"At least {MIN_SIZE} players.")


def tournament_json(t: repo.TournamentRow) -> dict[str, Any]:
    return {
        "tournament_id": t.id, "name": t.name, "game": t.game, "format": t.format,
        "clock": t.clock, "rated": t.rated, "status": t.status, "paused": t.paused,
        "round": t.round, "table_size": t.players_per_game if t.format == "tables" else None,
        "starts_at": t.starts_at.isoformat(), "minutes": t.minutes, "rounds": t.rounds,
        "ends_at": t.ends_at.isoformat() if t.ends_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        "max_players": t.max_players, "min_rating": t.min_rating, "min_games": t.min_games,
        "players": t.entrants, "private": t.private, "round_days": t.round_days,
        "round_ends_at": t.round_ends_at.isoformat() if t.round_ends_at else None,
    }  # fmt: skip


def game_json(g: games_repo.GameRow) -> dict[str, Any]:
    return {
        "match_id": g.match_id, "round": g.round, "started_at": g.created_at.isoformat(),
        "ended_at": g.ended_at.isoformat() if g.ended_at else None,
        "seats": [
            {"seat": s.seat, "player_id": s.player_id, "name": s.name, "berserk": s.berserk,
             "outcome": s.outcome, "points": s.points}
            for s in g.seats
        ],
    }  # fmt: skip


def _line_of(e: Entrant, units: int) -> dict[str, Any]:
    """An entrant's own line as a pairing pushes it (the page's has their place too)."""
    return {
        "player_id": e.player, "score": shown(units, e.score), "playing": e.match_id,
        "withdrawn": e.withdrawn,
    }  # fmt: skip


def _own_line(r: Ranked, units: int) -> dict[str, Any]:
    s = r.line
    return {
        "player_id": s.player_id, "rank": r.rank, "score": shown(units, s.score),
        "playing": s.playing, "withdrawn": s.withdrawn,
    }  # fmt: skip


class Tournaments:
    def __init__(self, core: Core) -> None:
        self.core = core

    # --- creating ---

    async def create(self, token: str | None, admin: bool, wanted: Wanted) -> Created:
        self._check(wanted)
        made = await run_in_threadpool(self._create, token, admin, wanted)
        await self.core.publish(TournamentChanged(made.tournament_id))
        return made

    def _check(self, wanted: Wanted) -> None:
        check_format(wanted)
        if not 2 <= wanted.max_players <= MAX_PLAYERS:
            raise ApiError(422, "invalid_max_players", f"From 2 to {MAX_PLAYERS} players.")
        now = self.core.stamp()
        if not now - timedelta(minutes=1) <= wanted.starts_at <= now + MAX_AHEAD:
            raise ApiError(422, "invalid_start", "A tournament starts within the next 30 days.")

    def _create(self, token: str | None, admin: bool, wanted: Wanted) -> Created:
        now = self.core.stamp()
        code = new_invite_code() if wanted.private else None
        with self.core.db.write() as db:
            creator = None if admin else self._may_create(db, token, wanted, now)
            tid = new_match_id()
            repo.add(
                db,
                Tournament(
                    id=tid, name=wanted.name, game=wanted.game, format=wanted.format,
                    clock=wanted.clock, players_per_game=wanted.table_size or 2,
                    rated=wanted.rated, starts_at=max(wanted.starts_at, now),
                    minutes=wanted.minutes if wanted.format == "arena" else None,
                    rounds=wanted.rounds if wanted.format != "arena" else None,
                    max_players=wanted.max_players, min_rating=wanted.min_rating,
                    min_games=wanted.min_games, join_code=code, creator=creator,
                    status="upcoming", paused=False, round=0, created_at=now,
                    round_days=round_days(wanted),
                ),
            )  # fmt: skip
        return Created(tid, code)

    def _may_create(self, db: Session, token: str | None, wanted: Wanted, now: datetime) -> str:
        """A moderator creates any; a player with enough rated games of the game a private one,
        or a few public ones a day. The creator's id."""
        me = player_of(db, token)
        if me is None:
            raise player_required()
        row = db.get(Player, me.id)
        if row is None or row.password_hash is None:
            raise ApiError(403, "account_required", "Creating a tournament needs an account.")
        refuse_banned(db, me.id, now, "tournaments")
        if row.moderator:
            return me.id
        played = [r.games for r in ratings_repo.ratings_of(db, me.id) if r.game == wanted.game]
        if not played or played[0] < MIN_RATED_GAMES:
            raise ApiError(
                403, "not_enough_games",
                f"Creating a tournament needs {MIN_RATED_GAMES} rated games of {wanted.game}.",
            )  # fmt: skip
        if not wanted.private and repo.created_since(db, me.id, now - timedelta(days=1)) >= (
            PUBLIC_PER_DAY
        ):
            raise ApiError(
                429, "too_many_tournaments", f"{PUBLIC_PER_DAY} public tournaments a day."
            )
        return me.id

    # --- reading ---

    async def listed(self, game: str | None) -> dict[str, list[dict[str, Any]]]:
        def run() -> dict[str, list[dict[str, Any]]]:
            with self.core.db.reader() as db:
                return {
                    status: [tournament_json(t) for t in repo.listed(db, status, game, 50)]
                    for status in ("running", "upcoming", "finished")
                }

        return await run_in_threadpool(run)

    async def one(
        self, tournament_id: str, token: str | None, page: int, sort: str = "rank"
    ) -> dict[str, Any]:
        """The tournament as its page shows it: standings (a page of them, in the order asked
        for: SORTS), games in progress (with their spectator links), the podium once finished,
        and the asker's own entry."""
        return await run_in_threadpool(self._one, checked_id(tournament_id), token, page, sort)

    def _one(self, tid: str, token: str | None, page: int, sort: str = "rank") -> dict[str, Any]:
        return self._read(tid, token, page, sort)[0]

    def _read(
        self, tid: str, token: str | None, page: int, sort: str = "rank"
    ) -> tuple[dict[str, Any], list[Ranked], int]:
        """The page, the whole ranked standings it was cut from, and the format's units."""
        with self.core.db.reader() as db:
            t = repo.get(db, tid)
            if t is None:
                raise not_found("tournament")
            me = player_of(db, token) if token else None
            every = ranked(db, t)
            units = UNITS.get(t.format, 1)
            offset = (page - 1) * STANDINGS_PAGE
            out = tournament_json(t)
            out["page"], out["sort"] = page, sort
            out["standings"] = [
                standing_json(r, units)
                for r in sorted_by(every, sort)[offset : offset + STANDINGS_PAGE]
            ]
            # the leaders' games first, as lichess shows its top games
            leading = list(dict.fromkeys(r.line.playing for r in every if r.line.playing))
            running = games_repo.games(
                db, tid, running=True, limit=RUNNING_SHOWN, matches=leading[:RUNNING_SHOWN]
            )
            out["games"] = [game_json(g) for g in running]
            out["watch"] = self._watch_paths(db, [g.match_id for g in running if g.match_id])
            if t.status == "finished":
                out["podium"] = [standing_json(r, units) for r in every[:3]]
            out["me"] = self._mine(db, t, me.id, every) if me is not None else None
            return out, every, units

    def _watch_paths(self, db: Session, match_ids: list[str]) -> dict[str, str]:
        """Each game in progress's spectator address: tournament games are public."""
        return {
            match_id: f"{site(game).prefix}/watch/{match_id}?key={key}"
            for match_id, (game, key) in games_repo.watch_keys(db, match_ids).items()
        }

    def _mine(
        self, db: Session, t: repo.TournamentRow, player: str, every: list[Ranked]
    ) -> dict[str, Any] | None:
        tid = t.id
        entry = repo.entrant(db, tid, player)
        if entry is None or entry.removed:
            return None
        rank = next((r.rank for r in every if r.line.player_id == player), None)
        return {
            "player_id": player, "rank": rank,
            "score": shown(UNITS.get(t.format, 1), entry.score),
            "withdrawn": entry.withdrawn, "playing": entry.match_id,
            "ready_at": entry.ready_at.isoformat() if entry.ready_at else None,
            "games": [game_json(g) for g in games_repo.games(
                db, tid, running=False, limit=GAMES_SHOWN, player=player
            )],
        }  # fmt: skip

    async def results_of(self, tournament_id: str, player_id: str) -> dict[str, Any]:
        """One entrant's games in the tournament, latest first (the standings' row opened)."""

        def run() -> dict[str, Any]:
            tid, pid = checked_id(tournament_id), checked_id(player_id, "player")
            with self.core.db.reader() as db:
                entry = repo.entrant(db, tid, pid)
                if entry is None or entry.removed:
                    raise not_found("player")
                played = games_repo.games(db, tid, running=False, limit=GAMES_SHOWN, player=pid)
                return {"player_id": pid, "games": [game_json(g) for g in played]}

        return await run_in_threadpool(run)

    async def export(self, tournament_id: str) -> dict[str, Any]:
        """Every game id with its seats and results, and the whole standings: a tournament's
        result can be recomputed from its stored games."""

        def run() -> dict[str, Any]:
            tid = checked_id(tournament_id)
            with self.core.db.reader() as db:
                t = repo.get(db, tid)
                if t is None:
                    raise not_found("tournament")
                units = UNITS.get(t.format, 1)
                played = games_repo.games(db, tid, running=False, limit=EXPORT_GAMES)
                return {
                    **tournament_json(t),
                    "units": units,  # a game's stored points per point shown
                    "standings": [standing_json(r, units) for r in ranked(db, t)],
                    "games": [game_json(g) for g in reversed(played)],
                }

        return await run_in_threadpool(run)

    async def of_match(self, match_id: str) -> dict[str, str] | None:
        """The tournament a match is a game of (its id and name), for its table's way back."""

        def run() -> dict[str, str] | None:
            with self.core.db.reader() as db:
                found = games_repo.tournament_of(db, match_id)
            return None if found is None else {"id": found[0], "name": found[1]}

        try:
            checked_id(match_id)
        except ApiError:
            return None
        return await run_in_threadpool(run)

    # --- pushing ---

    async def pushed(self, tournament_id: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """What the tournament's sockets are sent: the public page (as a viewer without a player
        reads it) and each entrant's own line, from one read of the standings."""

        def run() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
            page, every, units = self._read(tournament_id, None, 1)
            lines = {r.line.player_id: _own_line(r, units) for r in every}
            return page, lines

        return await run_in_threadpool(run)

    async def own_lines(self, tournament_id: str, players: list[str]) -> dict[str, dict[str, Any]]:
        """Entrants' own lines (their game, score) by player, pushed the moment they are paired:
        one read for the players of a pass's pairings."""

        def run() -> dict[str, dict[str, Any]]:
            with self.core.db.reader() as db:
                t = repo.get(db, tournament_id)
                found = repo.entrants(db, tournament_id, players) if t is not None else []
                units = UNITS.get(t.format, 1) if t is not None else 1
            return {e.player: _line_of(e, units) for e in found if not e.removed}

        return await run_in_threadpool(run)

    async def entrant_of(self, tournament_id: str, token: str | None) -> str | None:
        """The player of a socket's token, if they are in the tournament (present from now)."""
        if not token:
            return None

        def run() -> str | None:
            with self.core.db.reader() as db:
                me = player_of(db, token)
                if me is None or repo.get(db, tournament_id) is None:
                    raise not_found("tournament")
                entry = repo.entrant(db, tournament_id, me.id)
                return me.id if entry is not None and not entry.removed else None

        return await run_in_threadpool(run)
