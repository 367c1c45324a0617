"""A token bucket: how the server meters what anyone may spend of it, per second with a burst
(new spectator sockets per process, messages per socket)."""

from __future__ import annotations

import time
from collections.abc import Callable


class Budget:
    """A token bucket: `rate` tokens a second, at most `burst` saved up."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def take(self, cost: float = 1.0) -> bool:
        """`cost` tokens if there are that many (a cost above the burst is never granted)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True

    def wait(self) -> int:
        """Whole seconds until a token is back (Retry-After)."""
        return max(1, int((1 - self.tokens) / self.rate + 0.999))
