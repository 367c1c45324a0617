"""Match clocks, kept outside the engine: the rules know nothing of time.

A clock is never stored as a running counter. It is recomputed from what is stored anyway: when
the match became active and when each action was accepted (and by whom). Between two accepted
actions exactly the seat that made the second one was deciding, so its time ran; since the last
action, the seat that must decide now is using its time. This survives restarts exactly.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.registry import get_game

from .errors import ApiError
from .persistence.cache import Entry
from .persistence.records import MatchInfo

REALTIME_MINUTES = (15, 30)
TURN_DAYS = (1, 3)
INCREMENT_SECONDS = 10


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


@dataclass(frozen=True)
class ClockRule:
    kind: str  # realtime | turn
    initial_s: float = 0.0  # realtime: each player's bank
    increment_s: float = 0.0  # realtime: added after each of the player's decisions
    per_move_s: float = 0.0  # turn: time for each decision
    # realtime: the seats that went berserk in a tournament (issue 46): half the bank, no
    # increment, chosen before their first decision
    berserk: frozenset[str] = frozenset()

    def bank(self, seat: str) -> float:
        return self.initial_s / 2 if seat in self.berserk else self.initial_s

    def increment(self, seat: str) -> float:
        return 0.0 if seat in self.berserk else self.increment_s


def rule_from_options(options: dict[str, Any] | None) -> ClockRule | None:
    clock = (options or {}).get("clock")
    if not isinstance(clock, dict):
        return None
    if clock.get("kind") == "realtime":
        return ClockRule(
            "realtime",
            initial_s=60.0 * clock["minutes"],
            increment_s=float(clock.get("increment_s", INCREMENT_SECONDS)),
            berserk=frozenset(str(seat) for seat in clock.get("berserk") or ()),
        )
    if clock.get("kind") == "turn":
        return ClockRule("turn", per_move_s=86400.0 * clock["days"])
    return None


def remaining(
    rule: ClockRule,
    activated_at: float,
    stamps: tuple[float, ...],
    actors: tuple[str, ...],
    decider: str | None,
    now: float,
    seats: Sequence[str],
) -> dict[str, float]:
    """Seconds left for each seat at `now` (negative once it has run out)."""
    last = stamps[-1] if stamps else activated_at
    running = max(0.0, now - last) if decider is not None else 0.0
    if rule.kind == "turn":
        return {seat: rule.per_move_s - (running if seat == decider else 0.0) for seat in seats}
    used = dict.fromkeys(seats, 0.0)
    moves = dict.fromkeys(seats, 0)
    start = activated_at
    for stamp, actor in zip(stamps, actors, strict=True):
        used[actor] += max(0.0, stamp - start)
        moves[actor] += 1
        start = stamp
    if decider is not None:
        used[decider] += running
    return {
        seat: rule.bank(seat) + rule.increment(seat) * moves[seat] - used[seat] for seat in seats
    }


def clock_option(kind: str | None, amount: int | None) -> dict[str, Any] | None:
    """Validate the clock chosen at creation: none, realtime 15/30 min, or turn-based 1/3 days."""
    if kind in (None, "", "none"):
        return None
    if kind == "realtime" and amount in REALTIME_MINUTES:
        return {"kind": "realtime", "minutes": amount, "increment_s": INCREMENT_SECONDS}
    if kind == "turn" and amount in TURN_DAYS:
        return {"kind": "turn", "days": amount}
    raise ApiError(
        422, "invalid_clock", "Clocks: realtime with 15 or 30 minutes, or turn with 1 or 3 days."
    )


def clock_name(clock: object) -> str:
    """A match's clock option as the creation choice names it: none, realtime-15, turn-3…"""
    if isinstance(clock, dict) and clock.get("kind") == "realtime":
        return f"realtime-{clock.get('minutes')}"
    if isinstance(clock, dict) and clock.get("kind") == "turn":
        return f"turn-{clock.get('days')}"
    return "none"


def decider(entry: Entry) -> str | None:
    """The seat whose time runs now (the first to move; None when the game is over)."""
    seats = get_game(entry.game).to_move(entry.state)
    return seats[0] if seats else None


def _timed(info: MatchInfo, seat: str | None) -> str | None:
    """The deciding seat, unless the computer took it over from a leaver (contract v1.2): its
    clock had run out, or its person had gone, and the computer must still finish the match."""
    return None if seat is None or info.seat(seat).left is not None else seat


def out_of_time(info: MatchInfo, entry: Entry, now: float) -> str | None:
    """The deciding seat if its clock has run out at `now` (clocked, active matches only)."""
    rule = rule_from_options(info.options)
    seat = _timed(info, decider(entry))
    if rule is None or info.status != "active" or info.activated_at is None or seat is None:
        return None
    names = [s.name for s in info.seats]
    left = remaining(rule, info.activated_at, entry.stamps, entry.actors, seat, now, names)
    return seat if left[seat] <= 0 else None


def due_at(info: MatchInfo, entry: Entry) -> float | None:
    """When the deciding seat's time runs out if nobody acts (epoch seconds); None when no
    clock can run out: no clock, not active, or nobody to decide. Its time only runs from
    the last accepted action on, so this is that moment plus what it had left then."""
    rule = rule_from_options(info.options)
    seat = _timed(info, decider(entry))
    if rule is None or info.status != "active" or info.activated_at is None or seat is None:
        return None
    last = entry.stamps[-1] if entry.stamps else info.activated_at
    names = [s.name for s in info.seats]
    left = remaining(rule, info.activated_at, entry.stamps, entry.actors, seat, last, names)
    return last + left[seat]


def clocks_view(info: MatchInfo, entry: Entry, now: float) -> dict[str, object] | None:
    """Each seat's time left at `now` and whether it is running (the view's "clocks")."""
    rule = rule_from_options(info.options)
    if rule is None:
        return None
    names = [s.name for s in info.seats]
    running = decider(entry) if info.status == "active" else None
    if info.activated_at is None:
        left = {seat: rule.bank(seat) or rule.per_move_s for seat in names}
    else:
        left = remaining(rule, info.activated_at, entry.stamps, entry.actors, running, now, names)
    if info.win_reason == "timeout" and info.ended_by in left:
        left[info.ended_by] = 0.0  # the seat that ran out of time
    return {
        "kind": rule.kind,
        **{
            seat: {"remaining_ms": max(0, int(left[seat] * 1000)), "running": seat == running}
            for seat in names
        },
    }
