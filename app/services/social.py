"""Use cases of people (contract v1.2 "People"): following and unfollowing (friends are mutual
follows), blocking and unblocking, who may send one a direct challenge, and the people page's
lists with each person's status (online, playing) from presence. Every call is a player's,
guests included: a guest's player token is its identity."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..errors import ApiError, checked_id, not_found
from ..persistence import blocks, follows
from ..persistence import challenges as challenge_rows
from ..persistence import players as player_rows
from ..persistence.models import Player
from ..persistence.people_tables import CHALLENGES_FROM
from ..persistence.records import PlayerRow
from ..push.lobby import LobbyRoom
from ..push.presence import Presence
from .core import Core
from .matches import blocked, player_required
from .players import player_of
from .unplayed import end_unplayed

MAX_FOLLOWS = 400  # whom one player may follow
MAX_FOLLOWERS_LISTED = 400  # followers the people page lists (the newest are not favoured)
MAX_BLOCKS = 1000
ACTIVE_CHECKED = 200  # seats in active matches whose presence a listing asks about


@dataclass(frozen=True)
class Listed:
    """A person on the people page."""

    player_id: str
    name: str
    friend: bool  # a follow each way
    online: bool  # a socket open now: the lobby here, or a seat at an active table
    playing: bool  # at an active table with their seat connected
    bot: bool = False  # a bot account (contract v1.2 "Bots"): marked BOT


@dataclass(frozen=True)
class People:
    following: tuple[Listed, ...]
    followers: tuple[Listed, ...]


@dataclass(frozen=True)
class BlockedOne:
    player_id: str
    name: str
    since: str  # ISO 8601, UTC


def self_refused() -> ApiError:
    return ApiError(422, "invalid_request", "That is you.")


class Social:
    def __init__(self, core: Core, presence: Presence, lobby_room: LobbyRoom) -> None:
        self.core, self.presence, self.lobby_room = core, presence, lobby_room

    def _as(self, token: str | None, work: Callable[[Session, PlayerRow], object]) -> object:
        """Run `work` as the token's player inside one write transaction."""
        if not token:
            raise player_required()
        with self.core.db.write() as db:
            me = player_of(db, token)
            assert me is not None
            return work(db, me)

    def _other(self, db: Session, me: PlayerRow, player_id: str) -> PlayerRow:
        if player_id == me.id:
            raise self_refused()
        other = player_rows.player_by_id(db, player_id)
        if other is None:
            raise not_found("player")
        return other

    async def follow(self, token: str | None, player_id: str) -> None:
        wanted = checked_id(player_id, "player")

        def work(db: Session, me: PlayerRow) -> None:
            other = self._other(db, me, wanted)
            if blocks.apart(db, me.id, other.id):
                raise blocked()  # the same answer whichever of the two blocked
            if follows.follows(db, me.id, other.id):
                return
            if follows.count(db, me.id) >= MAX_FOLLOWS:
                message = f"You follow {MAX_FOLLOWS} players; unfollow someone first."
                raise ApiError(409, "too_many_follows", message)
            follows.follow(db, me.id, other.id, self.core.stamp())

        await run_in_threadpool(self._as, token, work)

    async def unfollow(self, token: str | None, player_id: str) -> None:
        wanted = checked_id(player_id, "player")
        await run_in_threadpool(self._as, token, lambda db, me: follows.unfollow(db, me.id, wanted))

    async def block(self, token: str | None, player_id: str) -> list[str]:
        """Block the player: follows between the two end, and so do open challenges between
        them, whose waiting matches end unplayed (their ids are returned)."""
        wanted = checked_id(player_id, "player")

        def work(db: Session, me: PlayerRow) -> list[str]:
            other = self._other(db, me, wanted)
            if blocks.count(db, me.id) >= MAX_BLOCKS and not blocks.apart(db, me.id, other.id):
                raise ApiError(409, "too_many_blocks", f"You have blocked {MAX_BLOCKS} players.")
            now = self.core.stamp()
            blocks.block(db, me.id, other.id, now)
            follows.part(db, me.id, other.id)
            ended = []
            for row in challenge_rows.open_between(db, me.id, other.id):
                if challenge_rows.answer(db, row.id, "canceled", now):
                    challenge_rows.withdraw_seat(db, row.match_id, row.target_seat, now)
                    ended.append(row.match_id)
            return ended

        found = await run_in_threadpool(self._as, token, work)
        assert isinstance(found, list)
        await end_unplayed(self.core, found)
        return found

    async def unblock(self, token: str | None, player_id: str) -> None:
        wanted = checked_id(player_id, "player")
        await run_in_threadpool(self._as, token, lambda db, me: blocks.unblock(db, me.id, wanted))

    async def blocked(self, token: str | None, limit: int = MAX_BLOCKS) -> list[BlockedOne]:
        if not token:
            raise player_required()
        return await run_in_threadpool(self._blocked, token, limit)

    def _blocked(self, token: str, limit: int) -> list[BlockedOne]:
        with self.core.db.reader() as db:
            me = player_of(db, token)
            assert me is not None
            rows = blocks.blocked_by(db, me.id, limit)
            names = {p.id: p for p in (player_rows.player_by_id(db, r.blocked) for r in rows) if p}
        return [
            BlockedOne(r.blocked, names[r.blocked].name, r.created_at.isoformat())
            for r in rows
            if r.blocked in names
        ]

    async def set_challenges(self, token: str | None, setting: str) -> str:
        if setting not in CHALLENGES_FROM:
            allowed = ", ".join(CHALLENGES_FROM)
            raise ApiError(422, "invalid_request", f"challenges must be one of {allowed}.")

        def work(db: Session, me: PlayerRow) -> None:
            row = db.get(Player, me.id)
            assert row is not None
            row.challenges_from = setting

        await run_in_threadpool(self._as, token, work)
        return setting

    async def settings(self, token: str | None) -> str:
        """Who may challenge this player."""
        if not token:
            raise player_required()

        def read() -> str:
            with self.core.db.reader() as db:
                me = player_of(db, token)
                assert me is not None
                row = db.get(Player, me.id)
                return row.challenges_from if row is not None else "everyone"

        return await run_in_threadpool(read)

    async def people(self, token: str | None) -> People:
        """Whom the player follows and who follows them, each with their status."""
        if not token:
            raise player_required()
        _me, mine, theirs, friends_of, seats = await run_in_threadpool(self._people, token)
        online = self.lobby_room.players()
        playing: set[str] = set()
        for player, match_id, seat in seats:
            if player not in playing and seat in await self.presence.online(match_id):
                playing.add(player)

        def shown(p: follows.Person) -> Listed:
            at_table = p.player_id in playing
            friend = p.player_id in friends_of
            online_now = at_table or p.player_id in online
            return Listed(p.player_id, p.name, friend, online_now, at_table, p.bot)

        return People(tuple(map(shown, mine)), tuple(map(shown, theirs)))

    def _people(
        self, token: str
    ) -> tuple[
        str, list[follows.Person], list[follows.Person], set[str], list[tuple[str, str, str]]
    ]:
        with self.core.db.reader() as db:
            me = player_of(db, token)
            assert me is not None
            mine = follows.following(db, me.id, MAX_FOLLOWS)
            theirs = follows.followers(db, me.id, MAX_FOLLOWERS_LISTED)
            friends_of = {p.player_id for p in mine} & {p.player_id for p in theirs}
            everyone = {p.player_id for p in mine} | {p.player_id for p in theirs}
            seats = follows.active_seats(db, everyone, ACTIVE_CHECKED)
        return me.id, mine, theirs, friends_of, seats
