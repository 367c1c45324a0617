"""The per-app objects (settings, database, cache, services, realtime), made in create_app."""

from __future__ import annotations

from dataclasses import dataclass

from .bots import BotRunner
from .clock import Clock
from .config import Settings
from .db import Database
from .lifecycle import Lifecycle
from .live import Live, Presence
from .matches import MatchService
from .realtime import Broadcaster, Hub


@dataclass
class AppContext:
    settings: Settings
    db: Database
    service: MatchService
    hub: Hub
    broadcaster: Broadcaster
    bots: BotRunner
    lifecycle: Lifecycle
    presence: Presence
    live: Live
    clock: Clock

    async def changed(self, match_id: str, version: int = -1) -> None:
        """Tell every process's sockets of this match; wake a bot that must now decide."""
        await self.broadcaster.publish(match_id, version)
        self.bots.poke(match_id)
