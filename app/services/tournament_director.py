"""The tournament director (issue 46): a supervised periodic job that starts tournaments when their
time comes, pairs an arena's free players into ordinary matches, starts a round format's next
round once the last has ended or its time is up (`tournament_rounds`), and finishes a tournament
once its time or rounds are done and its last game has ended. It also keeps who has a
tournament's page open (presence), since only they are paired.

Every step is a conditional write, so any number of processes may direct at once: a pairing
claims its players only while they are still free (else its transaction is rolled back), a start
or a finish moves the status only from where it was. A finished tournament match wakes the
director at once (its players are free again); the period catches the rest."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..persistence import blocks, notifications, sanctions
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.tournaments import TournamentRow
from ..push.changes import Change, MatchChanged, Moved, Notified, TournamentChanged
from ..tournaments.arena import Free, Pairing, pair
from .core import Core
from .tournament_rounds import start_round
from .tournament_seating import Seated, Taken, seat_game

log = logging.getLogger("watergate.tournaments")
LAST_MINUTE = timedelta(minutes=1)  # no new pairing this close to an arena's end
PERIOD_S = 2.0  # the director's period; a finished game wakes it sooner
ENDED = ("finished", "abandoned")
MIN_FIELD = {"swiss": 2, "tables": 3}  # a round format's fewest players at its start


@dataclass
class Tick:
    """What one pass of the director did, to publish once it is committed."""

    tournaments: set[str]
    matches: list[str]
    notified: list[tuple[str, int]]


class Director:
    def __init__(self, core: Core) -> None:
        self.core = core
        self._wake = asyncio.Event()
        self._changed: set[str] = set()  # tournaments a game of which ended or lost a player here
        # how many left each running tournament table here (a table of 3+ goes on without them)
        self._leavers: dict[str, int] = {}

    def on_change(self, change: Change) -> None:
        """A listener of this process's changes: a tournament game that ended frees its
        players, so pair now rather than at the next period; a player who left a table that goes
        on was withdrawn with it (tournament_results.record_leaver), which its page shows now."""
        if isinstance(change, Moved | MatchChanged):
            info = self.core.cache.info(change.match_id)
            if info is None or "tournament" not in info.options:
                return
            left = sum(1 for seat in info.seats if seat.left is not None)
            if info.status in ENDED:
                self._leavers.pop(info.match_id, None)
            elif left <= self._leavers.get(info.match_id, 0):
                return
            else:
                self._leavers[info.match_id] = left
            self._changed.add(str(info.options["tournament"]))
            self._wake.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Direct until told to stop (the supervisor restarts it after a failure)."""
        while not stop.is_set():
            await self.tick()
            waking = asyncio.ensure_future(self._wake.wait())
            stopping = asyncio.ensure_future(stop.wait())
            try:
                await asyncio.wait(
                    {waking, stopping}, timeout=PERIOD_S, return_when="FIRST_COMPLETED"
                )
            finally:
                waking.cancel()
                stopping.cancel()
            self._wake.clear()

    async def tick(self) -> Tick:
        done = Tick(set(self._changed), [], [])
        self._changed -= done.tournaments
        await run_in_threadpool(self._direct, done)
        for match_id in done.matches:
            await self.core.publish(MatchChanged(match_id))
        for player, notification in done.notified:
            await self.core.publish(Notified(player, notification))
        for tid in sorted(done.tournaments):
            await self.core.publish(TournamentChanged(tid))
        return done

    def _direct(self, done: Tick) -> None:
        now = self.core.stamp()
        with self.core.db.reader() as db:
            due = repo.due(db, now)
        for tid in due:
            self._start(tid, now, done)
        with self.core.db.reader() as db:  # those just started too: a round 1 begins at once
            running = repo.running(db)
        for t in running:
            if t.format != "arena":
                self._rounds(t, now, done)
            elif t.ends_at is not None and now >= t.ends_at:
                self._finish(t, now, done)
            elif not t.paused and t.ends_at is not None and now < t.ends_at - LAST_MINUTE:
                self._pair(t, now, done)

    def _start(self, tid: str, now: datetime, done: Tick) -> None:
        with self.core.db.write() as db:
            t = repo.get(db, tid, lock=True)
            if t is None or t.status != "upcoming":
                return
            if t.format != "arena" and t.entrants < MIN_FIELD.get(t.format, 2):
                # a round format cannot start with fewer: recorded, the joined told
                repo.set_status(db, tid, "canceled", finished_at=now)
                repo.add_event(db, tid, "cancel", "site", {"reason": "too few players"}, now)
                done.tournaments.add(tid)
                return
            ends = now + timedelta(minutes=t.minutes) if t.minutes else None
            if not repo.set_status(db, tid, "running", started_at=now, ends_at=ends):
                return
            for player in repo.entrant_ids(db, tid):
                data = {
                    "tournament_id": tid, "name": t.name, "game": t.game,
                    "url": f"/tournaments/{tid}",
                }  # fmt: skip
                done.notified.append(
                    (player, notifications.add(db, player, "tournament_start", data, now))
                )
        done.tournaments.add(tid)
        log.info("tournament started", extra={"tournament_id": tid})

    def _finish(self, t: TournamentRow, now: datetime, done: Tick, why: str | None = None) -> None:
        """A tournament ends once its games in progress have (they count)."""
        with self.core.db.write() as db:
            if games_repo.unended(db, t.id):
                return
            if repo.set_status(db, t.id, "finished", finished_at=now):
                if why is not None:
                    repo.add_event(db, t.id, "finish", "site", {"reason": why}, now)
                done.tournaments.add(t.id)

    def _rounds(self, t: TournamentRow, now: datetime, done: Tick) -> None:
        """A round format: once every game of the round has ended, or the round's time is up
        (a correspondence round's length), the next round, or the end (once every game has
        ended). Without a round time every game must have ended, an earlier round's too."""
        if t.paused:
            return
        last = t.round >= (t.rounds or 0)
        deadline = None if last else t.round_ends_at  # (the last round has none of its own)
        if deadline is None or now < deadline:
            with self.core.db.reader() as db:
                if games_repo.unended(db, t.id, None if deadline is None else t.round):
                    return
        if last:
            self._finish(t, now, done)
            return
        made, ends = start_round(self.core, t, now)
        if ends is not None:
            self._finish(t, now, done, f"round {t.round + 1} could not be paired: {ends}")
            return
        done.matches.extend(made.matches)
        done.notified.extend(made.notified)
        if made.matches:
            done.tournaments.add(t.id)

    def _pair(self, t: TournamentRow, now: datetime, done: Tick) -> None:
        """Pair an arena's free players, a game a transaction (a chunk of them would hold the
        writer from everyone's moves), all in this one thread call: told when the pass is done.
        (Telling each as it committed, a thread hop and a publish a game, made pairing slower
        at 500 players on a busy server: bench.tournament, pairing p99 15.8 s -> 25.3 s.)"""
        for pairing in self._pairings(t, now):
            made = self._seat(t, pairing, now)
            if made is None:
                continue  # a player was paired or left meanwhile: nothing of it was kept
            done.matches.extend(made.matches)
            done.notified.extend(made.notified)
            done.tournaments.add(t.id)

    def _pairings(self, t: TournamentRow, now: datetime) -> list[Pairing]:
        with self.core.db.reader() as db:
            free = free_of(db, t.id, now)
            # a player banned from tournaments since joining waits out the ban unpaired
            banned = sanctions.sanctioned(db, [f.player_id for f in free], "tournaments", now)
            free = [f for f in free if f.player_id not in banned]
            if len(free) < 2:
                return []
            ids = [f.player_id for f in free]
            apart = {frozenset(p) for p in blocks.apart_among(db, ids, ids)}
        return pair(free, apart)

    def _seat(self, t: TournamentRow, pairing: Pairing, now: datetime) -> Seated | None:
        made = Seated()
        try:
            with self.core.db.write() as db:
                seat_game(self.core, db, t, [pairing.first, pairing.second], 0, now, made)
        except Taken:
            return None
        made.remember(self.core)
        return made

    async def presence(self, tid: str, player: str, present: bool) -> None:
        """The player opened (or closed the last of) the tournament's page here."""
        await run_in_threadpool(self._presence, tid, player, present)
        self._wake.set()

    def _presence(self, tid: str, player: str, present: bool) -> None:
        with self.core.db.write() as db:
            repo.set_present(db, tid, player, present, None)


def _free(row: games_repo.FreeRow) -> Free:
    return Free(
        row.player_id, row.score, row.rating, row.last_opponent, row.first_seats,
        row.second_seats, row.last_seat,
    )  # fmt: skip


def free_of(db: Session, tid: str, now: datetime) -> list[Free]:
    return [_free(row) for row in games_repo.free(db, tid, now)]
