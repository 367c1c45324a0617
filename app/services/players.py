"""Use cases of players: creating one (its token is shown once, only its hash is kept), renaming
it (its open tables are told at once), its public profile, and who a player token names."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from engine.registry import DEFAULT_GAME

from ..auth import new_player_id, new_token, plausible_token, token_hash
from ..errors import ApiError, checked_id, not_found
from ..glicko2 import Rating
from ..names import checked_name
from ..persistence import accounts
from ..persistence import players as player_rows
from ..persistence import ratings as rated
from ..persistence.ratings import RatingRow
from ..persistence.records import PlayerRow, SeatInfo, seat_info
from ..push.changes import MatchChanged
from .access import current, seat_for
from .core import Core
from .farming import remember_origin
from .reliability import figures

RECENT = 20  # matches a profile lists


@dataclass(frozen=True)
class NewPlayer:
    """A player just made: the only moment its token is known outside the browser keeping it."""

    player_id: str
    name: str
    player_token: str


@dataclass(frozen=True)
class Played:
    """One finished match of a profile, as public as its table was."""

    match_id: str
    role: str
    result: Literal["win", "loss"]
    opponent: SeatInfo  # v1: the other seat (at a table, the first other one)
    opponents: tuple[SeatInfo, ...] = ()  # v1.2: every other seat, in seat order
    game: str = "watergate"
    ended_at: datetime | None = None


@dataclass(frozen=True)
class RoleRecord:
    role: str
    games: int
    wins: int


@dataclass(frozen=True)
class Profile:
    player_id: str
    name: str
    games: int
    wins: int
    recent: tuple[Played, ...]
    ratings: tuple[RatingRow, ...] = ()  # per game, accounts only
    roles: tuple[RoleRecord, ...] = ()
    reliability: int | None = None  # issue 43: finished share of the last 50 games, 0-100
    bot: bool = False  # a bot account (contract v1.2 "Bots"): public, marked BOT


def played(recent: list[player_rows.Decided]) -> tuple[Played, ...]:
    """Finished matches as a profile lists them, from player_rows.recent_of's rows."""
    found = []
    for d in recent:
        infos = tuple(seat_info(other, d.options) for other in d.others)
        result: Literal["win", "loss"] = "win" if d.winner == d.seat else "loss"
        found.append(Played(d.match_id, d.seat, result, infos[0], infos, d.game, d.ended_at))
    return tuple(found)


def unknown_player() -> ApiError:
    return ApiError(401, "unknown_player", "This player token is not known (X-Player-Token).")


def player_of(db: Session, token: str | None) -> PlayerRow | None:
    """The player an X-Player-Token names, inside the caller's transaction; None without one,
    401 unknown_player for one that names nobody (a malformed one is refused before hashing)."""
    if not token:
        return None
    found = player_rows.player_by_token(db, token_hash(token)) if plausible_token(token) else None
    if found is None:
        raise unknown_player()
    return found


@dataclass(frozen=True)
class PlayerRef:
    """A player already identified by other means than its player token (a bot's API token):
    accepted wherever a player token is, by `whose`."""

    player_id: str


def whose(db: Session, who: str | PlayerRef | None) -> PlayerRow | None:
    """The player a player token (or a `PlayerRef`) names, as `player_of` says."""
    if isinstance(who, PlayerRef):
        found = player_rows.player_by_id(db, who.player_id)
        if found is None:
            raise unknown_player()
        return found
    return player_of(db, who)


class Players:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def create(self, name: str, address: str | None = None) -> NewPlayer:
        """A new player; `address` (the client's, as rate limits count it) is kept as a keyed
        hash, for the rating-farming check (services.farming)."""
        return await run_in_threadpool(self._create, checked_name(name), address)

    def _create(self, name: str, address: str | None = None) -> NewPlayer:
        player_id, token = new_player_id(), new_token()
        with self.core.db.write() as db:
            now = self.core.stamp()
            player_rows.add_player(db, player_id, name, now)
            remember_origin(db, self.core.settings, player_id, address)
            player_rows.add_session(db, new_player_id(), player_id, token_hash(token), now)
        return NewPlayer(player_id, name, token)

    async def rename(self, token: str | None, name: str) -> PlayerRow:
        """The new name; every open table of the player shows it at its next push, which is
        now: the matches' cached facts are dropped and their sockets woken on every process."""
        if not token:
            raise unknown_player()
        renamed, tables = await run_in_threadpool(self._rename, token, checked_name(name))
        for match_id in tables:
            self.core.cache.drop_info(match_id)
            await self.core.publish(MatchChanged(match_id))
        return renamed

    def _rename(self, token: str, name: str) -> tuple[PlayerRow, list[str]]:
        with self.core.db.write() as db:
            player = player_of(db, token)
            assert player is not None
            player_rows.rename_player(db, player.id, name)
            renamed = PlayerRow(player.id, name, player.has_account, player.bot)
            return renamed, player_rows.open_matches_of(db, player.id)

    async def profile(self, player_id: str) -> Profile:
        return await run_in_threadpool(self._profile, checked_id(player_id, "player"))

    def _profile(self, player_id: str) -> Profile:
        with self.core.db.reader() as db:
            player = player_rows.player_by_id(db, player_id)
            if player is None:
                raise not_found("player")
            games, wins = player_rows.record_of(db, player.id)
            recent = player_rows.recent_of(db, player.id, RECENT)
            ratings = tuple(rated.ratings_of(db, player.id)) if player.has_account else ()
            if player.has_account and not ratings:  # a newcomer: the starting rating
                start = Rating()
                ratings = (
                    RatingRow(player.id, DEFAULT_GAME, start.rating, start.rd, start.volatility, 0),
                )
            roles = tuple(RoleRecord(*r) for r in accounts.record_by_seat(db, player.id))
            reliable = figures(db, [player.id])[player.id]
        return Profile(
            player.id,
            player.name,
            games,
            wins,
            played(recent),
            ratings,
            roles,
            reliable,
            player.bot,
        )

    async def check_seat(self, player_token: str, seat_token: str | None, match_id: str) -> None:
        """A call for a seat that also names a player: 403 when the seat is another player's
        (a guest's seat, taken without a player token, belongs to no player)."""
        await run_in_threadpool(self._check_seat, player_token, seat_token, match_id)

    def _check_seat(self, player_token: str, seat_token: str | None, match_id: str) -> None:
        with self.core.db.reader() as db:
            player = player_of(db, player_token)
        assert player is not None
        seat = seat_for(self.core, seat_token, match_id)
        info = self.core.cache.info(match_id)
        if info is None:
            found = current(self.core, match_id)
            if found is None:
                return  # the seat's own check answers for a match that is gone
            info = found[0]
        owner = info.seat(seat).player_id
        if owner is not None and owner != player.id:
            raise ApiError(403, "wrong_player", "This seat belongs to another player.")
