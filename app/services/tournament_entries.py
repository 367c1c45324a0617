"""Joining and leaving a tournament (issue 46): an account joins an upcoming or running
tournament (a private one by its link's code) within its limits — the most players, the
rating and games it asks for, no rated tournament for a bot, no tournament for a player banned
from them; withdrawing before the start leaves no trace, and later keeps the score in the
standings and lets a game under way go on, with no pairing after it. Coming back after
withdrawing costs a short wait before the next pairing."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import timedelta

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..clocks import due_at
from ..errors import ApiError, checked_id, not_found
from ..persistence import origins
from ..persistence import ratings as ratings_repo
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.cache import Entry
from ..persistence.models import Player
from ..persistence.moves import MoveTransaction
from ..persistence.records import MatchInfo, MatchRow
from ..persistence.seat_keys import held_seat
from ..push.changes import MatchChanged, TournamentChanged
from .changes import Changed, MatchChanges
from .core import Core, utc
from .matches import player_required
from .players import player_of
from .reliability import refuse_banned

COMEBACK_WAIT = timedelta(seconds=10)  # coming back: a short wait before the next pairing


class TournamentEntries:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def join(self, token: str | None, tournament_id: str, code: str | None) -> None:
        if not token:
            raise player_required()
        tid = checked_id(tournament_id)
        await run_in_threadpool(self._join, token, tid, code)
        await self.core.publish(TournamentChanged(tid))

    def _join(self, token: str, tid: str, code: str | None) -> None:
        now = self.core.stamp()
        with self.core.db.write() as db:
            t = repo.get(db, tid, lock=True)
            if t is None:
                raise not_found("tournament")
            me = player_of(db, token)
            assert me is not None
            row = db.get(Player, me.id)
            if row is None or row.password_hash is None:
                raise ApiError(403, "account_required", "Playing a tournament needs an account.")
            if t.rated and row.bot:
                raise ApiError(403, "bot_not_allowed", "Bots do not play rated tournaments.")
            refuse_banned(db, me.id, now, "tournaments")
            if t.status not in ("upcoming", "running"):
                raise ApiError(409, "tournament_closed", f"This tournament is {t.status}.")
            if t.private and not self._code_ok(db, tid, code):
                raise ApiError(403, "invite_required", "This tournament is joined by its link.")
            entry = repo.entrant(db, tid, me.id)
            if entry is not None and entry.removed:
                raise ApiError(403, "removed", "You were removed from this tournament.")
            if entry is not None and not entry.withdrawn:
                raise ApiError(409, "already_joined", "You are in this tournament.")
            rating = self._rating(db, me.id, t)
            if entry is not None:  # back after withdrawing: the scores so far are kept
                repo.rejoin(db, tid, me.id, now + COMEBACK_WAIT)
                return
            if t.entrants >= t.max_players:
                raise ApiError(409, "tournament_full", f"{t.max_players} players at most.")
            repo.add_entrant(db, tid, me.id, rating, now)

    def _code_ok(self, db: Session, tid: str, code: str | None) -> bool:
        wanted = repo.join_code(db, tid)
        return bool(code and wanted and secrets.compare_digest(code.encode(), wanted.encode()))

    def _rating(self, db: Session, player: str, t: repo.TournamentRow) -> float:
        found = [r for r in ratings_repo.ratings_of(db, player) if r.game == t.game]
        rating, games = (found[0].rating, found[0].games) if found else (1500.0, 0)
        if t.min_rating is not None and rating < t.min_rating:
            raise ApiError(403, "rating_too_low", f"This tournament needs {t.min_rating}.")
        if t.min_games is not None and games < t.min_games:
            raise ApiError(403, "not_enough_games", f"This tournament needs {t.min_games} games.")
        return rating

    async def withdraw(self, token: str | None, tournament_id: str) -> None:
        """Leave: before the start without a trace; once running, the score stays in the
        standings and a game under way goes on, but no new pairing comes."""
        if not token:
            raise player_required()
        tid = checked_id(tournament_id)
        await run_in_threadpool(self._withdraw, token, tid)
        await self.core.publish(TournamentChanged(tid))

    def _withdraw(self, token: str, tid: str) -> None:
        with self.core.db.write() as db:
            t = repo.get(db, tid, lock=True)
            me = player_of(db, token)
            assert me is not None
            entry = repo.entrant(db, tid, me.id) if t is not None else None
            if t is None or entry is None or entry.removed:
                raise not_found("tournament")
            if entry.withdrawn:
                raise ApiError(409, "not_joined", "You already left this tournament.")
            if t.status in ("finished", "canceled"):
                raise ApiError(409, "tournament_closed", f"This tournament is {t.status}.")
            if t.status == "upcoming":
                repo.delete_entrant(db, tid, me.id)
            else:
                repo.withdraw(db, tid, me.id)

    async def berserk(self, token: str | None, tournament_id: str, match_id: str) -> None:
        """Go berserk in your arena game before your first decision: your clock's bank is
        halved and its increment dropped; a win then scores a point more."""
        if not token:
            raise player_required()
        tid, mid = checked_id(tournament_id), checked_id(match_id)
        player, seat = await run_in_threadpool(self._berserk_seat, token, tid, mid)
        await run_in_threadpool(self._berserk, mid, player, seat)
        await self.core.publish(MatchChanged(mid), TournamentChanged(tid))

    def _berserk_seat(self, token: str, tid: str, match_id: str) -> tuple[str, str]:
        with self.core.db.reader() as db:
            me = player_of(db, token)
            assert me is not None
            t = repo.get(db, tid)
            entry = repo.entrant(db, tid, me.id) if t is not None else None
            if t is None or entry is None or entry.removed:
                raise not_found("tournament")
            if t.format != "arena":
                raise ApiError(409, "berserk_unavailable", "Berserk is an arena's.")
            if entry.match_id != match_id:
                raise ApiError(409, "not_your_game", "This is not your game in this tournament.")
            seat = held_seat(db, match_id, me.id)
            if seat is None:
                raise ApiError(409, "not_your_game", "This is not your game in this tournament.")
            return me.id, seat

    def _berserk(self, match_id: str, player: str, seat: str) -> None:
        def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
            clock = dict(info.options.get("clock") or {})
            if info.status != "active" or clock.get("kind") != "realtime":
                raise ApiError(409, "berserk_unavailable", "Only a live game under way.")
            if seat in entry.actors or seat in (clock.get("berserk") or ()):
                raise ApiError(409, "berserk_unavailable", "Berserk comes before your first move.")
            clock["berserk"] = [*(clock.get("berserk") or ()), seat]
            options = {**info.options, "clock": clock}
            origins.set_options(tx, match_id, options)
            games_repo.set_berserk(tx, match_id, player)
            new = replace(info, options=options)
            due = due_at(new, entry)
            tx.set_due(match_id, None if due is None else utc(due), entry.version)
            return Changed(new)

        MatchChanges(self.core).run(match_id, change, self.core.stamp(), missing=not_found)
