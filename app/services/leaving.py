"""Leaving a match before its end: resigning, running out of time, abandoning it. In a duel the
one who leaves loses and the match ends (v1). At a table of three or more (contract v1.2) it goes
on for the others: the computer takes the leaver's seat over at normal level and plays it to the
end, and the leaver ranks last. Each is a change run in the match transaction (services.changes),
which ends and rates the match when the change says so; a live time-out or an abandonment is
put on the leaver's record in the same transaction (services.reliability), and withdraws a
tournament's table-round player from the rounds to come (services.tournament_results)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from engine.registry import get_game

from ..clocks import decider
from ..errors import ApiError
from ..persistence.cache import Entry
from ..persistence.moves import MoveTransaction
from ..persistence.records import Ending, MatchInfo, MatchRow
from ..push.changes import Notified
from .changes import Change, Changed
from .reliability import record_leaving
from .tournament_results import record_leaver

LEAVE_REASONS = ("resigned", "timeout", "abandoned")


def seat_left() -> ApiError:
    """What a leaver's token gets for a move or a second resignation: the seat is no longer
    theirs to play (they can still watch the table with it)."""
    return ApiError(409, "seat_left", "You left this table: the computer plays your seat now.")


def match_over() -> ApiError:
    return ApiError(422, "match_over", "The match has already ended.")


def duel_ending(info: MatchInfo, seat: str, reason: str) -> Ending:
    """A duel's leaver loses to the other seat (v1): `reason` is resigned or timeout."""
    winner = info.others(seat)[0]
    return Ending("finished", winner, reason, seat, ((winner,), (seat,)))


def leave(
    tx: MoveTransaction, info: MatchInfo, entry: Entry, seat: str, reason: str, when: datetime
) -> Changed:
    """`seat`'s person leaves the match for `reason` (the caller has checked it is on and the
    seat is a person's): a duel ends; a table goes on with the computer in the seat, and whose
    clock runs must be worked out again."""
    assert reason in LEAVE_REASONS
    told = record_leaving(tx, info, seat, reason, when)  # a live time-out, an abandonment
    if not info.table:
        return Changed(info, ending=duel_ending(info, seat, reason), told=told)
    if info.status != "active":  # a table that never started: nobody played, nobody is ranked
        return Changed(info, ending=Ending("finished", None, reason, seat), told=told)
    log_length = len(entry.log_json[None])  # where the log says so (views keep entries sent)
    if not tx.leave_seat(info.match_id, seat, reason, when, log_length):
        raise seat_left()  # (the locked row's seats say it is a person's: never, but not twice)
    tx.set_due(info.match_id, None, entry.version)
    record_leaver(tx, info.match_id, info.options, seat, reason)  # a tournament's missed game
    seats = tuple(
        replace(s, kind="bot", left=reason, left_at=when.timestamp(), left_log=log_length)
        if s.name == seat
        else s
        for s in info.seats
    )
    return Changed(replace(info, seats=seats), seats="given", told=told)


def resigning(seat: str, when: datetime) -> Change:
    """The person at `seat` gives up."""

    def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        if row.status not in ("active", "waiting"):
            raise match_over()
        if info.kind(seat) != "human":
            raise seat_left()
        return leave(tx, info, entry, seat, "resigned", when)

    return change


def timing_out(seat: str, version: int, when: datetime) -> Change:
    """The sweep found `seat` out of time at `version`: it leaves, unless a move came first."""

    def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        if row.status != "active" or row.version != version or info.kind(seat) != "human":
            return Changed(info, done=False)
        return leave(tx, info, entry, seat, "timeout", when)

    return change


def idle_bot(version: int, when: datetime) -> Change:
    """The sweep found a match without a clock untouched for the bot accounts' stated time at
    `version` (contract v1.2 "Bots"): a bot account's seat among those deciding forfeits as if
    its time ran out — a duel ends, the other seat winning; at a table the computer plays the
    seat on. Unless a move came first, or no seat deciding is a bot account's."""

    def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        seat = bot_deciding(info, entry)
        if row.status != "active" or row.version != version or seat is None:
            return Changed(info, done=False)
        return leave(tx, info, entry, seat, "timeout", when)

    return change


def bot_deciding(info: MatchInfo, entry: Entry) -> str | None:
    """A seat a bot account still plays among those the game waits on, if any."""
    deciding = get_game(entry.game).to_move(entry.state)
    return next((s for s in deciding if info.kind(s) == "human" and info.seat(s).player_bot), None)


def abandoning(cutoff: datetime, when: datetime) -> Change:
    """Nobody touched the match since `cutoff`: abandoned, unless it is a table under way,
    whose idle deciding person the computer replaces so the others play on (contract v1.2)."""

    def change(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        if not tx.still_idle(row.id, cutoff):
            return Changed(info, done=False)  # touched since the sweep looked
        deciding = decider(entry) if row.status == "active" else None
        if info.table and deciding is not None and info.kind(deciding) == "human":
            return leave(tx, info, entry, deciding, "abandoned", when)
        told: tuple[Notified, ...] = ()
        if deciding is not None and info.kind(deciding) == "human":  # the duel waited on it
            told = record_leaving(tx, info, deciding, "abandoned", when)
        return Changed(info, ending=Ending("abandoned", None, None, "abandoned"), told=told)

    return change
