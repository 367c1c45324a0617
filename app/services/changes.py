"""The one way a match changes once it exists: a move, a resignation, a time-out, an abandonment,
a leaver's replacement, an admin's abort. Each is a function of the locked match (its row, its
facts, its state) run inside the match transaction (persistence.moves), which writes what it
decided; here the transaction ends a match the change ended and rates it, then, once committed,
the process's cache learns the new facts. Publishing the typed change is the caller's (an async
use case), with what this returns."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from engine.core.game import Viewer

from ..errors import ApiError, checked_id, unauthorized
from ..persistence import repository as repo
from ..persistence.cache import Entry, current, read_info
from ..persistence.moves import Busy, MoveTransaction
from ..persistence.records import Ending, MatchInfo, MatchRow, refreshed
from ..push.changes import Notified
from .core import Core
from .ratings import rate_ending
from .tournament_results import record_ending


@dataclass(frozen=True, slots=True)
class Changed:
    """What a change decided: the match's facts after it, its new state (a move's), and how it
    ended the match (None: it goes on). `done` false: it found nothing to do and wrote nothing
    (a sweep's verdict that a move overtook). `seats`: how it changed the seats, counted on the
    row (persistence.seating): "given" when `info` shows the new seats (a leaver's to the
    computer), "taken" when the facts must be read again once committed (a person sat down:
    their name and rating). `told`: bell lines it wrote (a leaver's ban), to publish once
    committed."""

    info: MatchInfo
    entry: Entry | None = None
    ending: Ending | None = None
    done: bool = True
    seats: Literal["kept", "given", "taken"] = "kept"
    told: tuple[Notified, ...] = ()


# A change: given the transaction and the locked match, write what it decides and say so.
Change = Callable[[MoveTransaction, MatchRow, MatchInfo, Entry], Changed]


class MatchChanges:
    def __init__(self, core: Core) -> None:
        self.core = core

    def run(
        self,
        match_id: str,
        change: Change,
        when: datetime,
        *,
        wait: bool = True,
        watching: Iterable[Viewer] | None = None,
        missing: Callable[[], ApiError] = unauthorized,
    ) -> Changed:
        """One transaction: lock the row, read the match (from the cache when it holds this
        version), apply `change`, end and rate the match if the change ended it, commit; then
        the cache. With wait=False (on the event loop) it raises Busy rather than wait for the
        database or read it. `watching`: the viewers whose views of a new state are serialised
        at once (everyone's when None). `missing`: the error for a match that is not there (a
        seat's token of a deleted match is unknown; an admin is told it is not found)."""
        core = self.core
        with core.moves.transaction(wait=wait) as tx:
            row = tx.locked_row(checked_id(match_id))
            if row is None:
                raise missing()
            if not wait and not core.cache.holds(row):
                raise Busy  # the state must be read or replayed first: not on the loop
            info, entry = current(core.cache, core.db.reader, row)
            done = change(tx, row, info, entry)
            if not done.done:
                return done
            ending = done.ending
            if ending is not None:
                tx.finish(row.id, ending, when)
                rate_ending(tx, row.id, row.game, row.options, ending, when)
                record_ending(tx, row.id, row.game, row.options, ending, when)
                row = replace(
                    row, status=ending.status, winner=ending.winner,
                    win_reason=ending.win_reason, ended_by=ending.ended_by,
                )  # fmt: skip
            if done.seats != "kept":
                row = replace(row, seats_version=row.seats_version + 1)
            info = replace(refreshed(done.info, row), seats_version=row.seats_version)
        if done.seats == "taken":  # (the row too: taking the last seat starts the match)
            with core.db.reader() as db:
                info = read_info(db, repo.match_row(db, row.id) or row)
        core.cache.put_info(info)
        if done.entry is not None:
            core.cache.put_entry(done.entry.warm(watching))
        return replace(done, info=info)
