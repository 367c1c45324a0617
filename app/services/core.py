"""What every use case shares: the database, the cache, the fan-out, the clock, and publishing a
change after a commit (to the fan-out, then to this process's listeners such as the bots)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..clocks import Clock
from ..config import Settings
from ..metrics import Metrics
from ..persistence.cache import MatchCache
from ..persistence.db import Database
from ..persistence.moves import Moves
from ..push.changes import Change
from ..push.fanout import Fanout
from ..push.render import Renderer


def utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


@dataclass
class Core:
    settings: Settings
    db: Database
    cache: MatchCache
    fanout: Fanout
    renderer: Renderer
    clock: Clock
    moves: Moves
    metrics: Metrics
    listeners: list[Callable[[Change], None]] = field(default_factory=list)

    def stamp(self) -> datetime:
        """Now, from the injected clock (tests control time; clocks are computed from stamps)."""
        return utc(self.clock.now())

    async def publish(self, *changes: Change) -> None:
        """Tell every process's sockets; then this process's listeners (a bot may now decide)."""
        for change in changes:
            await self.fanout.publish(change)
            for listener in self.listeners:
                listener(change)
