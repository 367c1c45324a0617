"""Match clocks, kept outside the engine: the rules know nothing of time.

A clock is never stored as a running counter. It is recomputed from what is stored anyway: when
the match became active and when each action was accepted (and by whom). Between two accepted
actions exactly the seat that made the second one was deciding, so its time ran; since the last
action, the seat that must decide now is using its time. This survives restarts exactly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from engine.watergate import Role

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


def rule_from_options(options: dict[str, Any] | None) -> ClockRule | None:
    clock = (options or {}).get("clock")
    if not isinstance(clock, dict):
        return None
    if clock.get("kind") == "realtime":
        return ClockRule(
            "realtime",
            initial_s=60.0 * clock["minutes"],
            increment_s=float(clock.get("increment_s", INCREMENT_SECONDS)),
        )
    if clock.get("kind") == "turn":
        return ClockRule("turn", per_move_s=86400.0 * clock["days"])
    return None


def remaining(
    rule: ClockRule,
    activated_at: float,
    stamps: tuple[float, ...],
    actors: tuple[str, ...],
    decider: Role | None,
    now: float,
) -> dict[str, float]:
    """Seconds left for each seat at `now` (negative once it has run out)."""
    last = stamps[-1] if stamps else activated_at
    running = max(0.0, now - last) if decider is not None else 0.0
    if rule.kind == "turn":
        return {
            role: rule.per_move_s - (running if role == decider else 0.0)
            for role in ("editor", "nixon")
        }
    used = {"editor": 0.0, "nixon": 0.0}
    moves = {"editor": 0, "nixon": 0}
    start = activated_at
    for stamp, actor in zip(stamps, actors, strict=True):
        used[actor] += max(0.0, stamp - start)
        moves[actor] += 1
        start = stamp
    if decider is not None:
        used[decider] += running
    return {
        role: rule.initial_s + rule.increment_s * moves[role] - used[role]
        for role in ("editor", "nixon")
    }
