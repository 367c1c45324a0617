"""Use cases around the game itself: resigning, rematches with roles swapped, clock expiry and
abandonment sweeps, and seats' sockets coming and going. None of it touches the rules: a match
can end here without the game knowing."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..clocks import due_at, out_of_time, rule_from_options
from ..errors import ApiError, checked_id, not_found
from ..outages import OUTAGES
from ..persistence import repository as repo
from ..persistence.cache import Entry, catch_up, fresh_entry, read_info, row_info
from ..persistence.records import DEFAULT_LEVEL, MatchInfo, MatchRow, rematch_seat
from ..persistence.sanctions import in_force
from ..push.changes import MatchChanged, Notified
from ..push.hub import Connection
from .access import seat_for
from .announce import PresenceNotices
from .changes import MatchChanges
from .core import Core, utc
from .leaving import abandoning, bot_deciding, idle_bot, resigning, seat_left, timing_out
from .matches import SeatTaken, new_row
from .notice_producers import rematch_lines
from .reliability import rated_scope, refuse_banned
from .seating import IN_REMATCH, Seating, take_seat

ABANDON_AFTER = timedelta(days=30)
IDLE_BOTS_SWEPT = 100  # matches with an idle bot account looked at per sweep
log = logging.getLogger("watergate.lifecycle")


def rematch_options(options: dict[str, Any], to: dict[str, str], old: MatchInfo) -> dict[str, Any]:
    """The rematch's options: the same, with every per-seat choice (the computer's levels,
    Nations' handicaps) following its seat, and a leaver's seat the computer's at normal."""
    new = dict(options)
    for key in ("levels", "handicaps"):
        if isinstance(options.get(key), dict):
            new[key] = {to[seat]: value for seat, value in options[key].items() if seat in to}
    replaced = {to[s.name]: DEFAULT_LEVEL for s in old.seats if s.left is not None}
    if replaced:
        new["levels"] = {**new.get("levels", {}), **replaced}
        new.setdefault("level", DEFAULT_LEVEL)
    return new


class Lifecycle:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.db = core.db
        self.notices = PresenceNotices(core.publish)
        self.changes = MatchChanges(core)

    async def resign(self, token: str | None, match_id: str) -> None:
        """The player gives up: in a duel the opponent wins; at a table of three or more the
        computer plays the seat on and the leaver ranks last (contract v1.2)."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        await self.resign_seat(match_id, seat)

    async def resign_seat(self, match_id: str, seat: str) -> None:
        """A seat whose holder was checked (a seat token, a bot's API token) gives up."""
        await run_in_threadpool(self._resign, match_id, seat)
        await self.core.publish(MatchChanged(match_id))

    def _resign(self, match_id: str, seat: str) -> None:
        now = self.core.stamp()
        self.changes.run(match_id, resigning(seat, now), now)

    async def offer_rematch(self, token: str | None, match_id: str) -> SeatTaken | None:
        """Offer a rematch (a duel's roles swapped, a table's seats kept); when no other person
        sits at the table, it starts at once."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new, lines = await run_in_threadpool(self._offer, match_id, seat)
        await self.core.publish(MatchChanged(match_id), *lines)
        if new is not None:
            await self.core.publish(MatchChanged(new.match_id))  # wakes the computer seat
        return new

    def _offer(self, match_id: str, seat: str) -> tuple[SeatTaken | None, list[Notified]]:
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            if match is None:
                raise not_found()
            if match.status != "finished":
                raise ApiError(409, "match_not_finished", "A rematch is offered after the end.")
            if repo.get_rematch(db, match_id) is not None:
                raise ApiError(409, "rematch_offered", "A rematch has already been offered.")
            info = read_info(db, match)
            if info.kind(seat) != "human":
                raise seat_left()
            banned_from = rated_scope(info.options)  # a rated rematch is rated play
            refuse_banned(db, info.seat(seat).player_id, self.core.stamp(), *banned_from)
            repo.add_rematch(db, match_id, seat, self.core.stamp())
            alone = info.people == (seat,)
            lines = [] if alone else rematch_lines(db, info, seat, self.core.stamp())
        self.core.cache.drop_info(match_id)
        return (self._accept(match_id, seat, by_bot=True) if alone else None), lines

    async def accept_rematch(self, token: str | None, match_id: str) -> SeatTaken | None:
        """Accept the offer: my new seat once everyone has accepted (a duel's only other seat
        at once), else None while the table waits for the others' answers."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new = await run_in_threadpool(self._accept, match_id, seat, False)
        await self.core.publish(MatchChanged(match_id))
        return new

    async def decline_rematch(self, token: str | None, match_id: str) -> None:
        """Say no to a table's (or a duel's) rematch offer: it will not start."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        await run_in_threadpool(self._answer, match_id, seat, "declined")
        await self.core.publish(MatchChanged(match_id))

    def _answer(self, match_id: str, seat: str, answer: str) -> bool:
        """Record `seat`'s answer to the offer; whether every person has now accepted."""
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            rematch = repo.get_rematch(db, checked_id(match_id), lock=True)
            if match is None or rematch is None:
                raise ApiError(404, "not_found", "No rematch has been offered.")
            info = read_info(db, match)
            offer = info.rematch
            if rematch.new_match_id is not None:
                raise ApiError(409, "rematch_started", "The rematch has already started.")
            if offer is not None and offer.expired(self.core.clock.now()):
                raise ApiError(409, "rematch_expired", "This rematch offer has lapsed.")
            if offer is not None and offer.answered("declined"):
                raise ApiError(409, "rematch_declined", "Someone has declined this rematch.")
            if info.kind(seat) != "human":
                raise seat_left()
            if answer == "accepted":
                banned_from = rated_scope(info.options)
                refuse_banned(db, info.seat(seat).player_id, self.core.stamp(), *banned_from)
            answers = {rematch.offered_by: "accepted", **(rematch.answers or {})}
            if rematch.offered_by == seat and answer == "accepted":
                raise ApiError(409, "own_offer", "The others have to accept your offer.")
            rematch.answers = {**answers, seat: answer}
            everyone = all(rematch.answers.get(p) == "accepted" for p in info.people)
        self.core.cache.drop_info(match_id)
        return everyone

    def _accept(self, match_id: str, seat: str, by_bot: bool = False) -> SeatTaken | None:
        if not by_bot and not self._answer(match_id, seat, "accepted"):
            return None  # the table waits for the others
        with self.db.write() as db:
            match = repo.get_match(db, checked_id(match_id), lock=True)
            rematch = repo.get_rematch(db, checked_id(match_id), lock=True)
            if match is None or rematch is None:
                raise ApiError(404, "not_found", "No rematch has been offered.")
            if rematch.new_match_id is not None:
                raise ApiError(409, "rematch_started", "The rematch has already started.")
            old = read_info(db, match)
            names = list(old.seat_names)
            to = {s: rematch_seat(names, s) for s in names}  # a duel swaps, a table stays
            # a leaver's seat is the computer's in the rematch (and their name leaves it)
            kinds = {to[s.name]: s.kind for s in old.seats}
            players = {to[s.name]: s.player_id if s.left is None else None for s in old.seats}
            options = rematch_options(old.options, to, old)
            if options.get("rated") is True and any(
                in_force(db, p, ("rated",), self.core.stamp()) for p in players.values() if p
            ):
                # someone was banned from rated play after the offer: the rematch is played,
                # unrated, as every rated seat refuses a banned player (issue 43)
                options = {**options, "rated": False, "unrated_by": "sanction"}
            new = new_row(self.core, match.game, options, kinds)
            repo.add_match(db, new)
            repo.add_seats(db, new.id, kinds, {}, players)
            rematch.new_match_id = new.id
        self.core.cache.put_entry(
            fresh_entry(new.id, new.game, new.seed, new.rules_version, new.options)
        )
        self.core.cache.drop_info(match_id)
        return self._claim(match_id, seat)

    async def claim_rematch(self, token: str | None, match_id: str) -> SeatTaken:
        """The old seat takes its seat in the accepted rematch, once."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        new = await run_in_threadpool(self._claim, match_id, seat)
        await self.core.publish(MatchChanged(new.match_id), MatchChanged(match_id))
        return new

    def _claim(self, match_id: str, seat: str) -> SeatTaken:
        with self.db.reader() as db:
            rematch = repo.get_rematch(db, checked_id(match_id))
            if rematch is None or rematch.new_match_id is None:
                raise ApiError(404, "not_found", "No rematch has started.")
            new = repo.match_row(db, rematch.new_match_id)
            assert new is not None
            new_seat = rematch_seat(list(read_info(db, new).seat_names), seat)
        # the seat names its player already (the rematch was made so): the token is all it takes
        seated = take_seat(self.core, new.id, Seating(new_seat, None, IN_REMATCH))
        self.core.cache.drop_info(match_id)  # the old match's offer shows the seat taken
        return SeatTaken(new.id, new_seat, seated.token)

    # ---- sweeps -------------------------------------------------------------------------------

    async def sweep(self) -> list[str]:
        """Clock expiry, idle bot accounts and abandonment; publishes every match that
        changed."""
        changed, told = await run_in_threadpool(self._sweep, self.core.clock.now())
        for match_id in changed:
            self.core.cache.drop_info(match_id)
            await self.core.publish(MatchChanged(match_id))
        await self.core.publish(*told)  # a leaver's ban, on their bell
        return changed

    def _sweep(self, now: float) -> tuple[list[str], list[Notified]]:
        """End matches whose deciding seat ran out of time; mark long-idle human matches
        abandoned (at a table of three or more, the computer takes over the idle deciding seat
        instead, and the match goes on), each in its own match transaction. Returns the ids that
        changed, and the bell lines written (leavers' bans). Only rows due by now (or not known
        yet) are read, so a quiet sweep costs one indexed query, whatever the number of matches;
        the looking happens in a read transaction, so a sweep holds the write lock (and delays
        moves) only when something ended or a row's moment was worked out."""
        cutoff = utc(now) - ABANDON_AFTER
        late: list[tuple[MatchRow, str]] = []
        known: list[tuple[str, int, datetime]] = []
        with self.db.reader() as db:
            idle = repo.idle_human_matches(db, cutoff)
            bots = self._idle_bots(db, now)
            for row in repo.due_matches(db, utc(now)):
                if rule_from_options(row.options) is None:
                    known.append((row.id, row.version, repo.NEVER))  # no clock: never due
                    continue
                info = row_info(db, self.core.cache, row)
                entry = self._entry(db, row, info.options)
                loser = out_of_time(info, entry, now)
                if loser is not None:
                    late.append((row, loser))
                    continue
                due = due_at(info, entry)
                known.append((row.id, row.version, repo.NEVER if due is None else utc(due)))
        if not idle and not late and not known and not bots:
            return [], []
        when = utc(now)
        runs = [(m, idle_bot(v, when)) for m, v in bots]
        runs += [(m, abandoning(cutoff, when)) for m in idle]
        runs += [(row.id, timing_out(loser, row.version, when)) for row, loser in late]
        changed: list[str] = []
        told: list[Notified] = []
        for match_id, change in runs:
            done = self.changes.run(match_id, change, when)
            if done.done:
                changed.append(match_id)
                told += done.told
        if known:
            with self.db.write() as db:
                for match_id, version, due_moment in known:
                    repo.set_due(db, match_id, due_moment, at_version=version)
        return changed, told

    def _idle_bots(self, db: Session, now: float) -> list[tuple[str, int]]:
        """(match, version) of matches without a clock where a bot account may have sat on its
        decision for BOT_IDLE_HOURS (the change itself checks whose turn it is)."""
        hours = self.core.settings.bot_idle_hours
        if hours <= 0:
            return []
        cutoff = utc(now) - timedelta(hours=hours)
        found = []
        for row in repo.idle_bot_matches(db, cutoff, IDLE_BOTS_SWEPT):
            if rule_from_options(row.options) is not None:
                continue  # a clock of its own decides how long anyone may think
            info = row_info(db, self.core.cache, row)
            if bot_deciding(info, self._entry(db, row, info.options)) is not None:
                found.append((row.id, row.version))
        return found

    def _entry(self, db: Session, row: MatchRow, options: dict[str, Any]) -> Entry:
        return catch_up(
            db, self.core.cache, row.id, row.game, row.seed, row.rules_version, row.version,
            options,
        )  # fmt: skip

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
