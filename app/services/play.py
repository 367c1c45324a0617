"""Use case: submit an action. One match transaction (services.changes): lock the match, check the
expected version, run the rules, insert the action at seq = version + 1, commit; only then
publish Moved. A move that arrives after its seat's clock ran out is refused: a duel ends, and at
a table the computer takes the seat over (contract v1.2)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from engine.core.errors import EngineError
from engine.core.game import Viewer
from engine.registry import get_game

from ..clocks import due_at, out_of_time
from ..errors import ApiError, from_engine
from ..games import forced, played
from ..lessons import lesson_of
from ..logs import fields
from ..persistence import repository as repo
from ..persistence.cache import Entry
from ..persistence.moves import Busy, MoveTransaction
from ..persistence.records import Ending, MatchInfo, MatchRow
from ..push.changes import MatchChanged, Moved, Notified
from .access import seat_for
from .changes import Changed, MatchChanges
from .core import Core, utc
from .leaving import leave, seat_left

log = logging.getLogger("watergate.play")


class TooLate(ApiError):
    """A move after its seat's time ran out: the seat left on time instead (a duel ended). Its
    change's bell lines (the leaver's ban) ride along, to be published by the caller."""

    def __init__(self, code: str, message: str, told: tuple[Notified, ...]) -> None:
        super().__init__(409 if code == "seat_left" else 422, code, message)
        self.told = told


class Play:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.changes = MatchChanges(core)

    async def submit(
        self, token: str | None, match_id: str, action: Any, expected: int | None
    ) -> str:
        """A seat's action by HTTP: the seat's new view as JSON text."""
        arrived = time.time()
        seat = await run_in_threadpool(seat_for, self.core, token, match_id)
        info, entry = await self.act(match_id, seat, action, expected, arrived, person=True)
        return await self.core.renderer.view(info, entry, seat)

    async def act(
        self,
        match_id: str,
        seat: str,
        action: Any,
        expected: int | None,
        arrived: float | None = None,
        *,
        person: bool = False,
    ) -> tuple[MatchInfo, Entry]:
        """Apply the action and publish it (sockets, bots, a seat's socket message). `arrived`:
        when the action reached the server (epoch seconds; now by default), for its push's
        latency; the game's own time comes from the injected clock. `person`: a seat token's
        move, refused once its person has left the table (the computer plays the seat on)."""
        arrived = time.time() if arrived is None else arrived
        now = self.core.clock.now()
        # the views about to be pushed (and the mover's, which an HTTP move answers with); read
        # here on the event loop, which owns the sockets
        watching = self.core.fanout.hub.viewers(match_id) | {seat}
        try:
            info, entry = await self._apply_soon(
                match_id, seat, action, expected, now, watching, person
            )
        except ApiError as err:
            if err.code in ("match_over", "seat_left"):  # a late move may have ended it on time
                await self.core.publish(MatchChanged(match_id))
            if isinstance(err, TooLate):
                await self.core.publish(*err.told)
            raise
        self.core.metrics.accepted(info.game)
        await self.core.publish(Moved(match_id, entry.version, seat, arrived))
        kind = action.get("type") if isinstance(action, dict) else None  # a legal one's, here
        log.info(
            "action accepted",
            extra=fields(
                match_id=match_id, seat=seat, version=entry.version, game=info.game,
                action=kind if isinstance(kind, str) else None,
                ms=round((time.time() - arrived) * 1000, 2),
            ),
        )  # fmt: skip
        return info, entry

    async def _apply_soon(
        self,
        match_id: str,
        seat: str,
        action: Any,
        expected: int | None,
        now: float,
        watching: Iterable[Viewer],
        person: bool,
    ) -> tuple[MatchInfo, Entry]:
        """At once on the event loop when nothing has to be waited for (the usual case on
        SQLite), else in a worker thread."""
        if self.core.moves.can_move_now:
            try:
                return self.apply(
                    match_id, seat, action, expected, now, watching, wait=False, person=person
                )
            except Busy:
                pass
        return await run_in_threadpool(
            partial(self.apply, person=person), match_id, seat, action, expected, now, watching
        )

    def apply(
        self,
        match_id: str,
        seat: str,
        action: Any,
        expected: int | None,
        now: float,
        watching: Iterable[Viewer] | None = None,
        wait: bool = True,
        person: bool = False,
    ) -> tuple[MatchInfo, Entry]:
        """The move's match transaction (in a worker thread, or with wait=False on the event
        loop, where it raises Busy rather than wait for the database or read it); raises
        ApiError. The new state's views are serialised for `watching` (everyone when None)."""

        def move(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
            self._playable(row, expected)
            if person and info.kind(seat) != "human":
                raise seat_left()
            if out_of_time(info, entry, now) == seat:  # too late: it leaves (a duel ends)
                return leave(tx, info, entry, seat, "timeout", utc(now))
            new, ending = self._accept(tx, info, entry, seat, action, now)
            return Changed(info, new, ending)

        try:
            done = self.changes.run(match_id, move, utc(now), wait=wait, watching=watching)
        except IntegrityError:
            raise ApiError(409, "stale_version", "Another move was accepted first.") from None
        if done.entry is None and done.ending is None:
            message = "Your time ran out: the computer plays your seat now."
            raise TooLate("seat_left", message, done.told)
        if done.entry is None:
            raise TooLate("match_over", "Your time ran out: the match is over.", done.told)
        return done.info, done.entry

    @staticmethod
    def _playable(match: MatchRow, expected: int | None) -> None:
        """Whether an action may be played on the locked match at `expected`."""
        if match.status == "waiting":
            raise ApiError(409, "match_not_started", "The opponent has not joined yet.")
        if match.status != "active":
            raise ApiError(422, "match_over", "The match has ended.")
        if expected is not None and expected != match.version:
            raise ApiError(
                409, "stale_version", f"The match is at version {match.version}, not {expected}."
            )

    @staticmethod
    def _accept(
        tx: MoveTransaction, info: MatchInfo, entry: Entry, seat: str, action: Any, now: float
    ) -> tuple[Entry, Ending | None]:
        """Run the rules, store the action at seq = version + 1 and move the row on; how the
        match ended, if this action ended it."""
        game = get_game(entry.game)
        try:
            step = played(game, entry.state, seat, action)
        except EngineError as err:
            raise from_engine(err) from None
        new = entry.extended(step.state, tuple(step.events), now, seat)
        stored = game.action_to_json(game.parse_action(action))
        tx.add_action(info.match_id, new.version, seat, stored, utc(now))
        # Issue 42: a decision this left with one option only, which everyone could count, is
        # taken now, in this transaction, as its seat's action ("the only choice" in the log):
        # no click, and no pause to time (its count is public, so the haste tells nobody). Not
        # in a lesson: its coach teaches that click (the Editor's lesson ends on one).
        teaching = lesson_of(info.options) is not None
        while not teaching and game.outcome(new.state) is None:
            only = forced(game, new.state)
            if only is None:
                break
            taker, choice = only
            step = played(game, new.state, taker, choice)
            new = new.extended(step.state, tuple(step.events), now, taker)
            tx.add_action(info.match_id, new.version, taker, game.action_to_json(choice), utc(now))
        due = due_at(info, new)
        when = repo.NEVER if due is None else utc(due)
        tx.advance(info.match_id, new.version, game.round_of(new.state), utc(now), when)
        outcome = game.outcome(new.state)
        return new, None if outcome is None else info.ending(outcome)
