"""Use cases of the public lobby: listing the open challenges, quick pairing (join the oldest
compatible challenge, or open one), cancelling one's own, and taking challenges whose creator
has been away too long out of the lobby (a sweep every process runs)."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..errors import ApiError, checked_id, not_found
from ..games import seats_of
from ..jsontext import dumps
from ..persistence import blocks
from ..persistence import lobby as lobby_repo
from ..persistence import ratings as ratings_repo
from ..persistence.lobby import ChallengeRow
from ..push.changes import LobbyChanged
from .core import Core, utc
from .matches import Matches, SeatTaken, bot_not_allowed, player_required
from .players import player_of
from .reliability import figures
from .sanctions import refuse_if_sanctioned

QUICK_TRIES = 5  # compatible challenges tried in turn when others take them first


@dataclass(frozen=True)
class Creator:
    player_id: str
    name: str
    rating: float | None
    reliability: int | None = None  # issue 43: finished share of the last 50 games, 0-100


@dataclass(frozen=True)
class Listed:
    """A challenge as the lobby shows it (contract v1.1)."""

    match_id: str
    game: str
    open_role: str
    creator: Creator
    clock: str
    rated: bool
    created_at: str  # ISO 8601, UTC
    players: int = 2  # the table's size (v1.2)
    open_seats: tuple[str, ...] = ()  # the seats still open to a joiner (v1.2)
    rules_version: str | None = None  # the edition its match is played by (issue 41)


@dataclass(frozen=True)
class Paired:
    """What quick pairing did: joined someone's challenge, or opened one (`created`)."""

    taken: SeatTaken
    created: bool


def rating_of(db: Session, player_id: str, game: str) -> float | None:
    """The creator's rating in the challenge's game, as views show it (whole points); none for a
    player who has not played a rated match of it. Read inside the listing's transaction."""
    found = [r for r in ratings_repo.ratings_of(db, player_id) if r.game == game]
    return round(found[0].rating) if found else None


def listed(
    db: Session, row: ChallengeRow, open_seats: list[str], reliable: int | None = None
) -> Listed:
    return Listed(
        row.match_id,
        row.game,
        row.open_role,
        Creator(row.creator, row.creator_name, rating_of(db, row.creator, row.game), reliable),
        row.clock,
        row.rated,
        row.created_at.isoformat(),
        row.players,
        tuple(open_seats),
        row.rules_version,
    )


class Lobby:
    def __init__(self, core: Core, matches: Matches) -> None:
        self.core, self.matches = core, matches

    async def player_id(self, token: str | None) -> str:
        """Who a lobby socket says it is (401 unknown_player for a token naming nobody)."""
        return await run_in_threadpool(self._player_id, token)

    def _player_id(self, token: str | None) -> str:
        if not token:
            raise player_required()
        with self.core.db.reader() as db:
            me = player_of(db, token)
        assert me is not None
        return me.id

    async def challenges(self) -> list[Listed]:
        return await run_in_threadpool(self._challenges)

    async def rendered(self) -> str:
        """The lobby socket's message: {"type": "lobby", "challenges": [...]}."""
        found = await self.challenges()
        return dumps({"type": "lobby", "challenges": [asdict(c) for c in found]})

    async def tailored(self, players: set[str], text: str) -> dict[str, str]:
        """The lobby message for each of `players` (lobby sockets here) whose list differs from
        `text`, everyone's: without the challenges of anyone kept apart from them by a block,
        either way, so that nobody meets a blocker's challenge, nor learns of the block by
        being refused it."""
        found = json.loads(text)["challenges"]
        creators = {c["creator"]["player_id"] for c in found}
        apart = await run_in_threadpool(self._apart, players, creators)
        hidden: dict[str, set[str]] = {}
        for player, creator in apart:
            hidden.setdefault(player, set()).add(creator)
        return {
            player: dumps(
                {
                    "type": "lobby",
                    "challenges": [c for c in found if c["creator"]["player_id"] not in gone],
                }
            )
            for player, gone in hidden.items()
        }

    async def visible_to(self, player: str, found: list[Listed]) -> list[Listed]:
        """Of the listed challenges, those `player` may see (no block with their creator)."""
        creators = {c.creator.player_id for c in found}
        apart = {c for _, c in await run_in_threadpool(self._apart, {player}, creators)}
        return [c for c in found if c.creator.player_id not in apart]

    def _apart(self, players: set[str], creators: set[str]) -> set[tuple[str, str]]:
        with self.core.db.reader() as db:
            return blocks.apart_among(db, players, creators)

    def _challenges(self) -> list[Listed]:
        with self.core.db.reader() as db:
            rows = lobby_repo.open_challenges(db)
            seats = lobby_repo.open_seats(db, [row.match_id for row in rows])
            reliable = figures(db, {row.creator for row in rows})
            return [listed(db, row, seats[row.match_id], reliable[row.creator]) for row in rows]

    async def quick(
        self,
        player: str | None,
        game: str,
        clock: str,
        clock_option: dict[str, Any] | None,
        rated: bool,
        role: str,
        players: int = 2,
        address: str | None = None,
    ) -> Paired:
        """Join the oldest compatible challenge (same game, table size, clock and rating, a seat
        the caller may take, not their own); if there is none, open one as it would have been
        wanted (within the caller's caps of open challenges, for it and for its `address`). At a
        table of three or more the caller takes whichever seat is open next."""
        if not player:
            raise player_required()
        seats = seats_of(game, players)  # 422 invalid_players
        if role != "random" and role not in seats:
            raise ApiError(422, "invalid_request", f"role must be random or one of {seats}.")
        roles = seats if role == "random" or players > 2 else (role,)
        candidates = await run_in_threadpool(
            self._compatible, player, game, clock, rated, roles, players
        )
        for match_id in candidates[:QUICK_TRIES]:
            wanted = None if role == "random" or players > 2 else role
            try:
                return Paired(await self.matches.join(match_id, player, wanted), created=False)
            except ApiError as err:
                # taken first by someone else, or a player kept apart from the caller sat down
                if err.status not in (404, 409) and err.code != "blocked":
                    raise
        # the caller takes the seat they wanted; the others are left open to the next comers
        made = await self.matches.create(
            game, role, "human", clock_option, player, rated=rated, public=clock, players=players,
            address=address,
        )  # fmt: skip
        return Paired(made, created=True)

    def _compatible(
        self,
        player: str,
        game: str,
        clock: str,
        rated: bool,
        roles: Collection[str],
        players: int,
    ) -> list[str]:
        with self.core.db.reader() as db:
            me = player_of(db, player)
            assert me is not None
            if me.bot:
                raise bot_not_allowed()
            now = self.core.stamp()
            refuse_if_sanctioned(db, me.id, ("pairing",), now)  # a ban says "pairing" here
            refuse_if_sanctioned(db, me.id, ("lobby", *(("rated",) if rated else ())), now)
            rows = lobby_repo.compatible(db, game, clock, rated, roles, me.id, players)
            apart = blocks.kept_apart(db, me.id, {row.creator for row in rows})
        # a block keeps two players from being paired, whichever of them made it
        return [row.match_id for row in rows if row.creator not in apart]

    async def cancel(self, player: str | None, match_id: str) -> None:
        """The creator takes their challenge out of the lobby; the match stays, private (its
        invite link still works)."""
        if not player:
            raise player_required()
        await run_in_threadpool(self._cancel, player, checked_id(match_id))
        await self.core.publish(LobbyChanged(match_id))

    def _cancel(self, player: str, match_id: str) -> None:
        with self.core.db.write() as db:
            me = player_of(db, player)
            assert me is not None
            found = lobby_repo.challenge(db, match_id)
            if found is None:
                raise not_found("challenge")
            if found.creator != me.id:
                raise ApiError(403, "not_your_challenge", "Only its creator cancels a challenge.")
            lobby_repo.remove_challenge(db, match_id)

    async def sweep(self, present: Collection[str], tables: Collection[str]) -> list[str]:
        """`present`: players with a lobby socket on this process; `tables`: matches with a seat
        socket here (a waiting challenge's only seat is its creator's). Their challenges are
        marked seen now; those whose creator nobody has seen for the away time leave the lobby."""
        away = timedelta(minutes=self.core.settings.lobby_away_minutes)
        now = self.core.clock.now()
        gone = await run_in_threadpool(self._sweep, set(present), set(tables), now, away)
        for match_id in gone:
            await self.core.publish(LobbyChanged(match_id))
        return gone

    def _sweep(self, present: set[str], tables: set[str], now: float, away: timedelta) -> list[str]:
        with self.core.db.reader() as db:
            listed_now = lobby_repo.open_ids(db)
        if not listed_now:
            return []  # the common case costs one read, and never the write lock
        with self.core.db.write() as db:
            lobby_repo.seen(db, present, tables.intersection(listed_now), utc(now))
            return lobby_repo.expire(db, utc(now) - away)
