"""The computer's fixed pace (R18): every answer comes one pause after the change that offered the
decision, whatever the computer holds, however many choices it has and whichever level it plays;
it thinks inside that pause. The clock and the sleep are handed in, so the pace can be checked on
a clock that only the test moves."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from ..config import BOT_PACE_MARGIN_MS

A = TypeVar("A")
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Pace:
    delay: float  # seconds from the offering change to the answer; 0 turns the pause off
    budget_ms: int  # the most thinking per decision (the settings keep it inside the pause)

    def thinking_ms(self, spent: float) -> int:
        """The thinking budget for a decision seen `spent` seconds ago: what is left of the pause
        once the margin is kept, so that thinking ends before the pause does. Without a pause
        the budget is the setting's."""
        if self.delay <= 0:
            return self.budget_ms
        left = int((self.delay - spent) * 1000) - BOT_PACE_MARGIN_MS
        return max(1, min(self.budget_ms, left))


async def paced(
    pace: Pace, started: float, clock: Clock, sleep: Sleep, think: Callable[[int], Awaitable[A]]
) -> tuple[A, float]:
    """Think with the budget left since `started`, then wait out the rest of the pause; return
    the answer and how late it came after its pace (0 or less: on time)."""
    answer = await think(pace.thinking_ms(clock() - started))
    late = clock() - started - pace.delay
    if pace.delay > 0 and late < 0:
        await sleep(-late)
    return answer, late
