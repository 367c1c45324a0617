"""Bell lines the site writes itself (issue 43): `your_turn` when a correspondence match (one
without a live clock: a turn clock of days, or none) between people waits on a player who is
not at the table, one unread line per match
however many moves come meanwhile, and `rematch` for the players a rematch is offered to.
Challenges, report outcomes and moderation are written by their own services."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Final

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..clocks import decider, rule_from_options
from ..persistence import notifications as repo
from ..persistence.records import MatchInfo
from ..push.changes import Change, MatchChanged, Moved, Notified
from .access import current
from .core import Core
from .turnwatch import TurnWatch

log = logging.getLogger("watergate.notices")
COUNT_CHANGED: Final = 0  # Notified(player, 0): the unread count changed, no new line
LOOKS: Final = 200  # matches being looked at at once; beyond, a look is skipped (logged)


def correspondence(info: MatchInfo) -> bool:
    """People playing without a live clock: nobody is expected to sit at the table (against
    the computer one plays live)."""
    rule = rule_from_options(info.options)
    people = any(s.player_id for s in info.seats) and not info.has_bot()
    return people and (rule is None or rule.kind == "turn")


def rematch_lines(db: Session, info: MatchInfo, seat: str, now: datetime) -> list[Notified]:
    """Inside the offer's transaction: a `rematch` line for every other person at the table
    (with a player: a guest has no bell). The changes to publish after the commit."""
    by = info.seat(seat).player_name or ""
    made = []
    for other in info.seats:
        if other.name == seat or other.kind != "human" or other.player_id is None:
            continue
        data = {"match_id": info.match_id, "game": info.game, "name": by}
        made.append(Notified(other.player_id, repo.add(db, other.player_id, "rematch", data, now)))
    return made


class TurnLines:
    """A listener of this process's changes: the seat whose turn a correspondence match now
    waits on gets a `your_turn` line, unless its player already has an unread one for the
    match or sits at the table."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._looks: set[asyncio.Task[None]] = set()
        self._skipped = 0
        self._turns = TurnWatch("turn_lines", caches=core.metrics.caches)

    def on_change(self, change: Change) -> None:
        if not isinstance(change, Moved | MatchChanged):
            return
        known = self.core.cache.info(change.match_id)
        if known is not None and not correspondence(known):
            return  # the common case: a live or untimed match costs nothing here
        if len(self._looks) >= LOOKS:
            self._skipped += 1
            if self._skipped == 1 or self._skipped % 1000 == 0:
                log.warning("your_turn lines: too many looks at once, %d skipped", self._skipped)
            return
        version = change.version if isinstance(change, Moved) else 0
        task = asyncio.create_task(self._look(change.match_id, version), name="your_turn")
        self._looks.add(task)
        task.add_done_callback(self._looks.discard)

    async def _look(self, match_id: str, version: int) -> None:
        """After a move the match is read from memory (the process that accepted it holds
        it), as the turn notices do: a move costs no database read here."""
        try:
            found = self.core.cache.get(match_id)
            if found is None or not version or found[1].version < version:
                found = await run_in_threadpool(current, self.core, match_id)
            if found is None:
                return
            info, entry = found
            seat = decider(entry) if info.status == "active" else None
            before = self._turns.deciding(match_id)
            if not self._turns.new_turn(match_id, seat) and not (seat is None and before):
                return
            if not correspondence(info):
                return
            # the turn is over for whoever had it (or the match is): their line is done
            ended = before if before not in (None, seat) else None
            done = info.seat(ended).player_id if ended in info.seat_names else None
            if done is not None and await run_in_threadpool(self._settle, done, match_id):
                await self.core.publish(Notified(done, COUNT_CHANGED))
            if seat is None or info.kind(seat) != "human":
                return
            player = info.seat(seat).player_id
            if player is None or seat in await self.core.renderer.presence.online(match_id):
                return
            # whoever moved last (at a table of N the one before this seat), else another
            last = entry.actors[-1] if entry.actors and entry.actors[-1] != seat else None
            mover = next((s for s in info.seats if s.name == last), None) or next(
                (s for s in info.seats if s.name != seat), None
            )
            name = mover.player_name if mover else ""
            made = await run_in_threadpool(self._add, player, info, name or "")
            if made is not None:
                await self.core.publish(Notified(player, made))
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the database away: the turn notice is lost, nothing else
            log.warning("a your_turn line was not written (%s)", type(err).__name__)

    def _settle(self, player: str, match_id: str) -> bool:
        """Mark the player's `your_turn` line about the match read (they have played it)."""
        with self.core.db.reader() as db:
            found = repo.unread_about(db, player, "your_turn", match_id)
        if not found:
            return False  # the common case costs a read, not a write
        with self.core.db.write() as db:
            return repo.mark_read(db, player, found, self.core.stamp()) > 0

    def _add(self, player: str, info: MatchInfo, name: str) -> int | None:
        with self.core.db.write() as db:
            if repo.unread_about(db, player, "your_turn", info.match_id):
                return None
            data = {"match_id": info.match_id, "game": info.game, "name": name}
            return repo.add(db, player, "your_turn", data, self.core.stamp())

    async def close(self) -> None:
        for task in list(self._looks):
            task.cancel()
        await asyncio.gather(*self._looks, return_exceptions=True)
