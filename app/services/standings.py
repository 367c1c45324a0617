"""Use cases around ratings and a player's own matches: the leaderboard of a game, a player's
rating history (the profile's chart), and "my games" (ongoing matches first, whose turn it is
marked, then the newest finished ones)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from starlette.concurrency import run_in_threadpool

from engine.registry import get_game

from ..errors import ApiError, checked_id, not_found
from ..persistence import accounts
from ..persistence import players as player_rows
from ..persistence import ratings as store
from ..persistence import repository as repo
from ..persistence.records import SeatInfo, SeatRow, seat_info
from .access import current
from .core import Core
from .players import Played, played, player_of, unknown_player

PAGE_MAX: Final = 100  # leaderboard rows per request
HISTORY_POINTS: Final = 200  # the chart's newest rated matches
ONGOING_MAX: Final = 50  # "my games": ongoing matches listed (each is read to see whose turn)
RECENT_MAX: Final = 20


@dataclass(frozen=True)
class Ranked:
    rank: int
    player_id: str
    name: str
    rating: store.RatingRow


@dataclass(frozen=True)
class Point:
    match_id: str
    rating: float
    rd: float
    at: datetime


@dataclass(frozen=True)
class MyMatch:
    match_id: str
    game: str
    role: str
    status: str  # waiting | active
    your_turn: bool
    rated: bool
    opponent: SeatInfo | None  # v1: the other seat (at a table, the first other one)
    opponents: tuple[SeatInfo, ...] = ()  # v1.2: every other seat, in seat order
    updated_at: datetime | None = None  # its last move (issue 42: "my games" dates each line)


@dataclass(frozen=True)
class MyGames:
    ongoing: tuple[MyMatch, ...]
    recent: tuple[Played, ...]


def known_game(game: str) -> str:
    try:
        return get_game(game).id
    except (KeyError, ValueError):
        raise ApiError(422, "unknown_game", "No such game.") from None


class Standings:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def leaderboard(
        self, game: str, limit: int, offset: int, bots: bool = False
    ) -> tuple[list[Ranked], int]:
        """A page of the game's board: people's, or bot accounts' (`bots`)."""
        game, limit = known_game(game), max(1, min(limit, PAGE_MAX))
        return await run_in_threadpool(self._leaderboard, game, limit, max(0, offset), bots)

    def _leaderboard(
        self, game: str, limit: int, offset: int, bots: bool
    ) -> tuple[list[Ranked], int]:
        with self.core.db.reader() as db:
            rows, total = store.leaderboard(db, game, limit, offset, bots)
        ranked = [Ranked(offset + i + 1, p, n, r) for i, (p, n, r) in enumerate(rows)]
        return ranked, total

    async def history(self, player_id: str, game: str) -> list[Point]:
        player_id, game = checked_id(player_id, "player"), known_game(game)
        return await run_in_threadpool(self._history, player_id, game)

    def _history(self, player_id: str, game: str) -> list[Point]:
        with self.core.db.reader() as db:
            if player_rows.player_by_id(db, player_id) is None:
                raise not_found("player")
            found = store.history_of(db, player_id, game, HISTORY_POINTS)
        return [Point(*row) for row in found]

    async def my_games(self, token: str | None) -> MyGames:
        if not token:
            raise unknown_player()
        return await run_in_threadpool(self._my_games, token)

    def _my_games(self, token: str) -> MyGames:
        with self.core.db.reader() as db:
            player = player_of(db, token)
            assert player is not None
            ongoing = accounts.ongoing_of(db, player.id, ONGOING_MAX)
            seats = repo.seats_of_many(db, [m.match_id for m in ongoing])
            recent = played(player_rows.recent_of(db, player.id, RECENT_MAX))
        listed = [self._mine(m, seats[m.match_id]) for m in ongoing]
        listed.sort(key=lambda m: not m.your_turn)  # stable: newest first within each part
        return MyGames(tuple(listed), recent)

    def _mine(self, match: accounts.Ongoing, seats: list[SeatRow]) -> MyMatch:
        others = tuple(seat_info(s, match.options) for s in sorted(seats, key=lambda s: s.name))
        others = tuple(s for s in others if s.name != match.seat)
        other = others[0] if others else None
        your_turn = False
        if match.status == "active":
            found = current(self.core, match.match_id)
            if found is not None:
                info, entry = found
                to_move = get_game(info.game).to_move(entry.state)
                your_turn = info.status == "active" and match.seat in to_move
        return MyMatch(
            match.match_id, match.game, match.seat, match.status, your_turn, match.rated, other,
            others, match.updated_at,
        )  # fmt: skip
