"""Use case: submit an action. One transaction: lock the match, check the expected version, run
the rules, insert the action at seq = version + 1, commit; only then publish Moved. A move that
arrives after its seat's clock ran out is refused and ends the match instead."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from engine.core.errors import EngineError
from engine.registry import get_game

from ..clocks import out_of_time
from ..errors import ApiError, checked_id, from_engine, unauthorized
from ..persistence import repository as repo
from ..persistence.cache import Entry, catch_up, row_info
from ..persistence.models import Match
from ..persistence.records import MatchInfo, refreshed
from ..push.changes import MatchChanged, Moved
from .access import seat_for
from .core import Core, utc


def end_on_time(match: Match, loser: str, seats: tuple[str, ...], when: float) -> None:
    """The seat that ran out of time loses."""
    match.status = "finished"
    match.winner = next(s for s in seats if s != loser)
    match.win_reason = "timeout"
    match.ended_by = loser
    match.updated_at = utc(when)


class Play:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def submit(
        self, token: str | None, match_id: str, action: Any, expected: int | None
    ) -> str:
        """A seat's action by HTTP: the seat's new view as JSON text."""
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        info, entry = await self.act(match_id, seat, action, expected)
        return await self.core.renderer.view(info, entry, seat)

    async def act(
        self, match_id: str, seat: str, action: Any, expected: int | None
    ) -> tuple[MatchInfo, Entry]:
        """Apply the action and publish it (sockets, bots, a seat's socket message)."""
        now = self.core.clock.now()
        try:
            info, entry = await run_in_threadpool(self.apply, match_id, seat, action, expected, now)
        except ApiError as err:
            if err.code == "match_over":  # a late move may just have ended it on time
                await self.core.publish(MatchChanged(match_id))
            raise
        await self.core.publish(Moved(match_id, entry.version))
        return info, entry

    def apply(
        self, match_id: str, seat: str, action: Any, expected: int | None, now: float
    ) -> tuple[MatchInfo, Entry]:
        """The transaction (in a worker thread); raises ApiError."""
        try:
            with self.core.db.write() as db:
                match = self._locked(db, match_id, expected)
                info = row_info(db, self.core.cache, match)
                entry = catch_up(
                    db, self.core.cache, match.id, info.game, match.seed,
                    match.rules_version, match.version,
                )  # fmt: skip
                new = None
                if out_of_time(info, entry, now) == seat:
                    end_on_time(match, seat, get_game(info.game).seats, now)
                else:
                    new = self._accept(db, match, entry, seat, action, now)
                info = refreshed(info, match)
        except IntegrityError:
            raise ApiError(409, "stale_version", "Another move was accepted first.") from None
        self.core.cache.put_info(info)
        if new is None:
            raise ApiError(422, "match_over", "Your time ran out: the match is over.")
        self.core.cache.put_entry(new.warm())
        return info, new

    @staticmethod
    def _locked(db: Session, match_id: str, expected: int | None) -> Match:
        """The match row under its lock, if an action may be played on it at `expected`."""
        match = repo.get_match(db, checked_id(match_id), lock=True)
        if match is None:
            raise unauthorized()  # the seat's match was deleted
        if match.status == "waiting":
            raise ApiError(409, "match_not_started", "The opponent has not joined yet.")
        if match.status != "active":
            raise ApiError(422, "match_over", "The match has ended.")
        if expected is not None and expected != match.version:
            raise ApiError(
                409, "stale_version", f"The match is at version {match.version}, not {expected}."
            )
        return match

    @staticmethod
    def _accept(
        db: Session, match: Match, entry: Entry, seat: str, action: Any, now: float
    ) -> Entry:
        """Run the rules, store the action at seq = version + 1 and move the row on."""
        game = get_game(entry.game)
        try:
            step = game.apply(entry.state, seat, action)
        except EngineError as err:
            raise from_engine(err) from None
        new = entry.extended(step.state, tuple(step.events), now, seat)
        stored = game.action_to_json(game.parse_action(action))
        repo.add_action(db, match.id, new.version, seat, stored, utc(now))
        match.version = new.version
        match.round = game.round_of(new.state)
        match.updated_at = utc(now)
        if (outcome := game.outcome(new.state)) is not None:
            match.status = "finished"
            match.winner = outcome.winners[0] if outcome.winners else None
            match.win_reason = outcome.reason
        return new
