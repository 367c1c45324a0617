"""A circuit breaker for the Redis commands a request waits on (publishing a change, presence):
once one fails, they skip Redis until a background probe finds it answering again. A Redis that
drops packets without a word (black-holed) otherwise cost every action its timeouts, about 4 s
each (issue 40, finding 14); now it costs the first one, and the others nothing."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..supervise import finish, supervise

log = logging.getLogger("watergate.fanout")
PROBE_S = 1.0  # how long one probe waits for Redis's answer
PROBE_MAX_DELAY = 5.0  # probes back off to one every this long while Redis stays away


class RedisBreaker:
    def __init__(self, redis: Any | None) -> None:
        self.redis = redis
        self._probe: asyncio.Task[None] | None = None

    @property
    def usable(self) -> bool:
        """Whether a command should try Redis now (false while a probe waits for it)."""
        return self.redis is not None and self._probe is None

    def failed(self, what: str, err: BaseException) -> None:
        """A command failed: skip Redis until a probe answers (started once per outage)."""
        if self._probe is None:
            log.warning("%s: Redis failed (%s); skipping it until it answers again", what, err)
            self._probe = supervise(
                "redis probe", self._ping, forever=False, max_delay=PROBE_MAX_DELAY
            )

    async def _ping(self) -> None:
        """Raises while Redis does not answer (the supervisor tries again, backing off)."""
        assert self.redis is not None
        await asyncio.wait_for(self.redis.ping(), PROBE_S)
        log.info("Redis answers again")
        self._probe = None

    async def close(self) -> None:
        probe, self._probe = self._probe, None
        await finish(probe)
