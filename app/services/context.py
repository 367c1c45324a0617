"""The per-app objects, wired in one place: storage, cache, push, and one object per use-case
family. Made when the app starts; routes reach them through `request.app.state.ctx`."""

from __future__ import annotations

from dataclasses import dataclass

import anyio.to_thread

from ..clocks import Clock
from ..config import Settings
from ..persistence.cache import MatchCache
from ..persistence.db import Database
from ..push.fanout import Fanout
from ..push.hub import Caps, Hub
from ..push.presence import Presence
from ..push.render import Renderer
from .admin import Admin
from .bots import BotRunner
from .core import Core
from .lifecycle import Lifecycle
from .matches import Matches
from .play import Play
from .views import Views


@dataclass
class AppContext:
    settings: Settings
    db: Database
    cache: MatchCache
    hub: Hub
    fanout: Fanout
    presence: Presence
    core: Core
    matches: Matches
    play: Play
    views: Views
    lifecycle: Lifecycle
    admin: Admin
    bots: BotRunner

    @staticmethod
    async def start(settings: Settings, clock: Clock) -> AppContext:
        db = Database(settings.database_url)
        cache = MatchCache(settings.cache_matches)
        hub = Hub(
            Caps(
                settings.max_sockets_per_seat,
                settings.max_sockets_per_spectator_key,
                settings.max_sockets_per_match,
            )
        )
        fanout = Fanout(hub, cache, settings.redis_url)
        await fanout.start()
        presence = Presence(hub, fanout.redis)
        await presence.start()
        renderer = Renderer(db, cache, presence, clock)
        hub.render = renderer.frames
        # Fewer worker threads than anyio's 40: database work is short, and a crowd of threads
        # fighting for the GIL stretched the one holding the write lock (p99 latency spikes).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        core = Core(settings, db, cache, fanout, renderer, clock)
        play = Play(core)
        bots = BotRunner(core, play)
        core.listeners.append(bots.on_change)
        ctx = AppContext(
            settings, db, cache, hub, fanout, presence, core, Matches(core), play, Views(core),
            Lifecycle(core), Admin(core), bots,
        )  # fmt: skip
        await bots.resume_all()
        return ctx

    async def close(self) -> None:
        await self.bots.close()
        await self.lifecycle.notices.close()
        await self.hub.close()
        await self.presence.close()
        await self.fanout.close()
        self.db.dispose()
