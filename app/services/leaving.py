"""Leaving a match before its end: resigning, running out of time, abandoning it. In a duel the
one who leaves loses and the match ends (v1). At a table of three or more (contract v1.2) it goes
on for the others: the computer takes the leaver's seat over at normal level and plays it to the
end, and the leaver ranks last. Both are decided here, inside the transaction the caller owns
(written once against `Sql`, so the move path's and a session's transaction alike)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from ..errors import ApiError
from ..persistence import repository as repo
from ..persistence.cache import Entry
from ..persistence.records import Ending, MatchInfo
from ..persistence.sql import Sql

LEAVE_REASONS = ("resigned", "timeout", "abandoned")


def seat_left() -> ApiError:
    """What a leaver's token gets for a move or a second resignation: the seat is no longer
    theirs to play (they can still watch the table with it)."""
    return ApiError(409, "seat_left", "You left this table: the computer plays your seat now.")


@dataclass(frozen=True, slots=True)
class Left:
    """What a departure did: the match's facts after it, and how it ended the match (None: a
    table that goes on without the leaver)."""

    info: MatchInfo
    ending: Ending | None


def duel_ending(info: MatchInfo, seat: str, reason: str) -> Ending:
    """A duel's leaver loses to the other seat (v1): `reason` is resigned or timeout."""
    winner = info.others(seat)[0]
    return Ending("finished", winner, reason, seat, ((winner,), (seat,)))


def leave(sql: Sql, info: MatchInfo, entry: Entry, seat: str, reason: str, when: datetime) -> Left:
    """`seat`'s person leaves the match for `reason`; rates the match if that ended it. The
    caller has checked the match is still on and holds its row lock."""
    assert reason in LEAVE_REASONS
    if not info.table or info.status != "active":
        ending = duel_ending(info, seat, reason)
        if info.table:  # a table that never started: nobody played, nobody is ranked
            ending = Ending("finished", None, reason, seat)
        return Left(info, ending)
    log_length = len(entry.log_json[None])  # where the log says so (views keep entries sent)
    params = {"in_match": info.match_id, "seat": seat, "when": when, "reason": reason}
    sql.write(repo.LEAVE_SEAT, {**params, "log_length": log_length})
    seats = tuple(
        replace(s, kind="bot", left=reason, left_at=when.timestamp(), left_log=log_length)
        if s.name == seat
        else s
        for s in info.seats
    )
    return Left(replace(info, seats=seats), None)
