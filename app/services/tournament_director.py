"""The tournament director (issue 46): a supervised periodic job that starts tournaments when
their time comes, pairs an arena's free players into ordinary matches, and finishes an arena
once its time is up and its last game has ended. It also keeps who has a tournament's page open
(presence), since only they are paired.

Every step is a conditional write, so any number of processes may direct at once: a pairing
claims its players only while they are still free (else its transaction is rolled back), a
start or a finish moves the status only from where it was. A finished tournament match wakes
the director at once (its players are free again); the period catches the rest."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from engine.registry import get_game

from ..auth import new_token, token_hash
from ..clocks import clock_option
from ..games import seats_of
from ..persistence import blocks, notifications
from ..persistence import repository as match_repo
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.cache import fresh_entry, read_info
from ..persistence.models import Match
from ..persistence.records import MatchInfo
from ..persistence.tournaments import TournamentRow
from ..push.changes import Change, MatchChanged, Moved, Notified, TournamentChanged
from ..tournaments.arena import Free, Pairing, pair
from .core import Core
from .matches import new_row

log = logging.getLogger("watergate.tournaments")
LAST_MINUTE = timedelta(minutes=1)  # no new pairing this close to an arena's end
PERIOD_S = 2.0  # the director's period; a finished game wakes it sooner
ENDED = ("finished", "abandoned")


@dataclass
class Tick:
    """What one pass of the director did, to publish once it is committed."""

    tournaments: set[str]
    matches: list[str]
    notified: list[tuple[str, int]]


class _Taken(Exception):
    """A pairing that lost one of its players to another transaction."""


class Director:
    def __init__(self, core: Core) -> None:
        self.core = core
        self._wake = asyncio.Event()
        self._ended: set[str] = set()  # tournaments whose games ended here since the last pass

    def on_change(self, change: Change) -> None:
        """A listener of this process's changes: a tournament game that ended frees its
        players, so pair now rather than at the next period."""
        if isinstance(change, Moved | MatchChanged):
            info = self.core.cache.info(change.match_id)
            if info is not None and info.status in ENDED and "tournament" in info.options:
                self._ended.add(str(info.options["tournament"]))
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
        done = Tick(set(self._ended), [], [])
        self._ended -= done.tournaments
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
            running = repo.running(db)
        for tid in due:
            self._start(tid, now, done)
        for t in running:
            if t.ends_at is not None and now >= t.ends_at:
                self._finish(t, now, done)
            elif not t.paused and t.ends_at is not None and now < t.ends_at - LAST_MINUTE:
                self._pair(t, now, done)

    def _start(self, tid: str, now: datetime, done: Tick) -> None:
        with self.core.db.write() as db:
            t = repo.get(db, tid, lock=True)
            if t is None or t.status != "upcoming":
                return
            ends = now + timedelta(minutes=t.minutes or 0)
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

    def _finish(self, t: TournamentRow, now: datetime, done: Tick) -> None:
        """An arena whose time is up ends once its games in progress have (they count)."""
        with self.core.db.write() as db:
            if games_repo.unended(db, t.id):
                return
            if repo.set_status(db, t.id, "finished", finished_at=now):
                done.tournaments.add(t.id)

    def _pair(self, t: TournamentRow, now: datetime, done: Tick) -> None:
        with self.core.db.reader() as db:
            free = free_of(db, t.id, now)
            if len(free) < 2:
                return
            ids = [f.player_id for f in free]
            apart = {frozenset(p) for p in blocks.apart_among(db, ids, ids)}
        for pairing in pair(free, apart):
            if self._seat(t, pairing, now, done):
                done.tournaments.add(t.id)

    def _seat(self, t: TournamentRow, pairing: Pairing, now: datetime, done: Tick) -> bool:
        """One game: its match (both seats taken, active at once), its tournament rows and the
        players' notices, in one transaction; false when a player was taken meanwhile."""
        game = get_game(t.game)
        seats = seats_of(t.game, t.players_per_game)
        options: dict[str, Any] = {
            "opponent": "human", "visibility": "public", "tournament": t.id,
        }  # fmt: skip
        kind, amount = t.clock.split("-")
        clock = clock_option(kind, int(amount))
        if clock:
            options["clock"] = clock
        if len(seats) != len(game.seats):
            options["players"] = len(seats)
        if t.rated:
            options["rated"] = True
        match = new_row(self.core, t.game, options, dict.fromkeys(seats, "human"))
        match.status, match.activated_at = "active", now
        players = {seats[0]: pairing.first, seats[1]: pairing.second}
        held = {seat: token_hash(new_token()) for seat in seats}  # each player's keys come later
        try:
            with self.core.db.write() as db:
                info, notes = self._write_game(db, t, match, players, held, now)
        except _Taken:
            return False
        done.notified.extend(notes)
        self.core.cache.put_info(info)
        self.core.cache.put_entry(
            fresh_entry(match.id, match.game, match.seed, match.rules_version, options).warm()
        )
        done.matches.append(match.id)
        return True

    def _write_game(
        self, db: Session, t: TournamentRow, match: Match, players: dict[str, str],
        held: dict[str, str], now: datetime,
    ) -> tuple[MatchInfo, list[tuple[str, int]]]:  # fmt: skip
        """The game's rows and its players' notices (their ids), once both players are claimed."""
        if not games_repo.claim(db, t.id, list(players.values()), match.id):
            raise _Taken  # a player was paired or left meanwhile: nothing of this is kept
        match_repo.add_match(db, match)
        match_repo.add_seats(db, match.id, dict.fromkeys(players, "human"), held, dict(players))
        games_repo.add_game(db, t.id, match.id, t.round, {p: s for s, p in players.items()}, now)
        notes = []
        for seat, player in players.items():
            data = {
                "tournament_id": t.id, "name": t.name, "game": t.game, "match_id": match.id,
                "seat": seat,
            }  # fmt: skip
            notes.append((player, notifications.add(db, player, "tournament_paired", data, now)))
        return read_info(db, match), notes

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
