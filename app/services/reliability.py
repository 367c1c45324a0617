"""Reliability (issue 43, contract v1.2 "Sanctions"): a person who lets their clock run out in a
live game, or abandons a match others still play, gets an abandonment record, written in the
transaction that hands their seat over or ends the match. The second record within 24 hours
bans them from the lobby, quick pairing and rated play for 10 minutes, each further one within
the day for twice as long, never longer than 3 days. The reliability figure is the finished
share (0-100) of a player's last 50 ended games: those they did not abandon. The refusals of
the calls a ban covers are asked here too (`refuse_banned`), by the lobby, matches and rematches."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy.orm import Session

from ..clocks import rule_from_options
from ..persistence import abandonments as store
from ..persistence.records import MatchInfo
from ..persistence.sql import Sql
from ..push.changes import Notified
from .sanctions import refuse_if_sanctioned, started

WINDOW: Final = timedelta(hours=24)  # records this close together bring a ban
FIRST_BAN: Final = timedelta(minutes=10)  # the second record's ban; each further one doubles it
LONGEST_BAN: Final = timedelta(days=3)
BAN_SCOPES: Final = ("lobby", "pairing", "rated")
LAST_GAMES: Final = 50  # the figure's window: a player's newest ended games
MIN_GAMES: Final = 5  # fewer ended games than this: no figure yet (null)


def ban_length(records: int) -> timedelta | None:
    """How long the `records`-th record within the window bans for (None: no ban)."""
    if records < 2:
        return None
    doublings = min(records - 2, 16)  # 10 min x 2**9 passes 3 days already
    length: timedelta = FIRST_BAN * (1 << doublings)
    return min(length, LONGEST_BAN)


def live(options: dict[str, Any]) -> bool:
    """A realtime clock: the others wait at the table (a correspondence clock's time-out is
    a missed day, not a seat left)."""
    rule = rule_from_options(options)
    return rule is not None and rule.kind == "realtime"


def ban_reason(records: int) -> str:
    return (
        f"Left {records} games within 24 hours (let the clock run out in a live game, "
        "or abandoned it)."
    )


def record_leaving(
    sql: Sql, info: MatchInfo, seat: str, reason: str, when: datetime
) -> tuple[Notified, ...]:
    """In the match transaction: `seat` left for `reason` (resigned, timeout, abandoned). A
    live game's time-out or an abandonment by a person, with another person at the table,
    is recorded; the record that makes two within the window bans, and tells its player on the
    bell. That bell line, to publish after the commit (none without a ban)."""
    if reason not in ("timeout", "abandoned") or (reason == "timeout" and not live(info.options)):
        return ()
    mine = info.seat(seat)
    others = [s for s in info.people if s != seat]
    if mine.player_id is None or mine.kind != "human" or not others:
        return ()  # a guest's seat names nobody; nobody waited on a game against the computer
    kind = "clock" if reason == "timeout" else "abandoned"
    store.add_record(sql, mine.player_id, info.match_id, kind, when)
    count = store.records_since(sql, mine.player_id, when - WINDOW)
    length = ban_length(count)
    if length is None:
        return ()
    for scope in BAN_SCOPES:
        store.add_sanction(sql, mine.player_id, scope, when + length, ban_reason(count), when)
    return (started(sql, mine.player_id, BAN_SCOPES, when + length, when),)


def refuse_banned(db: Session, player: str | None, now: datetime, *scopes: str) -> None:
    """403 banned when the player is banned from any of `scopes` (issue 43): the lobby for
    a public challenge or joining one, rated play for a rated seat."""
    if player is not None and scopes:
        refuse_if_sanctioned(db, player, scopes, now)


def rated_scope(options: Mapping[str, Any]) -> tuple[str, ...]:
    return ("rated",) if options.get("rated") is True else ()


def percent(counted: tuple[int, int] | None) -> int | None:
    """The figure from (games, abandoned): None below the minimum of games."""
    if counted is None or counted[0] < MIN_GAMES:
        return None
    games, left = counted
    return round(100 * (games - left) / games)


def figures(db: Session, players: Collection[str]) -> dict[str, int | None]:
    """Each player's reliability figure (None below the minimum of games), read in the caller's
    transaction: a profile's, or the lobby's for its challenges' creators at once."""
    found = store.figures(db, set(players), LAST_GAMES)
    return {p: percent(found.get(p)) for p in players}
