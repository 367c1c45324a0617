"""Use cases around the game itself: resigning, rematches with roles swapped, clock expiry and
abandonment sweeps, and seats' sockets coming and going. None of it touches the rules: a match
can end here without the game knowing."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from starlette.concurrency import run_in_threadpool

from engine.registry import get_game

from ..auth import new_token, token_hash
from ..clocks import due_at, out_of_time, rule_from_options
from ..errors import ApiError, checked_id, not_found
from ..outages import OUTAGES
from ..persistence import repository as repo
from ..persistence.cache import catch_up, fresh_entry, read_info, row_info
from ..persistence.records import Ending, MatchRow
from ..persistence.sql import OnSession
from ..push.changes import MatchChanged
from ..push.hub import Connection
from .access import seat_for
from .announce import PresenceNotices
from .core import Core, utc
from .matches import SeatTaken, new_row
from .play import on_time
from .ratings import rate_ending

ABANDON_AFTER = timedelta(days=30)
log = logging.getLogger("watergate.lifecycle")


def _other(game_id: str, seat: str) -> str:
    """The other seat of a two-seat game (a rematch swaps them)."""
    return next(s for s in get_game(game_id).seats if s != seat)


class Lifecycle:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.db = core.db
        self.notices = PresenceNotices(core.publish)

    async def resign(self, token: str | None, match_id: str) -> None:
        """The player gives up; the opponent wins."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        await run_in_threadpool(self._resign, match_id, seat)
        await self.core.publish(MatchChanged(match_id))

    def _resign(self, match_id: str, seat: str) -> None:
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            if match is None:
                raise not_found()
            if match.status not in ("active", "waiting"):
                raise ApiError(422, "match_over", "The match has already ended.")
            ending = Ending("finished", _other(match.game, seat), "resigned", seat)
            match.status, match.winner = ending.status, ending.winner
            match.win_reason, match.ended_by = ending.win_reason, ending.ended_by
            match.updated_at = self.core.stamp()
            rate_ending(
                OnSession(db), match.id, match.game, match.options, ending, match.updated_at
            )
        self.core.cache.drop_info(match_id)

    async def offer_rematch(self, token: str | None, match_id: str) -> SeatTaken | None:
        """Offer a rematch with roles swapped; against the computer it starts at once."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new = await run_in_threadpool(self._offer, match_id, seat)
        await self.core.publish(MatchChanged(match_id))
        if new is not None:
            await self.core.publish(MatchChanged(new.match_id))  # wakes the computer seat
        return new

    def _offer(self, match_id: str, seat: str) -> SeatTaken | None:
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            if match is None:
                raise not_found()
            if match.status != "finished":
                raise ApiError(409, "match_not_finished", "A rematch is offered after the end.")
            if repo.get_rematch(db, match_id) is not None:
                raise ApiError(409, "rematch_offered", "A rematch has already been offered.")
            repo.add_rematch(db, match_id, seat)
            vs_bot, other = read_info(db, match).has_bot(), _other(match.game, seat)
        self.core.cache.drop_info(match_id)
        return self._accept(match_id, other, by_bot=True) if vs_bot else None

    async def accept_rematch(self, token: str | None, match_id: str) -> SeatTaken:
        """Accept the other seat's offer: a new match with roles swapped; my new seat."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new = await run_in_threadpool(self._accept, match_id, seat, False)
        await self.core.publish(MatchChanged(match_id))
        return new

    def _accept(self, match_id: str, seat: str, by_bot: bool = False) -> SeatTaken:
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            rematch = repo.get_rematch(db, checked_id(match_id), lock=True)
            if match is None or rematch is None:
                raise ApiError(404, "not_found", "No rematch has been offered.")
            if rematch.offered_by == seat and not by_bot:
                raise ApiError(409, "own_offer", "Your opponent has to accept your offer.")
            if rematch.new_match_id is not None:
                raise ApiError(409, "rematch_started", "The rematch has already started.")
            old = read_info(db, match)
            # roles swapped: each seat's kind and player move to the other seat
            kinds = {_other(old.game, s.name): s.kind for s in old.seats}
            players = {_other(old.game, s.name): s.player_id for s in old.seats}
            new = new_row(self.core, match.game, dict(match.options or {}), kinds)
            repo.add_match(db, new)
            repo.add_seats(db, new.id, kinds, {}, players)
            rematch.new_match_id = new.id
            offered_by = rematch.offered_by
        self.core.cache.put_entry(fresh_entry(new.id, new.game, new.seed, new.rules_version))
        self.core.cache.drop_info(match_id)
        return self._claim(match_id, offered_by if by_bot else seat)

    async def claim_rematch(self, token: str | None, match_id: str) -> SeatTaken:
        """The old seat takes its seat (the other one) in the accepted rematch, once."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new = await run_in_threadpool(self._claim, match_id, seat)
        await self.core.publish(MatchChanged(new.match_id), MatchChanged(match_id))
        return new

    def _claim(self, match_id: str, seat: str) -> SeatTaken:
        token = new_token()
        with self.db.write() as db:
            rematch = repo.get_rematch(db, checked_id(match_id))
            if rematch is None or rematch.new_match_id is None:
                raise ApiError(404, "not_found", "No rematch has started.")
            new = repo.get_match(db, rematch.new_match_id, lock=True)
            assert new is not None
            new_seat = _other(new.game, seat)
            if not repo.claim_seat(db, rematch.new_match_id, new_seat, token_hash(token)):
                raise ApiError(409, "rematch_claimed", "This seat of the rematch is already taken.")
            people = [s for s in read_info(db, new).seats if s.kind == "human"]
            if new.status == "waiting" and all(s.claimed for s in people):
                new.status = "active"
                new.activated_at = new.updated_at = self.core.stamp()
            info = read_info(db, new)
        self.core.cache.put_info(info)
        self.core.cache.drop_info(match_id)
        self.core.cache.put_token(new.id, token_hash(token), new_seat)
        return SeatTaken(new.id, new_seat, token)

    # ---- sweeps -------------------------------------------------------------------------------

    async def sweep(self) -> list[str]:
        """Clock expiry and abandonment; publishes every match that changed."""
        changed = await run_in_threadpool(self._sweep, self.core.clock.now())
        for match_id in changed:
            self.core.cache.drop_info(match_id)
            await self.core.publish(MatchChanged(match_id))
        return changed

    def _sweep(self, now: float) -> list[str]:
        """End matches whose deciding seat ran out of time; mark long-idle human matches
        abandoned. Returns the ids that changed. Only rows due by now (or not known yet) are
        read, so a quiet sweep costs one indexed query, whatever the number of matches; the
        looking happens in a read transaction, so a sweep holds the write lock (and delays
        moves) only when something ended or a row's moment was worked out."""
        cutoff = utc(now) - ABANDON_AFTER
        late: list[tuple[MatchRow, Ending]] = []
        known: list[tuple[str, int, datetime]] = []
        with self.db.reader() as db:
            idle = repo.idle_human_matches(db, cutoff)
            for row in repo.due_matches(db, utc(now)):
                if rule_from_options(row.options) is None:
                    known.append((row.id, row.version, repo.NEVER))  # no clock: never due
                    continue
                info = row_info(db, self.core.cache, row)
                entry = catch_up(
                    db, self.core.cache, row.id, info.game, row.seed, row.rules_version, row.version
                )
                loser = out_of_time(info, entry, now)
                if loser is not None:
                    late.append((row, on_time(loser, get_game(info.game).seats)))
                    continue
                due = due_at(info, entry)
                known.append((row.id, row.version, repo.NEVER if due is None else utc(due)))
        if not idle and not late and not known:
            return []
        with self.db.write() as db:
            changed = [match_id for match_id in idle if repo.abandon(db, match_id, cutoff)]
            for row, ending in late:
                if repo.finish(db, row.id, ending, utc(now), at_version=row.version):
                    rate_ending(OnSession(db), row.id, row.game, row.options, ending, utc(now))
                    changed.append(row.id)
            for match_id, version, due_moment in known:
                repo.set_due(db, match_id, due_moment, at_version=version)
        return changed

    # ---- sockets coming and going -------------------------------------------------------------

    async def join(self, conn: Connection) -> None:
        """A socket opened (ApiError 429 over a cap, before it counts): it gets its first frame;
        the other seats see the seat online once its first socket here opened."""
        mine = self.core.fanout.hub.add(conn)
        if conn.viewer is None:
            return  # spectators are not shown in presence: nobody else needs a new frame
        await self.core.renderer.presence.mark(conn, True)
        if mine == 1:
            self.notices.announce(conn.match_id, conn.viewer, None)

    async def leave(self, conn: Connection) -> None:
        """A socket closed; when it was the seat's last one here, "last seen" is written (while
        connected it is online) and carried in the change so no process reads it back."""
        left = await self.core.fanout.hub.remove(conn)
        if conn.viewer is None:
            return
        await self.core.renderer.presence.mark(conn, False)
        if left:
            return  # another socket of the seat is still open: nothing changed
        when = self.core.stamp().timestamp()  # as stored: whole microseconds
        try:
            await run_in_threadpool(self._touch, conn.match_id, conn.viewer, when)
        except OUTAGES as err:  # "last seen" is a courtesy: the others still learn it went away
            log.warning(
                "last seen of %s/%s not stored (%s)", conn.match_id, conn.viewer, type(err).__name__
            )
        self.core.cache.seen(conn.match_id, conn.viewer, when)
        self.notices.announce(conn.match_id, conn.viewer, when)

    def _touch(self, match_id: str, seat: str, when: float) -> None:
        with self.db.write() as db:
            repo.touch_seat(db, match_id, seat, utc(when))
